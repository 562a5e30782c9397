#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `recv(2)`, `send(2)` and `shutdown(2)` for the host's sockets: EINTR retried, a would-block answer as a value,
/// every other errno thrown.
extension SystemCall {
    /// Receives what the socket holds, up to `buffer`'s size.
    /// - Returns: The byte count, 0 at end of stream; nil when a non-blocking receive would block.
    package static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, flags: Int32 = 0) throws -> Int? {
        let count = retryingInterrupts { Glibc.recv(fd, buffer.baseAddress, buffer.count, flags) }
        if count >= 0 { return count }
        if errno == EAGAIN || errno == EWOULDBLOCK { return nil }
        throw SystemCallError("recv", errno: errno)
    }

    /// Sends as much as the socket takes now, never raising SIGPIPE (`MSG_NOSIGNAL` is always
    /// added to `flags`).
    /// - Returns: The byte count; 0 when a non-blocking send would block.
    package static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, flags: Int32 = 0) throws -> Int {
        let count = retryingInterrupts { Glibc.send(fd, bytes.baseAddress, bytes.count, flags | Int32(MSG_NOSIGNAL)) }
        if count >= 0 { return count }
        if errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
        throw SystemCallError("send", errno: errno)
    }

    /// Shuts down one or both directions of a socket (`SHUT_WR`, `SHUT_RD`, `SHUT_RDWR`).
    /// - Returns: The errno shutdown(2) reported (ENOTCONN: the peer is gone already), or nil.
    @discardableResult
    package static func shutdown(_ fd: Int32, _ how: Int32) -> Int32? {
        Glibc.shutdown(fd, how) == 0 ? nil : errno
    }
}
