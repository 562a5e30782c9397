import Foundation
#if canImport(Glibc)
import Glibc
import WalletDaemonClient
#endif

/// systemd's socket activation (`sd_listen_fds(3)`): when `LISTEN_PID` is this process and
/// `LISTEN_FDS` is at least 1, descriptor 3 is a socket already bound and listening.
public enum SocketActivation {
    /// The first descriptor systemd passes (`SD_LISTEN_FDS_START`).
    public static let firstDescriptor: Int32 = 3

    /// The inherited listening socket, if this process was socket-activated. The variables are
    /// removed so that nothing the daemon starts believes it was activated too.
    /// - Throws: ``DaemonError`` when the variables say so but descriptor 3 is not a listening socket.
    public static func inheritedListener() throws -> Int32? {
        let environment = ProcessInfo.processInfo.environment
        guard let pidText = environment["LISTEN_PID"], let fdsText = environment["LISTEN_FDS"] else { return nil }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        guard Int32(pidText) == getpid(), let count = Int(fdsText), count >= 1 else { return nil }
        let fd = firstDescriptor
        guard UnixSocket.isListeningSocket(fd) else {
            throw DaemonError("LISTEN_FDS=\(count) but descriptor \(fd) is not a listening socket")
        }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return fd
    }
}
