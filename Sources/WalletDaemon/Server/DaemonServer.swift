import Foundation
import Synchronization
import WalletHostRuntime
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// One request as a method handler sees it: its params and the client that sent it.
public struct DaemonCall: Sendable {
    public let method: String
    /// The request's line, from which ``params(_:)`` decodes the params as the handler's type.
    let line: Data
    public let client: ClientSession

    /// The params decoded as `type` (absent params as `{}`).
    /// - Throws: ``RPCErrorObject`` -32602 naming the problem.
    public func params<Params: Decodable>(_ type: Params.Type) throws(RPCErrorObject) -> Params {
        do {
            if let params = try JSONDecoder().decode(Member<Params>.self, from: line).params { return params }
            return try JSONDecoder().decode(type, from: Data("{}".utf8))
        } catch {
            throw RPCErrorObject(code: RPCErrorCode.invalidParams, message: "invalid params for \(method): \(WireCodec.describe(error))")
        }
    }
}

/// A method of the client API.
public typealias DaemonMethod = @Sendable (DaemonCall) async throws -> any Encodable & Sendable

/// The daemon's own error codes, beside JSON-RPC's.
public enum DaemonErrorCode {
    /// The command failed; the message is the sentence `wallet-host` prints (exit status 1).
    public static let commandFailed = -32050
    /// The daemon is shutting down and takes no new work.
    public static let shuttingDown = -32051
}

/// The socket server: accepts clients of its own uid, reads their JSON-RPC lines, runs each
/// request as a task (so a slow one never holds up the next), and on shutdown drains: no new
/// clients or requests, in-flight requests finish within a grace, then every extension is
/// stopped, the socket removed and the lock released.
public final class DaemonServer: Sendable {
    private struct State {
        var methods: [String: DaemonMethod] = [:]
        var clients: [Int: ClientSession] = [:]
        var nextClient = 1
        var requestsInFlight = 0
        var requestsServed = 0
        var refusedPeers = 0
        var draining = false
        var listener: Int32
    }

    public let socketPath: String?
    public let hub: EventHub
    public let pool: ExtensionPool
    public let startedAt = Date()
    private let lock: DaemonLock?
    private let state: Mutex<State>
    private let channelLimits: LineChannel.Limits
    private let finished = DispatchSemaphore(value: 0)
    /// Written once at shutdown to wake the accept thread out of `poll` (closing a descriptor
    /// does not wake a thread blocked on it, and `shutdown(2)` on an inherited listener would
    /// break it for systemd, which keeps listening on it).
    private let wakeAccept: (read: Int32, write: Int32)

    /// - Parameters:
    ///   - listener: a listening socket (bound by ``UnixSocket/listen(path:backlog:)`` or inherited).
    ///   - socketPath: removed at shutdown; nil for an inherited socket (its owner removes it).
    public init(listener: Int32, socketPath: String?, lock: DaemonLock?, hub: EventHub, pool: ExtensionPool,
                channelLimits: LineChannel.Limits = LineChannel.Limits()) {
        self.socketPath = socketPath
        self.lock = lock
        self.hub = hub
        self.pool = pool
        self.channelLimits = channelLimits
        state = Mutex(State(listener: listener))
        var ends: [Int32] = [-1, -1]
        _ = pipe(&ends)
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        wakeAccept = (ends[0], ends[1])
    }

    /// Adds (or replaces) a method.
    public func register(_ name: String, _ method: @escaping DaemonMethod) {
        state.withLock { $0.methods[name] = method }
    }

