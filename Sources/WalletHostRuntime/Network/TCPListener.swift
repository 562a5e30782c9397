#if canImport(Glibc)
import Glibc
#endif

/// A listening TCP socket on a numeric address (IPv4 or IPv6), close-on-exec.
package struct TCPListener: Sendable {
    /// The listening descriptor.
    package let fd: Int32
    /// The address it listens on, as given.
    package let host: String
    /// The port it listens on (the one the kernel picked when 0 was asked for).
    package let port: UInt16

    /// `host:port` as a URL authority (`[::1]:8080` for IPv6).
    package var authority: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Listens on `host` (a numeric IPv4 or IPv6 address) and `port` (0: the kernel picks one).
    /// - Throws: ``SystemCallError`` naming the call, or a ``TCPListenerError`` for a host that is not numeric.
    package static func listen(host: String, port: UInt16, backlog: Int32 = 64) throws -> TCPListener {
        var storage = sockaddr_storage()
        let family: Int32
        let length: socklen_t
        if host.contains(":") {
            family = AF_INET6
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            let parsed = withUnsafeMutableBytes(of: &storage) { raw -> Bool in
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in6.self)
                address.pointee.sin6_family = sa_family_t(AF_INET6)
                address.pointee.sin6_port = port.bigEndian
                return inet_pton(AF_INET6, host, &address.pointee.sin6_addr) == 1
            }
            guard parsed else { throw TCPListenerError("\(host) is not a numeric IPv6 address") }
        } else {
            family = AF_INET
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let parsed = withUnsafeMutableBytes(of: &storage) { raw -> Bool in
                let address = raw.baseAddress!.assumingMemoryBound(to: sockaddr_in.self)
                address.pointee.sin_family = sa_family_t(AF_INET)
                address.pointee.sin_port = port.bigEndian
                return inet_pton(AF_INET, host, &address.pointee.sin_addr) == 1
            }
            guard parsed else { throw TCPListenerError("\(host) is not a numeric IPv4 address (such as 127.0.0.1)") }
        }
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemCallError("socket", errno: errno) }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0, Glibc.listen(fd, backlog) == 0 else {
            let error = SystemCallError(bound == 0 ? "listen" : "bind \(host) port \(port)", errno: errno)
            SystemCall.close(fd)
            throw error
        }
        var actual = sockaddr_storage()
        var actualLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &actualLength) }
        }
        let boundPort = withUnsafeBytes(of: &actual) { raw -> UInt16 in
            family == AF_INET6 ? UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
                : UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
        }
        return TCPListener(fd: fd, host: host, port: boundPort)
    }

    /// Waits up to `timeoutMilliseconds` for a connection and accepts it (blocking, close-on-exec).
    /// - Returns: The connection's descriptor, or nil when none came in time.
    package func accept(timeoutMilliseconds: Int32) throws -> Int32? {
        var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        guard SystemCall.poll(&descriptors, timeoutMilliseconds: timeoutMilliseconds) > 0 else { return nil }
        // accept4 is not in Glibc's module; spawns close every descriptor but their own anyway
        // (close_range), so the moment before FD_CLOEXEC is set leaks nothing.
        let connection = SystemCall.retryingInterrupts { Glibc.accept(fd, nil, nil) }
        if connection >= 0 {
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            return connection
        }
        if errno == EAGAIN || errno == ECONNABORTED { return nil }
        throw SystemCallError("accept4", errno: errno)
    }

    /// Closes the listening socket.
    package func close() { SystemCall.close(fd) }
}

/// An address `TCPListener` cannot listen on.
package struct TCPListenerError: Error, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
