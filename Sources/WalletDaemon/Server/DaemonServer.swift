import Foundation
import Synchronization
import WalletDaemonClient
import WalletHostRuntime
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// The socket server: one thread (``ClientLoop``) accepts clients of its own uid and reads
/// their JSON-RPC lines, round-robin, at most a few requests of each client at once; each
/// request starts its method there, which answers it when ready (a slow one never holds up the
/// next), and `$/cancelRequest` cancels any of them. On
/// shutdown it drains: no new clients or requests, requests in flight finish within a grace,
/// then every extension is stopped, the socket removed and the lock released.
public final class DaemonServer: Sendable {
    /// Limits on what clients may hold of the daemon.
    public struct Limits: Sendable {
        /// Clients connected at once; one more is refused with an error line saying so.
        public var maximumClients = 4096
        /// What each client may hold (requests in flight, queued answers, line length).
        public var connection = ClientConnection.Limits()

        public init() {}
    }

    private struct State {
        var methods: [String: DaemonMethod] = [:]
        var sessions: [ObjectIdentifier: ClientSession] = [:]
        var nextClient = 1
        var requestsInFlight = 0
        var requestsServed = 0
        var draining = false
        /// Waiting for the requests in flight to reach none (the drain).
        var idleWaiters = TimedWaiters<Bool, Void>()
    }

    /// The client API's codec: JSON-RPC lines with ISO 8601 dates.
    static let codec = WireCodec(dates: .iso8601)

    public let socketPath: String?
    public let hub: EventHub
    public let pool: ExtensionPool
    public let startedAt = Date()
    public let limits: Limits
    private let listener: Int32
    private let lock: DaemonLock?
    private let state = Mutex(State())
    private let loop = Mutex<ClientLoop?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    /// - Parameters:
    ///   - listener: a listening socket (bound by ``UnixSocket/listen(path:backlog:)`` or inherited).
    ///   - socketPath: removed at shutdown; nil for an inherited socket (its owner removes it).
    public init(listener: Int32, socketPath: String?, lock: DaemonLock?, hub: EventHub, pool: ExtensionPool,
                limits: Limits = Limits()) {
        self.listener = listener
        self.socketPath = socketPath
        self.lock = lock
        self.hub = hub
        self.pool = pool
        self.limits = limits
    }

    /// Adds (or replaces) a method answered by a task (which cancelling the request cancels).
    public func register(_ name: String, _ method: @escaping @Sendable (DaemonCall) async throws -> any Encodable & Sendable) {
        register(name, starting: { request in request.answer(inTask: method) })
    }

    /// Adds (or replaces) a method answered at once on the client loop's thread: for quick work
    /// that never blocks (a setting, the pass list, a subscription), which a task would only slow
    /// down (device.get: p50 333 us with, 473 us without, in one run of scripts/bench-daemon).
    public func register(_ name: String, answeringAtOnce method: @escaping @Sendable (DaemonCall) throws -> any Encodable & Sendable) {
        register(name, starting: { request in request.answer(DaemonAnswer(catching: { try method(request.call) })) })
    }

    /// Adds (or replaces) a method started on the client loop's thread, which answers the
    /// request when ready and says how to cancel its work: the start must never block.
    public func register(_ name: String, starting method: @escaping DaemonMethod) {
        state.withLock { $0.methods[name] = method }
    }

    /// Starts serving clients on the loop's thread.
    /// - Throws: ``DaemonError`` when the loop cannot be set up.
    public func start() throws {
        let loop = try ClientLoop(listener: listener, limits: limits.connection, maximumClients: limits.maximumClients,
                                  handlers: ClientLoop.Handlers(
                                      connected: { [weak self] connection, pid in self?.connected(connection, peerPID: pid) },
                                      line: { [weak self] line, connection in self?.receive(line, from: connection) },
                                      released: { [weak self] connection in self?.released(connection) }))
        try loop.start()
        self.loop.withLock { $0 = loop }
    }

    /// Blocks until ``shutdown(grace:reason:)`` has finished.
    public func waitUntilFinished() {
        finished.wait()
    }

    /// Clients connected now.
    public var clientCount: Int { state.withLock { $0.sessions.count } }
    /// Requests being served now.
    public var requestsInFlight: Int { state.withLock { $0.requestsInFlight } }
    /// Requests taken since the daemon started.
    public var requestsServed: Int { state.withLock { $0.requestsServed } }
    /// Connections refused because the peer was another user.
    public var refusedPeers: Int { loop.withLock { $0 }?.refusedPeers ?? 0 }
    /// Connections refused because the daemon had its maximum of clients.
    public var refusedClients: Int { loop.withLock { $0 }?.refusedOverLimit ?? 0 }
    public var isDraining: Bool { state.withLock { $0.draining } }
    /// Lines dropped for the clients connected now, because they read too slowly.
    public var droppedLines: Int { state.withLock { $0.sessions.values.reduce(0) { $0 + ($1.connection?.droppedLines ?? 0) } } }

    /// Stops the daemon: refuses new clients and requests, lets requests in flight finish within
    /// `grace`, stops every extension with the normal stop sequence, removes the socket and the
    /// lock, then ``waitUntilFinished()`` returns. A second call does nothing.
    public func shutdown(grace: Duration, reason: String) async {
        let first = state.withLock { state -> Bool in
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        guard first else { return }
        let loop = self.loop.withLock { $0 }
        loop?.stopAccepting()
        if let socketPath { unlink(socketPath) }
        await requestsFinished(within: grace)
        await pool.stopAll(reason: reason)
        let sessions = state.withLock { Array($0.sessions.values) }
        await withTaskGroup(of: Void.self) { group in
            for session in sessions { group.addTask { await session.connection?.drained(within: .milliseconds(200)) } }
        }
        if let loop {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // The loop's stop blocks until its thread is done: not on a cooperative thread.
                DispatchQueue.global().async {
                    loop.stop()
                    continuation.resume()
                }
            }
        }
        SystemCall.close(listener)
        // The last events on disk before the lock goes: a daemon that takes the state directory
        // next appends after them.
        hub.flushLog()
        lock?.release()
        finished.signal()
    }

