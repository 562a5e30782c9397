import Foundation

/// What `serve --watch DIR` watches in a package, and which changes matter: every folder of the
/// package but the build's, the assembled apps', the simulated device's and hidden ones, and the
/// folders that its links point into (an imported package's sources are links into the Xcode
/// project). Pure: the daemon's watch (on the host loop) asks it.
public struct PackageWatchList: Sendable {
    /// Names never watched, nor counted as a change: the build's, the assembled bundles, the simulated device.
    public static let ignoredNames: Set<String> = [".build", "apps", ".state", ".git", ".swiftpm"]

    public let packageDirectory: URL

    public init(packageDirectory: URL) {
        self.packageDirectory = packageDirectory.standardizedFileURL
    }

    /// Whether a change to the file or folder called `name` (an inotify event's name) should rebuild:
    /// not an ignored or hidden name, nor an editor's backup (`name~`).
    public static func matters(_ name: String) -> Bool {
        !name.hasPrefix(".") && !name.hasSuffix("~") && !ignoredNames.contains(name)
    }

    /// The package's folders and the folders its links point into.
    public func folders() -> Set<String> {
        var found: Set<String> = [packageDirectory.path]
        var pending = [packageDirectory]
        let fileManager = FileManager.default
        while let folder = pending.popLast() {
            for name in (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? [] where Self.matters(name) {
                let url = folder.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
                let isLink = (try? fileManager.destinationOfSymbolicLink(atPath: url.path)) != nil
                if isLink {
                    let target = url.resolvingSymlinksInPath()
                    found.insert(isDirectory.boolValue ? target.path : target.deletingLastPathComponent().path)
                }
                if isDirectory.boolValue && !isLink && found.insert(url.path).inserted { pending.append(url) }
            }
        }
        return found
    }
}
