import Foundation

/// An Xcode 16 synchronized folder (`PBXFileSystemSynchronizedRootGroup`): every file under it
/// belongs to the targets that list the folder, except the files an exception set names for a
/// target, which toggle that target's membership (out of a target that has the folder, into one
/// that does not).
struct SynchronizedFolder {
    /// The folder on disk.
    var url: URL
    /// Target identifier -> paths relative to the folder whose membership is toggled for it.
    var membershipExceptions: [String: Set<String>]

    /// The files under the folder, relative to it, sorted; an asset catalog or other opaque folder is one entry.
    func relativeFiles() -> [String] {
        var files: [String] = []
        collect(url, prefix: "", into: &files)
        return files.sorted()
    }

    /// The files that belong to `target`, relative to the folder.
    /// - Parameter listsFolder: Whether the target lists this folder in `fileSystemSynchronizedGroups`.
    func files(of target: String, listsFolder: Bool) -> [String] {
        let toggled = membershipExceptions[target] ?? []
        return relativeFiles().filter { listsFolder != toggled.contains($0) }
    }

    private func collect(_ directory: URL, prefix: String, into files: inout [String]) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where !name.hasPrefix(".") {
            let child = directory.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: child.path, isDirectory: &isDirectory) else { continue }
            let relative = prefix + name
            if isDirectory.boolValue && !ProjectFileKind.isOpaqueFolder(name) {
                collect(child, prefix: relative + "/", into: &files)
            } else {
                files.append(relative)
            }
        }
    }
}
