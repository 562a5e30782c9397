import Foundation
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

extension StateDirectory {
    /// The mode of the state directory and of `logs/`: the owner's only.
    static let directoryMode: mode_t = 0o700
    /// The mode of every state file: the keychain and issuers' tokens are secrets.
    static let fileMode: mode_t = 0o600

    /// Creates the state directory mode 0700 when it is missing (its parents as usual), and
    /// takes group and other permissions off one that exists with them.
    /// - Throws: ``StateError`` naming the directory when it cannot be created or opened.
    public func prepareDirectory() throws {
        let parent = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw StateError("cannot create the state directory \(url.path): \(Self.reason(error))")
        }
        if mkdir(url.path, Self.directoryMode) != 0 {
            let code = errno
            var status = stat()
            guard code == EEXIST, stat(url.path, &status) == 0 else {
                throw StateError("cannot create the state directory \(url.path): \(Self.errnoReason(code))")
            }
            guard status.st_mode & S_IFMT == S_IFDIR else {
                throw StateError("cannot create the state directory \(url.path): a file is in the way")
            }
        }
        let fd = open(url.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw StateError("cannot open the state directory \(url.path): \(Self.errnoReason())") }
        defer { close(fd) }
        Self.tighten(fd, to: Self.directoryMode)
    }

    /// Opens the event log in ``logsURL`` (mode 0700, its files 0600), the state directory
    /// prepared first.
    /// - Parameter gatheringFor: how long events may wait to be written together (a daemon's
    ///   log, ``EventLogFile/init(directory:gatheringFor:)``); nil writes each at once.
    /// - Throws: ``StateError`` naming the state directory, or ``EventLogError`` naming the log.
    public func openEventLog(gatheringFor delay: Duration? = nil) throws -> EventLogFile {
        try prepareDirectory()
        return try EventLogFile(directory: logsURL, gatheringFor: delay)
    }

    /// Takes from an open file or directory every permission beyond `mode`. A file this user
    /// does not own keeps its mode (`fchmod` is refused): the host still reads and writes it.
    static func tighten(_ fd: Int32, to mode: mode_t) {
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & 0o777 & ~mode != 0 else { return }
        _ = fchmod(fd, status.st_mode & 0o777 & mode)
    }
}
