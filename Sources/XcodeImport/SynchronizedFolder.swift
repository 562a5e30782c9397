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

    /// What is under the folder, relative to it, sorted.
    struct Contents: Equatable {
        /// The files; an asset catalog or other opaque folder is one entry, and so is a symbolic link to a file.
        var files: [String] = []
        /// Symbolic links to folders: not followed (a link to `.` would loop, one to `/` would take
        /// in the machine), so their files are not the folder's.
        var linkedFolders: [String] = []
    }

    /// The files under the folder and the folder links not followed, read without following links.
    func contents() -> Contents {
        var contents = Contents()
        collect(url, prefix: "", into: &contents)
        contents.files.sort()
        contents.linkedFolders.sort()
        return contents
    }

    /// The files under the folder, relative to it, sorted.
    func relativeFiles() -> [String] {
        contents().files
    }

    /// The files that belong to `target`, relative to the folder.
    /// - Parameters:
    ///   - listsFolder: Whether the target lists this folder in `fileSystemSynchronizedGroups`.
    ///   - files: The folder's files, when ``contents()`` was already read.
    func files(of target: String, listsFolder: Bool, among files: [String]? = nil) -> [String] {
        let toggled = membershipExceptions[target] ?? []
        return (files ?? relativeFiles()).filter { listsFolder != toggled.contains($0) }
    }

    private func collect(_ directory: URL, prefix: String, into contents: inout Contents) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names where !name.hasPrefix(".") {
            let child = directory.appendingPathComponent(name)
            let relative = prefix + name
            // lstat: the entry itself, not what a link leads to.
            guard let type = (try? FileManager.default.attributesOfItem(atPath: child.path))?[.type] as? FileAttributeType else { continue }
            if type == .typeSymbolicLink {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: child.path, isDirectory: &isDirectory), isDirectory.boolValue {
                    contents.linkedFolders.append(relative)
                } else {
                    contents.files.append(relative)
                }
            } else if type == .typeDirectory && !ProjectFileKind.isOpaqueFolder(name) {
                collect(child, prefix: relative + "/", into: &contents)
            } else {
                contents.files.append(relative)
            }
        }
    }
}
