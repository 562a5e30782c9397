import Foundation
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

// The state directory opened once per operation, after ssh-StrictModes-like checks of it and of
// every directory on its path; every state path is then opened beneath that descriptor without
// following any link (issue 31, break 3): a root host given a directory another user controls
// would otherwise create an App Group's container wherever that user's link points.

extension StateDirectory {
    /// Runs `body` with the state directory open (read-only, a directory): made mode 0700 when
    /// missing and `creating`, else nil when it does not exist.
    /// - Throws: ``StateError`` naming the directory when it cannot be made or opened, when it is
    ///   refused (``ownershipProblem(of:)``), or when a directory on its path is
    ///   (``ancestorProblem(_:)``).
    func withDirectory<T>(creating: Bool, _ body: (Int32?) throws -> T) throws -> T {
        guard let fd = try openDirectory(creating: creating) else { return try body(nil) }
        defer { SystemCall.close(fd) }
        return try body(fd)
    }

    /// Checks the state directory as every operation does, without making it.
    /// - Returns: Whether it exists.
    /// - Throws: ``StateError`` naming it when it would be refused or cannot be opened.
    public func check() throws -> Bool {
        try withDirectory(creating: false) { $0 != nil }
    }

    private func openDirectory(creating: Bool) throws -> Int32? {
        let path = url.standardizedFileURL.path
        if creating { try makeDirectory(path) }
        if let problem = Self.ancestorProblem(path) { throw StateError("refusing the state directory \(path): \(problem)") }
        guard let resolved = realpath(path, nil) else {
            let code = errno
            if code == ENOENT, !creating { return nil }
            throw StateError("cannot open the state directory \(path): \(Self.errnoReason(code))")
        }
        let real = String(cString: resolved)
        free(resolved)
        if real != path, let problem = Self.ancestorProblem(real) {
            throw StateError("refusing the state directory \(path) (\(real)): \(problem)")
        }
        let root = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { throw StateError("cannot open the state directory \(path): /: \(Self.errnoReason())") }
        defer { SystemCall.close(root) }
        // The resolved path again, following no link: what was checked is what is opened.
        let fd = real == "/" ? dup(root) : BeneathLookup.open(String(real.dropFirst()), beneath: root, flags: O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StateError("cannot open the state directory \(path): \(Self.beneathReason(errno))") }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            SystemCall.close(fd)
            throw StateError("cannot open the state directory \(path): \(Self.errnoReason())")
        }
        if let problem = Self.ownershipProblem(of: status) {
            SystemCall.close(fd)
            throw StateError("refusing the state directory \(path): \(problem)")
        }
        return fd
    }

    /// Makes the state directory mode 0700 (its parents as usual) unless something is there.
    private func makeDirectory(_ path: String) throws {
        var made = mkdir(path, Self.directoryMode) == 0
        var code = errno
        if !made, code == ENOENT {
            let parent = (path as NSString).deletingLastPathComponent
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                throw StateError("cannot create the state directory \(path): \(Self.reason(error))")
            }
            made = mkdir(path, Self.directoryMode) == 0
            code = errno
        }
        guard !made else { return }
        var status = stat()
        guard code == EEXIST, stat(path, &status) == 0 else {
            throw StateError("cannot create the state directory \(path): \(Self.errnoReason(code))")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw StateError("cannot create the state directory \(path): a file is in the way")
        }
    }

    /// Why a directory on the path to the state directory (`/` included, the state directory
    /// itself left to ``ownershipProblem(of:)``) makes it unsafe, nil when none does: as ssh's
    /// StrictModes, each must belong to root or to this user, and one that group or others may
    /// write to must have the sticky bit (as /tmp), or another user could rename the state
    /// directory away and put a directory of theirs in its place. A symbolic link on the way
    /// must belong to root or to this user too. A part that does not exist yet ends the check.
    static func ancestorProblem(_ path: String) -> String? {
        let components = path.split(separator: "/").map(String.init)
        var prefixes = ["/"]
        var current = ""
        for component in components {
            current += "/" + component
            prefixes.append(current)
        }
        let user = geteuid()
        for (index, prefix) in prefixes.enumerated() {
            var status = stat()
            guard lstat(prefix, &status) == 0 else { return nil }
            let owner = status.st_uid
            let isLast = index == prefixes.count - 1
            if status.st_mode & S_IFMT == S_IFLNK {
                if owner != 0, owner != user {
                    return "\(prefix) on its path is a symbolic link of \(UserName.describe(owner)), another user: "
                        + "use a state directory whose path only root and you control"
                }
                continue
            }
            if isLast { return nil }
            guard status.st_mode & S_IFMT == S_IFDIR else { return nil }
            let mode = status.st_mode & 0o7777
            var described: String { "mode \(String(mode, radix: 8)), owner \(UserName.describe(owner))" }
            if owner != 0, owner != user {
                return "\(prefix) on its path belongs to \(UserName.describe(owner)), another user, who could replace the state directory "
                    + "(\(described)); use a state directory whose path only root and you control"
            }
            if mode & 0o022 != 0, mode & S_ISVTX == 0 {
                return "\(prefix) on its path may be written by group or other users without the sticky bit, so another user could "
                    + "replace the state directory (\(described)); run chmod go-w (or +t) on it, or use another state directory"
            }
        }
        return nil
    }

    /// The directory that holds `file` (the state directory, or one below it such as
    /// `keychain/`), opened beneath `root` one component at a time without following a link,
    /// and made (mode 0700) where missing when `creating`; nil when missing and not `creating`.
    /// - Returns: The open directory and the file's name in it.
    /// - Throws: ``StateError`` naming the file when it is outside the state directory or a
    ///   directory on its way is a link or not a directory.
    func openParent(of file: URL, in root: Int32, creating: Bool) throws -> (directory: Int32, name: String)? {
        let base = url.standardizedFileURL.path
        let path = file.standardizedFileURL.path
        guard path.hasPrefix(base + "/") else { throw StateError("\(path) is not in the state directory \(base)") }
        let components = path.dropFirst(base.count + 1).split(separator: "/").map(String.init)
        guard let name = components.last else { throw StateError("\(path) is not in the state directory \(base)") }
        var directory = dup(root)
        guard directory >= 0 else { throw StateError("cannot open \(path): \(Self.errnoReason())") }
        var reached = base
        for component in components.dropLast() {
            reached += "/" + component
            let next: Int32?
            do {
                next = try Self.openDirectory(component, in: directory, path: reached, creating: creating, mode: Self.directoryMode)
            } catch {
                SystemCall.close(directory)
                throw error
            }
            SystemCall.close(directory)
            guard let next else { return nil }
            directory = next
        }
        return (directory, name)
    }

    /// The directory `name` in `directory` (opened read-only, beneath it, following no link),
    /// made with `mode` when missing and `creating`; nil when missing and not `creating`.
    /// - Throws: ``StateError`` naming `path` when it is a link or not a directory.
    static func openDirectory(_ name: String, in directory: Int32, path: String, creating: Bool, mode: mode_t) throws -> Int32? {
        for _ in 0..<2 {
            let fd = BeneathLookup.open(name, beneath: directory, flags: O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if fd >= 0 { return fd }
            let code = errno
            guard code == ENOENT else { throw StateError("refusing \(path) in the state directory: \(beneathReason(code))") }
            guard creating else { return nil }
            if mkdirat(directory, name, mode) != 0, errno != EEXIST {
                throw StateError("cannot create \(path) in the state directory: \(errnoReason())")
            }
        }
        throw StateError("cannot create \(path) in the state directory: \(errnoReason(ENOENT))")
    }

    /// An `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)` failure as a clause.
    static func beneathReason(_ code: Int32) -> String {
        switch code {
        case ELOOP, EXDEV:
            return "it is a symbolic link (or has one on its way): refused, not followed (the host follows no link in the state directory)"
        case ENOTDIR: return "it is not a directory"
        case EACCES, EPERM: return "permission denied"
        default: return errnoReason(code)
        }
    }
}
