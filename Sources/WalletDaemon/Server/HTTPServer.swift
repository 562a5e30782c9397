import CWalletPoll
import Foundation
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// HTTP/1.1 on the host's one loop: accepts TCP connections, reads each request with
/// ``HTTPRequestParser`` (a bounded head and body: 431 and 413 past them, 400 for what is not
/// HTTP/1.1), hands it to the route with an ``HTTPExchange`` to answer it from any thread, and
/// keeps the connection open for the next one (keep-alive; `Connection: close` and HTTP/1.0
/// close it). One request of a connection is served at a time, in order; a pipelined one waits
/// in the connection's buffer. An exchange may become an event stream (Server-Sent Events)
/// that lasts until either side closes it.
///
/// Nothing here blocks the loop: reads and writes are non-blocking, and what a socket does not
/// take yet waits in the connection's bounded queue.
final class HTTPServer: Sendable {
    /// Bounds on what clients may hold.
    struct Limits: Sendable {
        /// Connections open at once; one more is answered 503 and closed.
        var maximumConnections = 256
        /// Request head and body bounds.
        var parser = HTTPRequestParser(maximumHeadBytes: 16 * 1024, maximumBodyBytes: 1024 * 1024)
        /// Bytes an event stream may have queued for a slow reader: past it, droppable events are dropped.
        var streamDroppableBytes = 1 << 20
        /// Past this, the stream's reader is too slow to serve and is disconnected.
        var streamMaximumBytes = 8 << 20
        /// A connection that has no request being served and sends no whole request for this
        /// long is closed (an idle keep-alive, or a client sending its head a byte at a time).
        var idleTimeout: Duration = .seconds(30)
    }

    /// Serves one request: answer it through the exchange, once, from any thread.
    typealias Route = @Sendable (HTTPRequest, HTTPExchange) -> Void

    let listener: TCPListener
    let loop: HostLoop
    let limits: Limits
    let route: Route
    let connections: LoopConfined<[Int32: HTTPConnection]>

    /// - Parameter loop: the loop to serve on (nil: the host's shared loop, the daemon's clients' loop).
    init(listener: TCPListener, limits: Limits = Limits(), loop: HostLoop? = nil, route: @escaping Route) throws {
        self.listener = listener
        self.limits = limits
        self.route = route
        self.loop = try loop ?? HostLoop.shared()
        connections = LoopConfined([:], to: self.loop)
        _ = wh_poll_set_nonblocking(listener.fd)
    }

    /// The address clients reach it at, `127.0.0.1:8080`.
    var authority: String { listener.authority }

    /// Starts accepting connections.
    func start() throws {
        try loop.register(listener.fd, for: .readable) { [weak self] _ in self?.accept() }
    }

    /// Closes every connection and the listener; returns once done (blocks: not on a cooperative thread).
    func stop() {
        let done = DispatchSemaphore(value: 0)
        loop.execute { [self] in
            loop.unregister(listener.fd)
            for connection in Array(connections.value.values) { connection.close() }
            listener.close()
            done.signal()
        }
        done.wait()
    }

    /// Connections open now (loop's thread).
    var connectionCount: Int { connections.value.count }

    private func accept() {
        for _ in 0..<64 {
            let fd = wh_poll_accept(listener.fd)
            guard fd >= 0 else { return }
            guard connections.value.count < limits.maximumConnections else {
                let busy = HTTPResponse.error(503, "the daemon serves at most \(limits.maximumConnections) HTTP connections at once")
                let bytes = busy.bytes(keepAlive: false)
                _ = bytes.withUnsafeBytes { try? SystemCall.send(fd, $0, flags: Int32(MSG_DONTWAIT)) }
                SystemCall.close(fd)
                continue
            }
            // Events go out as small writes one after another: without TCP_NODELAY, Nagle's
            // algorithm holds each until the last is acknowledged (40 ms of delayed ACK).
            var one: Int32 = 1
            _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let connection = HTTPConnection(fd: fd, server: self)
            do {
                try loop.register(fd, for: .readable) { [weak connection] events in connection?.ready(events) }
            } catch {
                SystemCall.close(fd)
                continue
            }
            connections.value[fd] = connection
            connection.armIdleTimer()
        }
    }

    /// A connection closed (loop's thread).
    func released(_ connection: HTTPConnection) {
        if connections.value[connection.fd] === connection { connections.value[connection.fd] = nil }
    }
}

/// One request's answer, given once from any thread: a response, or an event stream.
final class HTTPExchange: Sendable {
    let connection: HTTPConnection
    let generation: Int
    let keepAlive: Bool

    init(connection: HTTPConnection, generation: Int, keepAlive: Bool) {
        self.connection = connection
        self.generation = generation
        self.keepAlive = keepAlive
    }

    /// Sends the response (the connection then serves its next request, or closes).
    func respond(_ response: HTTPResponse) {
        connection.loop.execute { [self] in connection.finish(generation, response, keepAlive: keepAlive) }
    }

    /// Answers with an event stream (`text/event-stream`) that stays open: the connection
    /// serves no other request.
    /// - Parameter headers: more headers for the stream's head.
    /// - Returns: the stream, to send events on from any thread.
    func openStream(headers: [(name: String, value: String)] = []) -> HTTPEventStream {
        let stream = HTTPEventStream(connection: connection)
        var head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        head += "Connection: close\r\n\r\n"
        let bytes = Data(head.utf8)
        connection.loop.execute { [self] in connection.beginStream(generation, head: bytes) }
        return stream
    }
}

/// An open Server-Sent Events stream: `send` from any thread, never blocking.
final class HTTPEventStream: Sendable {
    let connection: HTTPConnection

    init(connection: HTTPConnection) {
        self.connection = connection
    }

    /// Queues one event (`data:` lines; `event` names it). Droppable events are dropped for a
    /// reader that is far behind.
    /// - Returns: false once the stream is closed.
    @discardableResult
    func send(event: String? = nil, data: String, droppable: Bool = false) -> Bool {
        guard !connection.isClosed else { return false }
        var text = event.map { "event: \($0)\n" } ?? ""
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        text += "\n"
        let bytes = Data(text.utf8)
        connection.loop.execute { [connection] in connection.streamEvent(bytes, droppable: droppable) }
        return true
    }

    /// Runs `handler` once the stream closes (at once if it has).
    func onClose(_ handler: @escaping @Sendable () -> Void) {
        connection.onClose(handler)
    }

    /// Closes the stream.
    func close() {
        connection.loop.execute { [connection] in connection.close() }
    }
}
