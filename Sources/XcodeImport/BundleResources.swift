import Foundation

/// Where a target's Copy Bundle Resources files go in its bundle: at the top by their name, a
/// localized file in its `.lproj` folder (`en.lproj/Localizable.strings` and
/// `fr.lproj/Localizable.strings` are two files), never over a file the bundle needs itself.
enum BundleResources {
    /// The path of `resource` inside the bundle: `NAME`, or `LANG.lproj/NAME` for a file in a localization folder.
    static func destination(of resource: URL) -> String {
        let parent = resource.deletingLastPathComponent().lastPathComponent
        return (parent as NSString).pathExtension.lowercased() == "lproj" ? "\(parent)/\(resource.lastPathComponent)" : resource.lastPathComponent
    }

    /// The resources to copy, each to its own place, and one line for each left out.
    /// - Parameters:
    ///   - resources: The target's resources in the project's order; a `.lproj` folder stands for its files.
    ///   - manifests: The target's `INFOPLIST_FILE` and `CODE_SIGN_ENTITLEMENTS`, read rather than copied.
    ///   - reserved: Names the bundle holds itself (`Info.plist`, the executable, `PlugIns`, `seed`).
    ///   - sourceRoot: For naming files in the lines.
    static func place(_ resources: [URL], manifests: [URL], reserved: Set<String>, sourceRoot: URL) -> (resources: [URL], notCarried: [String]) {
        let manifestPaths = Set(manifests.map(\.standardizedFileURL.path))
        var placed: [String: URL] = [:]
        var kept: [URL] = []
        var lines: [String] = []
        for resource in resources.flatMap(files) where !manifestPaths.contains(resource.standardizedFileURL.path) {
            let destination = destination(of: resource)
            if reserved.contains(destination) {
                lines.append("resource \(name(resource, below: sourceRoot)) is not copied: it would replace the bundle's own \(destination)")
            } else if let first = placed[destination] {
                lines.append("resources \(name(first, below: sourceRoot)) and \(name(resource, below: sourceRoot)) both go to "
                    + "\(destination) in the bundle; the second is not copied")
            } else {
                placed[destination] = resource
                kept.append(resource)
            }
        }
        return (kept, lines)
    }

    /// A `.lproj` folder's files (its subfolders whole), else the resource itself.
    private static func files(_ resource: URL) -> [URL] {
        guard resource.pathExtension.lowercased() == "lproj",
              let names = try? FileManager.default.contentsOfDirectory(atPath: resource.path) else { return [resource] }
        return names.filter { !$0.hasPrefix(".") }.sorted().map { resource.appendingPathComponent($0) }
    }

    private static func name(_ url: URL, below root: URL) -> String {
        let prefix = root.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}
