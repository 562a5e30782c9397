import Foundation
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// The few Unix-domain socket calls the daemon and its clients make, each retrying `EINTR` and
/// turning `errno` into a ``DaemonError`` that names the path.
public enum UnixSocket {
    /// The longest path `sockaddr_un` holds, its terminating NUL excluded.
    public static let maximumPathBytes = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// A listening socket bound at `path`, created with mode 0600 (the umask is narrowed around
    /// `bind`, so no other user can connect between `bind` and `chmod`).
    /// - Throws: ``DaemonError`` naming the path and the reason.
    public static func listen(path: String, backlog: Int32 = 128) throws -> Int32 {
        var address = try self.address(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DaemonError("cannot create a socket for \(path): \(DaemonError.reason())") }
        let oldMask = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        let bindErrno = errno
        umask(oldMask)
        guard bound == 0 else {
            SystemCall.close(fd)
            throw DaemonError("cannot listen on \(path): \(DaemonError.reason(bindErrno))")
        }
        chmod(path, 0o600)
        guard Glibc.listen(fd, backlog) == 0 else {
            let reason = DaemonError.reason()
            SystemCall.close(fd)
            throw DaemonError("cannot listen on \(path): \(reason)")
        }
        return fd
    }

    /// A socket connected to the daemon listening at `path`.
    /// - Throws: ``DaemonError`` (``DaemonError/isNobodyListening`` when nothing answers there).
    public static func connect(path: String) throws -> Int32 {
        var address = try self.address(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DaemonError("cannot create a socket: \(DaemonError.reason())") }
        let result = SystemCall.retryingInterrupts {
            withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
        }
        if result == 0 { return fd }
        let code = errno
        SystemCall.close(fd)
        var error = DaemonError("cannot connect to \(path): \(DaemonError.reason(code))")
        error.isNobodyListening = [ENOENT, ECONNREFUSED, ENOTSOCK].contains(code)
        throw error
    }

    /// The next client of a listening socket, or nil when none is waiting (another process
    /// sharing the listener took it) or the listener is closed.
    public static func accept(_ listener: Int32) -> Int32? {
        while true {
            let fd = SystemCall.retryingInterrupts { Glibc.accept(listener, nil, nil) }
            if fd >= 0 {
                // Extensions are spawned with every other descriptor closed; this keeps the
                // socket out of anything else the daemon might exec.
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                return fd
            }
            switch errno {
            case ECONNABORTED, EPROTO, EAGAIN: return nil
            case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                // Out of descriptors: wait for a client to leave rather than spin.
                usleep(10_000)
            default: return nil
            }
        }
    }

    /// The process id and user id of the peer, as the kernel recorded them at `connect`.
    public static func peerCredentials(_ fd: Int32) -> (pid: Int32, uid: UInt32)? {
        var credentials = PeerCredentials()
        var length = socklen_t(MemoryLayout<PeerCredentials>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return (credentials.pid, credentials.uid)
    }

    /// Whether `fd` is a listening stream socket (what socket activation must hand over).
    public static func isListeningSocket(_ fd: Int32) -> Bool {
        var accepting: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &length) == 0 else { return false }
        return accepting != 0
    }

    /// Writes all of `data`, retrying short writes and `EINTR`.
    /// - Returns: false when the peer is gone (or any other write error).
    public static func writeAll(_ fd: Int32, _ data: Data) -> Bool {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                // 0 is a send timeout (SO_SNDTIMEO) on this blocking socket: a failure too.
                guard let written = try? SystemCall.send(fd, UnsafeRawBufferPointer(rebasing: buffer[offset...])), written > 0 else {
                    return false
                }
                offset += written
            }
            return true
        }
    }

    private static func address(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count <= maximumPathBytes else {
            throw DaemonError("the socket path \(path) is \(bytes.count) bytes, over the \(maximumPathBytes) a Unix socket allows; use --socket with a shorter one")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }
}

/// `struct ucred` (`<sys/socket.h>` declares it only under `_GNU_SOURCE`, which the Glibc
/// module does not set): three 32-bit fields, as the kernel fills them for `SO_PEERCRED`.
private struct PeerCredentials {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

/// A daemon or client failure, as one sentence.
public struct DaemonError: Error, Sendable, CustomStringConvertible {
    public var description: String
    /// True when connecting failed because no daemon listens there (no socket, or a stale one).
    public var isNobodyListening = false

    public init(_ description: String) {
        self.description = description
    }

    package static func reason(_ code: Int32 = errno) -> String {
        String(cString: strerror(code))
    }
}