    /// Waits until no request is in flight, at most `timeout`.
    private func requestsFinished(within timeout: Duration) async {
        let id = state.withLock { $0.idleWaiters.makeID() }
        _ = await TimedWaiters<Bool, Void>.wait(id: id, within: timeout, begin: { continuation in
            let now = state.withLock { state -> Bool in
                state.requestsInFlight == 0 || !state.idleWaiters.add(id, condition: (), continuation: continuation)
            }
            if now { continuation.resume(returning: true) }
        }, abandon: { [self] id in
            state.withLock { $0.idleWaiters.abandon(id) }?.resume(returning: nil)
        })
    }

    // MARK: Clients

    private func connected(_ connection: ClientConnection, peerPID: Int32) {
        let session = state.withLock { state -> ClientSession in
            defer { state.nextClient += 1 }
            let session = ClientSession(id: state.nextClient, peerPID: peerPID, outlet: connection)
            state.sessions[ObjectIdentifier(connection)] = session
            return session
        }
        connection.onClose { [self] in
            for subscription in session.disconnected() { hub.unsubscribe(subscription) }
        }
    }

    private func released(_ connection: ClientConnection) {
        _ = state.withLock { $0.sessions.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    /// Serves one line of a client, on the loop's thread; frees the client's slot once answered.
    private func receive(_ line: Data?, from connection: ClientConnection) {
        guard let session = state.withLock({ $0.sessions[ObjectIdentifier(connection)] }) else {
            connection.finished()
            return
        }
        serve(line, from: session) { answer in
            if let answer { connection.send(answer) }
            connection.finished()
        }
    }

    /// A client that is not a socket (a page over HTTP): its id comes from the same count as
    /// the socket clients'; its lines go to `outlet`. Its owner calls
    /// ``ClientSession/disconnected()`` when it leaves and removes its subscriptions from the hub.
    func makeSession(outlet: any ClientOutlet, peerPID: Int32 = 0) -> ClientSession {
        state.withLock { state -> ClientSession in
            defer { state.nextClient += 1 }
            return ClientSession(id: state.nextClient, peerPID: peerPID, outlet: outlet)
        }
    }

    /// Serves one JSON-RPC message of `session` with the socket's method table and codec (nil:
    /// a line over the limit): `answered` gets the answer line (nil when the message needs none:
    /// a notification, or the client's answer to a forwarded prompt) once, from whichever thread
    /// has it.
    func serve(_ line: Data?, from session: ClientSession, answered: @escaping @Sendable (Data?) -> Void) {
        switch classify(line, from: session) {
        case .answered(let answer):
            answered(answer)
        case .start(let call, let method):
            let id = call.id
            let request = DaemonRequest(call: call) { [self] line in
                answered(line)
                session.finished(id)
                requestFinished()
            }
            session.track(id, request)
            method(request)
        }
    }

    private enum Plan {
        /// Done on the loop's thread; the answer line to send, if any.
        case answered(Data?)
        /// A request for a method: start it.
        case start(DaemonCall, DaemonMethod)
    }

    private func classify(_ line: Data?, from session: ClientSession) -> Plan {
        let codec = Self.codec
        guard let line else {
            return .answered(Self.errorLine(id: nil, RPCErrorObject(code: RPCErrorCode.lineTooLong,
                                                                    message: "a line over \(limits.connection.maximumLineBytes) bytes")))
        }
        let message: WireMessage
        do throws(WireDecodingError) {
            message = try codec.decode(line)
        } catch {
            let prefix = error.code == RPCErrorCode.parseError ? "not a JSON-RPC message: " : ""
            return .answered(Self.errorLine(id: error.id, RPCErrorObject(code: error.code, message: prefix + error.reason)))
        }
        switch message {
        case .response, .errorResponse:
            // An answer to a forwarded prompt.
            session.answer(message)
            return .answered(nil)
        case .notification(let method, _):
            if method == WireMethod.cancelRequest, let target = try? codec.params(CancelTarget.self, from: line) {
                session.cancel(target.id)
            }
            return .answered(nil)
        case .request(let id, let method, _):
            let (handler, draining) = state.withLock { state -> (DaemonMethod?, Bool) in
                let handler = state.methods[method]
                if handler != nil && !state.draining {
                    state.requestsServed += 1
                    state.requestsInFlight += 1
                }
                return (handler, state.draining)
            }
            guard !draining else {
                return .answered(Self.errorLine(id: id, RPCErrorObject(code: DaemonErrorCode.shuttingDown, message: "the daemon is shutting down")))
            }
            guard let handler else {
                return .answered(Self.errorLine(id: id, RPCErrorObject(code: RPCErrorCode.methodNotFound,
                                                                       message: "the daemon has no method \(method)")))
            }
            return .start(DaemonCall(method: method, id: id, line: line, client: session), handler)
        }
    }

    private func requestFinished() {
        let idle = state.withLock { state -> [TimedWaiters<Bool, Void>.Continuation] in
            state.requestsInFlight -= 1
            return state.requestsInFlight == 0 ? state.idleWaiters.take { true } : []
        }
        for waiter in idle { waiter.resume(returning: true) }
    }
}

/// `$/cancelRequest`'s params.
private struct CancelTarget: Decodable {
    var id: RequestID
}
