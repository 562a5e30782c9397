import CWalletSpawn
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Directories inside App Group containers, made and opened by the host without following any
/// symbolic link: a container is written by extensions and containing apps, so anything in it
/// may be a link planted to turn the host's next write (as root) against another file.
///
/// Every lookup goes through `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)` from a directory the
/// host resolved itself; a directory it creates is given to the sandbox's user when the host is
/// root (it just made it, so that gives nothing else away); nothing that already exists changes
/// owner.
public enum ContainerDirectory {
    /// A container path the host refused: a link where a directory belongs, or not a directory.
    public struct Refusal: Error, Sendable, CustomStringConvertible {
        /// The path refused.
        public var path: String
        public var description: String

        init(path: String, errno code: Int32) {
            self.path = path
            switch code {
            case ELOOP, EXDEV:
                description = "\(path) is a symbolic link (or has one on its way) in an App Group container: "
                    + "refused, not followed (the host never follows a link an extension can write)"
            case ENOTDIR:
                description = "\(path) is not a directory in an App Group container: refused"
            default:
                description = "cannot open \(path) in an App Group container: \(String(cString: strerror(code)))"
            }
        }
    }

    /// Makes sure `container` (a directory in a parent the host owns) and `components` below it
    /// exist, creating what is missing.
    /// - Throws: ``Refusal`` naming the first path that is a link or not a directory.
    public static func ensure(_ container: String, _ components: [String] = []) throws(Refusal) {
        try withDirectory(container, components) { _ in }
    }

    /// Makes sure the container `name` exists in `directory` (an App Groups directory the host
    /// opened itself, without following a link), creating it when missing.
    /// - Parameters:
    ///   - name: The container's name, one path component.
    ///   - directory: The open directory that holds it.
    ///   - path: Its path, for messages.
    /// - Throws: ``Refusal`` when it is a link or not a directory.
    public static func ensure(_ name: String, in directory: Int32, path: String) throws(Refusal) {
        SystemCall.close(try openOrCreate(name, in: directory, path: path))
    }

    /// Writes a symbolic link `name` -> `target` in the directory `components` below `container`
    /// (made as ``ensure(_:_:)`` makes it) unless something has that name already: a name taken
    /// by another file stays as it is.
    /// - Throws: ``Refusal`` when the directory cannot be reached without following a link.
    public static func link(_ name: String, to target: String, in container: String, _ components: [String]) throws(Refusal) {
        try withDirectory(container, components) { directory in
            if symlinkat(target, directory, name) == 0 { giveToSandboxUser(name, in: directory) }
        }
    }

    /// Runs `body` with the directory `components` below `container`, opened (WH_O_PATH) and made
    /// where missing, one component at a time, each beneath the last.
    private static func withDirectory(_ container: String, _ components: [String],
                                      _ body: (Int32) -> Void) throws(Refusal) {
        let parent = (container as NSString).deletingLastPathComponent
        guard let resolved = realpath(parent, nil) else { throw Refusal(path: parent, errno: errno) }
        let anchor = String(cString: resolved)
        free(resolved)
        var directory = open(anchor, WH_O_PATH | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw Refusal(path: parent, errno: errno) }
        defer { SystemCall.close(directory) }
        var path = parent
        for name in [(container as NSString).lastPathComponent] + components {
            path += "/" + name
            let next = try openOrCreate(name, in: directory, path: path)
            SystemCall.close(directory)
            directory = next
        }
        body(directory)
    }

    private static func openOrCreate(_ name: String, in directory: Int32, path: String) throws(Refusal) -> Int32 {
        for _ in 0..<2 {
            let fd = wh_open_beneath(directory, name, WH_O_PATH | O_DIRECTORY | O_CLOEXEC, 0)
            if fd >= 0 { return fd }
            let code = errno
            guard code == ENOENT else { throw Refusal(path: path, errno: code) }
            if mkdirat(directory, name, 0o755) == 0 {
                giveToSandboxUser(name, in: directory)
            } else if errno != EEXIST {
                throw Refusal(path: path, errno: errno)
            }
        }
        throw Refusal(path: path, errno: ENOENT)
    }

    /// A root host's sandboxed processes run as ``SandboxPlan/unprivilegedID``: what the host
    /// just created for them becomes theirs (the entry itself, never what a link points at).
    private static func giveToSandboxUser(_ name: String, in directory: Int32) {
        guard SandboxPlan.runsAsUnprivilegedUser else { return }
        _ = fchownat(directory, name, SandboxPlan.unprivilegedID, SandboxPlan.unprivilegedID, AT_SYMLINK_NOFOLLOW)
    }
}
