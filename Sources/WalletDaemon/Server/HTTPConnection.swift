import Foundation
import Synchronization
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// One HTTP connection of an ``HTTPServer``: its buffer of received bytes, the request being
/// served (at most one), the bytes the socket has not taken yet, and whether it has become an
/// event stream. Everything but ``isClosed`` and ``onClose(_:)`` happens on the loop's thread.
final class HTTPConnection: Sendable {
    struct Confined {
        var received = Data()
        /// A request is being served (its exchange has not answered).
        var busy = false
        /// Counts requests, so that an exchange answers only its own.
        var generation = 0
        var streaming = false
        var outgoing = Data()
        var closeWhenWritten = false
        var interest: HostLoop.Events = .readable
        /// Closes the connection when it has stayed idle too long (none while a request is served).
        var idleTimer: HostLoop.Timer?
        /// `100 Continue` was sent for the request being received (`Expect: 100-continue`).
        var continueSent = false
    }

    struct Shared {
        var closed = false
        var onClose: [@Sendable () -> Void] = []
    }

    let fd: Int32
    let loop: HostLoop
    private unowned let server: HTTPServer
    private let confined: LoopConfined<Confined>
    private let shared = Mutex(Shared())

    init(fd: Int32, server: HTTPServer) {
        self.fd = fd
        self.server = server
        loop = server.loop
        confined = LoopConfined(Confined(), to: server.loop)
    }

    /// Whether the connection has closed (any thread).
    var isClosed: Bool { shared.withLock { $0.closed } }

    /// Runs `handler` once the connection closes (at once if it has), on the loop's thread.
    func onClose(_ handler: @escaping @Sendable () -> Void) {
        let now = shared.withLock { shared -> Bool in
            if shared.closed { return true }
            shared.onClose.append(handler)
            return false
        }
        if now { handler() }
    }

    // MARK: Reading

    func ready(_ events: HostLoop.Events) {
        guard !isClosed else { return }
        if events.contains(.writable) { flush() }
        guard !isClosed, !events.isDisjoint(with: [.readable, .hangUp, .error]) else { return }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        let received = Result { try buffer.withUnsafeMutableBytes { try SystemCall.receive(fd, into: $0, flags: Int32(MSG_DONTWAIT)) } }
        guard case .success(let wouldBlockOrCount) = received else { return close() }
        guard let count = wouldBlockOrCount else { return }
        if count == 0 {
            // The peer is done sending: a response under way is still written, then closed.
            if confined.value.busy && !confined.value.streaming {
                confined.value.closeWhenWritten = true
                setInterest(confined.value.outgoing.isEmpty ? [] : .writable)
                return
            }
            return close()
        }
        if confined.value.streaming { return }
        confined.value.received.append(contentsOf: buffer[0..<count])
        let limit = server.limits.parser.maximumHeadBytes + server.limits.parser.maximumBodyBytes
        if confined.value.received.count > limit {
            // Pipelined past what one request may be: refuse rather than buffer without end.
            confined.value.received.removeAll()
            confined.value.busy = true
            return write(HTTPResponse.error(413, "more than \(limit) bytes sent ahead of the answers").bytes(keepAlive: false), thenClose: true)
        }
        serveReceived()
    }

    /// Parses the next request from what was received, when none is being served.
    private func serveReceived() {
        guard !confined.value.busy, !confined.value.streaming, !isClosed, !confined.value.received.isEmpty else { return }
        switch server.limits.parser.parse(confined.value.received) {
        case .incomplete:
            // curl sends `Expect: 100-continue` before a body over 1 KB and waits a second for this.
            if !confined.value.continueSent, Self.expectsContinue(confined.value.received) {
                confined.value.continueSent = true
                write(Data("HTTP/1.1 100 Continue\r\n\r\n".utf8), thenClose: false)
            }
            return
        case .refused(let response):
            confined.value.busy = true
            write(response.bytes(keepAlive: false), thenClose: true)
        case .request(let request, let consumed):
            confined.value.received = Data(confined.value.received.dropFirst(consumed))
            confined.value.continueSent = false
            confined.value.busy = true
            disarmIdleTimer()
            confined.value.generation += 1
            let connectionHeader = request.header("Connection")?.lowercased() ?? ""
            let keepAlive = !connectionHeader.contains("close") && !request.isHTTP10
            server.route(request, HTTPExchange(connection: self, generation: confined.value.generation, keepAlive: keepAlive))
        }
    }

