import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

// The egress proxy's state on one host loop (``EgressProxy``): touched only on that loop's thread.

/// An address a name resolved to, as a socket address and as text.
struct ResolvedAddress: Sendable {
    var storage: sockaddr_storage
    var length: socklen_t
    var text: String
    /// Not a public address: loopback, link-local, private or unique-local, multicast, reserved.
    var hostLocal: Bool
}

/// The proxy's listeners and connections on one ``HostLoop``: their sockets are registered with
/// the loop, their timeouts are the loop's timers (on its clock). Every method runs on the loop's
/// thread (a registered handler, a timer, or work posted with ``HostLoop/execute(_:)``), so the
/// state needs no lock; that is what makes it `@unchecked Sendable`.
final class ProxyLoop: @unchecked Sendable {
    let loop: HostLoop

    final class Listener {
        let fd: Int32
        let session: EgressSession
        let pid: Int32
        var connections: Set<Int> = []
        init(fd: Int32, session: EgressSession, pid: Int32) {
            self.fd = fd
            self.session = session
            self.pid = pid
        }
    }

    enum Phase { case header, resolving, connecting, relaying }

    final class Connection {
        let id: Int
        let listener: Listener
        let client: Int32
        var upstream: Int32 = -1
        var phase = Phase.header
        var header: [UInt8] = []
        var toUpstream: [UInt8] = []
        var toClient: [UInt8] = []
        var clientDone = false
        var upstreamDone = false
        var method = "?"
        var host = ""
        var port = 0
        var address: String?
        var allowed = false
        var reason: String?
        var bytesSent = 0
        var bytesReceived = 0
        let opened: ContinuousClock.Instant
        /// The loop timer of the phase's timeout (header, connect, or the error page's), if one runs.
        var timeout: HostLoop.Timer?
        /// Refused: only the error page is left to write.
        var closing = false
        /// Whether each socket is registered with the loop.
        var clientWatched = false
        var upstreamWatched = false
        init(id: Int, listener: Listener, client: Int32, opened: ContinuousClock.Instant) {
            self.id = id
            self.listener = listener
            self.client = client
            self.opened = opened
        }
    }

    enum Endpoint {
        case listener(Listener)
        case client(Connection)
        case upstream(Connection)
    }

    var endpoints: [Int32: Endpoint] = [:]
    var listeners: [Int32: Listener] = [:]
    var connections: [Int: Connection] = [:]
    var nextID = 1
    var buffer = [UInt8](repeating: 0, count: EgressProxy.Limits.bufferBytes)

    private init(loop: HostLoop) {
        self.loop = loop
    }

    /// The proxy states made so far, one per loop.
    private static let made = Mutex<[ObjectIdentifier: ProxyLoop]>([:])

    /// The proxy's state on `loop` (made on first use), or on the host's shared loop when nil.
    /// - Throws: ``HostLoopError`` when the shared loop cannot be set up.
    static func on(_ loop: HostLoop?) throws(HostLoopError) -> ProxyLoop {
        let loop = if let loop { loop } else { try HostLoop.shared() }
        return made.withLock { made in
            if let existing = made[ObjectIdentifier(loop)] { return existing }
            let proxyLoop = ProxyLoop(loop: loop)
            made[ObjectIdentifier(loop)] = proxyLoop
            return proxyLoop
        }
    }

    // MARK: Listeners

    func serve(listener fd: Int32, session: EgressSession, pid: Int32) {
        loop.preconditionInLoop("the egress proxy's state")
        let listener = Listener(fd: fd, session: session, pid: pid)
        listeners[fd] = listener
        endpoints[fd] = .listener(listener)
        // Not watched (epoll at the kernel's limit): the extension's connections wait unanswered.
        _ = watch(fd, .readable)
    }

    func close(listener fd: Int32) {
        guard let listener = listeners.removeValue(forKey: fd) else { return }
        endpoints[fd] = nil
        loop.unregister(fd)
        SystemCall.close(fd)
        for id in listener.connections {
            if let connection = connections[id] { finish(connection) }
        }
    }

    // MARK: The loop

    /// A registered socket is ready.
    func ready(_ fd: Int32, _ events: HostLoop.Events) {
        switch endpoints[fd] {
        case .listener(let listener): accept(on: listener)
        case .client(let connection): clientReady(connection, events: events)
        case .upstream(let connection): upstreamReady(connection, events: events)
        case nil: break
        }
    }

    /// Registers `fd` with the loop for `events`. - Returns: false when epoll refused it.
    func watch(_ fd: Int32, _ events: HostLoop.Events) -> Bool {
        do {
            try loop.register(fd, for: events) { [self] ready in self.ready(fd, ready) }
            return true
        } catch {
            return false
        }
    }

    /// Gives `connection` until `delay` from now for its phase (replacing the timeout it had).
    func arm(_ connection: Connection, after delay: Duration) {
        disarm(connection)
        let id = connection.id
        connection.timeout = loop.schedule(after: delay) { [self] in timedOut(id) }
    }

    /// Cancels `connection`'s timeout.
    func disarm(_ connection: Connection) {
        if let timeout = connection.timeout { loop.cancel(timeout) }
        connection.timeout = nil
    }

    private func timedOut(_ id: Int) {
        guard let connection = connections[id] else { return }
        connection.timeout = nil
        if connection.closing {
            finish(connection)
        } else if connection.phase == .header {
            refuse(connection, status: "408 Request Timeout", reason: "no complete request header within "
                   + "\(EgressProxy.Limits.headerTimeout)")
        } else {
            refuse(connection, status: "504 Gateway Timeout", reason: "no connection within \(EgressProxy.Limits.connectTimeout)")
        }
    }
}