    /// Starts accepting clients on a thread of its own.
    public func start() {
        let listener = state.withLock { $0.listener }
        let thread = Thread { [self] in
            var descriptors = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
                               pollfd(fd: wakeAccept.read, events: Int16(POLLIN), revents: 0)]
            while true {
                guard SystemCall.poll(&descriptors, timeoutMilliseconds: -1) >= 0 else { break }
                if descriptors[1].revents != 0 || isDraining { break }
                if descriptors[0].revents != 0, let fd = UnixSocket.accept(listener) { admit(fd) }
            }
        }
        thread.name = "wallet-host.accept"
        thread.stackSize = 256 << 10
        thread.start()
    }

    /// Blocks until ``shutdown(grace:)`` has finished.
    public func waitUntilFinished() {
        finished.wait()
    }

    /// Clients connected now.
    public var clientCount: Int { state.withLock { $0.clients.count } }
    /// Requests being served now.
    public var requestsInFlight: Int { state.withLock { $0.requestsInFlight } }
    /// Requests taken since the daemon started.
    public var requestsServed: Int { state.withLock { $0.requestsServed } }
    /// Connections refused because the peer was another user.
    public var refusedPeers: Int { state.withLock { $0.refusedPeers } }
    public var isDraining: Bool { state.withLock { $0.draining } }
    /// Lines dropped for the clients connected now, because they read too slowly.
    public var droppedLines: Int { state.withLock { $0.clients.values.reduce(0) { $0 + $1.channel.droppedLines } } }

    /// Stops the daemon: refuses new clients and requests, lets requests in flight finish within
    /// `grace`, stops every extension with the normal stop sequence, removes the socket and the
    /// lock, then ``waitUntilFinished()`` returns. A second call does nothing.
    public func shutdown(grace: Duration, reason: String) async {
        let listener = state.withLock { state -> Int32? in
            guard !state.draining else { return nil }
            state.draining = true
            return state.listener
        }
        guard let listener else { return }
        var byte: UInt8 = 1
        _ = write(wakeAccept.write, &byte, 1)
        if let socketPath { unlink(socketPath) }
        let deadline = ContinuousClock.now + grace
        while requestsInFlight > 0 && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        await pool.stopAll(reason: reason)
        let clients = state.withLock { Array($0.clients.values) }
        for client in clients { client.channel.flush(timeout: .milliseconds(200)) }
        for client in clients { client.channel.close() }
        close(listener)
        lock?.release()
        finished.signal()
    }

    private func admit(_ fd: Int32) {
        guard let peer = UnixSocket.peerCredentials(fd), peer.uid == getuid() else {
            // Another user's process: tell it why, then hang up.
            let refusal = DaemonLine.error(id: nil, RPCErrorObject(code: RPCErrorCode.invalidRequest,
                                                                   message: "this daemon serves only uid \(getuid())"))
            _ = UnixSocket.writeAll(fd, refusal)
            state.withLock { $0.refusedPeers += 1 }
            // Closing with the peer's request unread would reset the connection before the
            // peer reads the refusal: end our side, drain what it sent (briefly), then close.
            DispatchQueue.global().async {
                Glibc.shutdown(fd, Int32(SHUT_WR))
                var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
                setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
                var sink = [UInt8](repeating: 0, count: 4096)
                while sink.withUnsafeMutableBytes({ recv(fd, $0.baseAddress, $0.count, 0) }) > 0 {}
                close(fd)
            }
            return
        }
        let id = state.withLock { state -> Int in
            defer { state.nextClient += 1 }
            return state.nextClient
        }
        let channel = LineChannel(fd: fd, limits: channelLimits)
        let client = ClientSession(id: id, peerPID: peer.pid, channel: channel)
        state.withLock { $0.clients[id] = client }
        channel.start(name: "wallet-host.client\(id)") { [self] line in receive(line, from: client) }
        channel.onClose { [self] in
            for subscription in client.disconnected() { hub.unsubscribe(subscription) }
            state.withLock { $0.clients[id] = nil }
        }
    }

    private func receive(_ line: Data?, from client: ClientSession) {
        guard let line else {
            client.channel.send(DaemonLine.error(id: nil, RPCErrorObject(code: RPCErrorCode.lineTooLong,
                                                                         message: "a line over \(channelLimits.maximumLineBytes) bytes")))
            return
        }
        let envelope: DaemonEnvelope
        do {
            envelope = try DaemonEnvelope.decode(line)
        } catch {
            client.channel.send(DaemonLine.error(id: nil, error))
            return
        }
        guard let method = envelope.method else {
            // A response to a forwarded prompt: rare, read whole.
            if let message = try? DaemonMessage.decode(line) { client.answer(message) }
            return
        }
        guard let id = envelope.id else {
            if method == WireMethod.cancelRequest, let target = try? JSONDecoder().decode(Member<CancelTarget>.self, from: line).params {
                client.cancelTask(target.id)
            }
            return
        }
        let (handler, draining) = state.withLock { state -> (DaemonMethod?, Bool) in
            let handler = state.methods[method]
            if handler != nil && !state.draining {
                state.requestsInFlight += 1
                state.requestsServed += 1
            }
            return (handler, state.draining)
        }
        guard !draining else {
            client.channel.send(DaemonLine.error(id: id, RPCErrorObject(code: DaemonErrorCode.shuttingDown, message: "the daemon is shutting down")))
            return
        }
        guard let handler else {
            client.channel.send(DaemonLine.error(id: id, RPCErrorObject(code: RPCErrorCode.methodNotFound,
                                                                        message: "the daemon has no method \(method)")))
            return
        }
        let call = DaemonCall(method: method, line: line, client: client)
        let task = Task { [self] in
            client.channel.send(await DaemonLine.answer(id: id, failureCode: DaemonErrorCode.commandFailed) { try await handler(call) })
            client.finished(id)
            state.withLock { $0.requestsInFlight -= 1 }
        }
        client.track(id, task)
    }
}

/// `$/cancelRequest`'s params.
private struct CancelTarget: Decodable {
    var id: JSONValue
}
