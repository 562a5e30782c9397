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
    /// checks one that exists without changing it: the host never chmods a directory it did not
    /// create (`--state .` in a shared 1777 directory would take its sticky bit away).
    /// - Throws: ``StateError`` naming the directory when it cannot be created or opened, when
    ///   it is not this user's or others may write to it (``ownershipProblem(of:)``), or when a
    ///   directory on its path is not root's or this user's or lets others replace it
    ///   (``ancestorProblem(_:)``).
    public func prepareDirectory() throws {
        try withDirectory(creating: true) { _ in }
    }

    /// Why the host may not use a state directory with `status`, nil when it may: it must be the
    /// host's own user's (its effective uid), and no group or other user may write to it (as
    /// ssh's StrictModes). A directory readable by others is used as it is: every state file is
    /// 0600 all the same.
    static func ownershipProblem(of status: stat) -> String? {
        let mode = status.st_mode & 0o7777
        var described: String { "mode \(String(mode, radix: 8).leftPadded(to: 4)), owner \(UserName.describe(status.st_uid))" }
        if status.st_uid != geteuid() {
            return "it belongs to \(UserName.describe(status.st_uid)), not to this host's user \(UserName.describe(geteuid())) (\(described)); "
                + "use a state directory of your own, or give it to this user (chown)"
        }
        if mode & 0o022 != 0 {
            return "group or other users may write to it (\(described)), so another user could swap what the host reads and writes there; "
                + "the host does not change a directory it did not create: run chmod go-w on it, or use another state directory"
        }
        return nil
    }

    /// Opens the event log in ``logsURL`` (mode 0700, its files 0600), the state directory
    /// prepared first.
    /// - Parameter gatheringFor: how long events may wait to be written together (a daemon's
    ///   log, ``EventLogFile/init(directory:gatheringFor:)``); nil writes each at once.
    /// - Throws: ``StateError`` naming the state directory, or ``EventLogError`` naming the log.
    public func openEventLog(gatheringFor delay: Duration? = nil) throws -> EventLogFile {
        // `logs/` made or checked beneath the state directory, never through a link; the log
        // then opens it O_NOFOLLOW, in a directory no other user may write to.
        try withDirectory(creating: true) { root in
            if let logs = try Self.openDirectory(logsURL.lastPathComponent, in: root!, path: logsURL.path, creating: true,
                                                 mode: Self.directoryMode) {
                SystemCall.close(logs)
            }
        }
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

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
