#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An errno from a system call, with the call's name.
public struct SystemCallError: Error, Sendable, CustomStringConvertible {
    public var call: String
    public var errno: Int32

    public init(_ call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call): \(String(cString: strerror(errno))) (errno \(errno))" }
}

/// The system calls the host's modules and the extensions' runtime make, retrying EINTR and
/// throwing errno as errors; the one place an interrupted call is retried
/// (``retryingInterrupts(_:)`` for the calls it has no method for). A module of its own, with no
/// dependency, so that an extension links it without the host runtime.
package enum SystemCall {
    /// Makes `call` again while it fails with EINTR: a call that returns a negative number on
    /// failure (read, write, send, recv, open, poll, flock, connect, accept).
    /// - Returns: The last attempt's result; when negative, `errno` is that attempt's.
    @inline(__always)
    package static func retryingInterrupts<Result: SignedInteger>(_ call: () -> Result) -> Result {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }

    /// Sets `O_NONBLOCK` on `fd`.
    package static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
    }

    /// Closes `fd` (a negative one is ignored), never retried.
    package static func close(_ fd: Int32) {
        guard fd >= 0 else { return }
        // Linux closes the descriptor even when close(2) reports EINTR: never retry.
        _ = Glibc.close(fd)
    }

    /// ``close(_:)`` for a descriptor whose last writes must be known to have landed (a full
    /// disk or a network file system may report them only at close).
    /// - Returns: The errno close(2) reported, or nil; EINTR counts as closed (Linux closed it).
    package static func closeReportingFailure(_ fd: Int32) -> Int32? {
        guard fd >= 0 else { return nil }
        if Glibc.close(fd) == 0 || errno == EINTR { return nil }
        return errno
    }

    /// Reads what is available; 0 at end of file; nil when a non-blocking read would block.
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws -> Int? {
        let count = retryingInterrupts { Glibc.read(fd, buffer.baseAddress, buffer.count) }
        if count >= 0 { return count }
        if errno == EAGAIN { return nil }
        throw SystemCallError("read", errno: errno)
    }

    /// Writes as much as the descriptor takes now; returns the byte count (0 when it would block).
    package static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws -> Int {
        let count = retryingInterrupts { Glibc.write(fd, bytes.baseAddress, bytes.count) }
        if count >= 0 { return count }
        if errno == EAGAIN { return 0 }
        throw SystemCallError("write", errno: errno)
    }

    /// Writes every byte to a blocking descriptor.
    /// - Throws: ``SystemCallError`` with the first failure (EAGAIN too: a full non-blocking
    ///   descriptor is not waited for).
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        var offset = 0
        while offset < bytes.count {
            let count = retryingInterrupts { Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset) }
            guard count > 0 else { throw SystemCallError("write", errno: count < 0 ? errno : EIO) }
            offset += count
        }
    }

    /// `poll(2)`, retrying EINTR with the same timeout (callers recompute deadlines anyway).
    package static func poll(_ fds: inout [pollfd], timeoutMilliseconds: Int32) -> Int32 {
        retryingInterrupts { Glibc.poll(&fds, nfds_t(fds.count), timeoutMilliseconds) }
    }
}