    /// Whether `received` holds a whole head that asks for `100 Continue`.
    static func expectsContinue(_ received: Data) -> Bool {
        guard let end = received.range(of: Data("\r\n\r\n".utf8)) else { return false }
        let head = String(decoding: received[received.startIndex..<end.lowerBound], as: UTF8.self).lowercased()
        return head.contains("\r\nexpect: 100-continue")
    }

    // MARK: Answering

    /// The exchange `generation` answered with `response`.
    func finish(_ generation: Int, _ response: HTTPResponse, keepAlive: Bool) {
        guard !isClosed, confined.value.busy, !confined.value.streaming, confined.value.generation == generation else { return }
        let closing = !keepAlive || confined.value.closeWhenWritten
        write(response.bytes(keepAlive: !closing), thenClose: closing)
        guard !closing, !isClosed else { return }
        confined.value.busy = false
        armIdleTimer()
        serveReceived()
    }

    /// The exchange `generation` became an event stream.
    func beginStream(_ generation: Int, head: Data) {
        guard !isClosed, confined.value.busy, confined.value.generation == generation else { return }
        confined.value.streaming = true
        confined.value.received.removeAll()
        write(head, thenClose: false)
    }

    /// One event of the stream.
    func streamEvent(_ bytes: Data, droppable: Bool) {
        guard !isClosed, confined.value.streaming else { return }
        let queued = confined.value.outgoing.count
        if droppable && queued + bytes.count > server.limits.streamDroppableBytes { return }
        if queued + bytes.count > server.limits.streamMaximumBytes { return close() }
        write(bytes, thenClose: false)
    }

    // MARK: Idleness

    /// Starts the idle clock: the connection closes unless a whole request comes within the timeout.
    func armIdleTimer() {
        disarmIdleTimer()
        confined.value.idleTimer = loop.schedule(after: server.limits.idleTimeout) { [weak self] in
            guard let self, !confined.value.busy, !confined.value.streaming else { return }
            confined.value.idleTimer = nil
            close()
        }
    }

    private func disarmIdleTimer() {
        if let timer = confined.value.idleTimer { loop.cancel(timer) }
        confined.value.idleTimer = nil
    }

    // MARK: Writing

    private func write(_ bytes: Data, thenClose: Bool) {
        if thenClose { confined.value.closeWhenWritten = true }
        confined.value.outgoing.append(bytes)
        flush()
    }

    /// Writes what the socket takes now; watches for writability while some is left.
    private func flush() {
        var outgoing = confined.value.outgoing
        var failed = false
        while !outgoing.isEmpty {
            guard let count = try? outgoing.withUnsafeBytes({ try SystemCall.send(fd, $0, flags: Int32(MSG_DONTWAIT)) }) else {
                failed = true
                break
            }
            if count > 0 {
                outgoing.removeFirst(count)
                continue
            }
            break
        }
        confined.value.outgoing = Data(outgoing)
        if failed { return close() }
        if outgoing.isEmpty && confined.value.closeWhenWritten { return close() }
        setInterest(outgoing.isEmpty ? .readable : [.readable, .writable])
    }

    private func setInterest(_ interest: HostLoop.Events) {
        guard interest != confined.value.interest else { return }
        confined.value.interest = interest
        loop.reregister(fd, for: interest)
    }

    /// Closes the socket and runs the close handlers (loop's thread).
    func close() {
        let handlers = shared.withLock { shared -> [@Sendable () -> Void]? in
            guard !shared.closed else { return nil }
            shared.closed = true
            defer { shared.onClose.removeAll() }
            return shared.onClose
        }
        guard let handlers else { return }
        disarmIdleTimer()
        loop.unregister(fd)
        SystemCall.close(fd)
        server.released(self)
        for handler in handlers { handler() }
    }
}

extension HTTPRequest {
    /// An HTTP/1.0 request: closed after its answer (no keep-alive for it here).
    var isHTTP10: Bool { version == "HTTP/1.0" }
}
