import CWalletPoll
import Foundation
import Synchronization
import WalletDaemonClient
import WalletHostRuntime
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's one client thread: it accepts clients and reads every client socket through
/// epoll, however many are connected, and hands each line to the server in turn.
///
/// **Round-robin.** Each turn of the loop serves every client with lines waiting, one after the
/// other, at most a client's share of lines each (its ``ClientConnection/Limits/requestsInFlight``):
/// a client that pipelines thousands of requests is read one buffer at a time, like any other,
/// and its lines past its share wait for the next turn or for one of its requests to finish.
///
/// **Refusals.** A peer of another user, and a client past ``maximumClients``, get one JSON-RPC
/// error line saying why, and the connection ends; the loop keeps such a socket at most 200 ms
/// to read what the peer sent (closing with a request unread would reset the connection before
/// the peer reads the refusal), and at most 256 of them at once.
final class ClientLoop: Sendable {
    /// What the loop asks of the server.
    struct Handlers: Sendable {
        /// A client of the daemon's user connected (on the loop's thread).
        var connected: @Sendable (ClientConnection, _ peerPID: Int32) -> Void
        /// A line of a client (nil: a line over the limit), on the loop's thread. The server
        /// calls ``ClientConnection/finished()`` once it has served it, from any thread.
        var line: @Sendable (Data?, ClientConnection) -> Void
        /// A client's socket was released (after its close handlers ran).
        var released: @Sendable (ClientConnection) -> Void
    }

    /// What another thread asked of the loop.
    private enum Command {
        case serve(ClientConnection)
        case stopAccepting
        case stop
    }

    /// State only the loop's thread touches (in a lock that is never contended).
    private struct Confined {
        var connections: [Int32: ClientConnection] = [:]
        /// Refused sockets kept to read the peer's request, and when each is closed regardless.
        var refused: [Int32: ContinuousClock.Instant] = [:]
        var accepting = true
        /// Accepting paused until then (the process is out of descriptors).
        var listenerPausedUntil: ContinuousClock.Instant?
    }

    let maximumClients: Int
    private let listener: Int32
    private let poll: Int32
    private let wakeup: Int32
    private let limits: ClientConnection.Limits
    private let handlers: Handlers
    /// Commands for the loop, and whether it still runs (its wake-up descriptor is closed after).
    private let commands = Mutex<(pending: [Command], running: Bool)>(([], true))
    private let confined = Mutex(Confined())
    private let clientCount = Atomic<Int>(0)
    private let refusedPeerCount = Atomic<Int>(0)
    private let refusedOverLimitCount = Atomic<Int>(0)
    private let finished = DispatchSemaphore(value: 0)

    private static let refusalGrace: Duration = .milliseconds(200)
    private static let maximumRefusedHeld = 256
    private static let acceptsPerTurn = 64
    /// When the loop gives free memory back (``FreeMemoryTrim``): after this many clients left,
    /// or this long with nothing to do after work.
    private static let releasesBeforeTrim = 256
    private static let quietBeforeTrim: Duration = .milliseconds(500)

    /// - Throws: ``DaemonError`` when epoll cannot be set up.
    init(listener: Int32, limits: ClientConnection.Limits, maximumClients: Int, handlers: Handlers) throws {
        self.listener = listener
        self.limits = limits
        self.maximumClients = maximumClients
        self.handlers = handlers
        poll = wh_poll_create()
        wakeup = wh_poll_wakeup_create()
        guard poll >= 0, wakeup >= 0 else { throw DaemonError("cannot set up the client loop: \(DaemonError.reason())") }
        _ = wh_poll_set_nonblocking(listener)
        guard wh_poll_add(poll, wakeup, WH_POLL_IN) == 0, wh_poll_add(poll, listener, WH_POLL_IN) == 0 else {
            throw DaemonError("cannot watch the daemon's socket: \(DaemonError.reason())")
        }
    }

    /// Clients connected now.
    var clients: Int { clientCount.load(ordering: .relaxed) }
    /// Connections refused because the peer was another user.
    var refusedPeers: Int { refusedPeerCount.load(ordering: .relaxed) }
    /// Connections refused because ``maximumClients`` were connected.
    var refusedOverLimit: Int { refusedOverLimitCount.load(ordering: .relaxed) }

    /// Starts the loop's thread (`wh-clients`).
    /// - Throws: ``DaemonError`` when the system starts no thread.
    func start() throws {
        let failure = DetachedThread.start(name: "wh-clients", stackBytes: 512 << 10) { [self] in run() }
        guard failure == 0 else {
            commands.withLock { $0.running = false }
            close(wakeup)
            close(poll)
            throw DaemonError("cannot start the client loop's thread: \(String(cString: strerror(failure)))")
        }
    }

    /// Accepts no more clients (the listener stays open: an inherited one belongs to systemd).
    func stopAccepting() { post(.stopAccepting) }

    /// Closes every client and ends the thread; returns once it has.
    func stop() {
        let running = commands.withLock { $0.running }
        post(.stop)
        if running { finished.wait() }
    }

    /// A client with a line that can now be served (one of its requests finished, or it caught
    /// up with its answers): the loop serves it on its next turn.
    func serve(_ connection: ClientConnection) { post(.serve(connection)) }

    private func post(_ command: Command) {
        // Signalled under the lock: the loop closes the descriptor only after it said it stopped.
        commands.withLock { commands in
            guard commands.running else { return }
            commands.pending.append(command)
            wh_poll_wakeup_signal(wakeup)
        }
    }

    // MARK: The loop

    private func run() {
        let capacity = 256
        var readyDescriptors = [Int32](repeating: 0, count: capacity)
        var readyEvents = [UInt32](repeating: 0, count: capacity)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
        defer { buffer.deallocate() }
        /// Clients to serve this turn, in order, each once.
        var due: [ClientConnection] = []
        var dueDescriptors: Set<Int32> = []
        var hungUp: Set<Int32> = []
        var running = true
        var trim = FreeMemoryTrim(quiet: Self.quietBeforeTrim, releasesBeforeTrim: Self.releasesBeforeTrim)
        while running {
            let timeout = trim.timeout(due.isEmpty ? timeoutUntilNextDeadline() : 0, now: .now)
            let count = wh_poll_wait(poll, &readyDescriptors, &readyEvents, Int32(capacity), timeout)
            if count < 0 {
                guard errno == EINTR else { break }
                continue
            }
            if count > 0 { trim.noteBusy(at: .now) }
            func makeDue(_ connection: ClientConnection) {
                if dueDescriptors.insert(connection.fd).inserted { due.append(connection) }
            }
            for index in 0..<Int(count) {
                let fd = readyDescriptors[index]
                let events = readyEvents[index]
                if fd == wakeup {
                    wh_poll_wakeup_drain(wakeup)
                    for command in commands.withLock({ commands in defer { commands.pending.removeAll() }; return commands.pending }) {
                        switch command {
                        case .serve(let connection):
                            if confined.withLock({ $0.connections[connection.fd] === connection }) { makeDue(connection) }
                        case .stopAccepting:
                            confined.withLock { $0.accepting = false }
                            _ = wh_poll_remove(poll, listener)
                        case .stop:
                            running = false
                        }
                    }
                } else if fd == listener {
                    acceptClients()
                } else if let connection = confined.withLock({ $0.connections[fd] }) {
                    if events & WH_POLL_OUT != 0 { connection.writeQueued() }
                    if events & (WH_POLL_HUP | WH_POLL_ERR) != 0 { hungUp.insert(fd) }
                    if events & (WH_POLL_IN | WH_POLL_HUP | WH_POLL_ERR) != 0 { makeDue(connection) }
                } else {
                    drainRefused(fd, buffer: buffer)
                }
            }
            // One round: each due client served once, in order.
            let round = due
            due.removeAll(keepingCapacity: true)
            dueDescriptors.removeAll(keepingCapacity: true)
            for connection in round {
                let ended = hungUp.remove(connection.fd) != nil
                if connection.isClosed || (ended && !connection.shouldRead) {
                    release(connection)
                    trim.noteReleased()
                    continue
                }
                var budget = limits.requestsInFlight
                serveWaiting(connection, budget: &budget)
                if connection.shouldRead {
                    switch connection.read(into: buffer) {
                    case .ended:
                        // Lines read before the end are served; then the client is gone.
                        serveWaiting(connection, budget: &budget)
                        release(connection)
                        trim.noteReleased()
                        continue
                    case .read(let bytes):
                        serveWaiting(connection, budget: &budget)
                        if !connection.consume(bytes, into: buffer) {
                            release(connection)
                            trim.noteReleased()
                            continue
                        }
                    case .wouldBlock:
                        break
                    }
                }
                connection.settleInterest()
                if connection.isClosed {
                    release(connection)
                } else if connection.canServe {
                    makeDue(connection)
                }
            }
            closeExpiredRefusals()
            resumeListenerIfDue()
            // About to wait: give back what clients that left, or a burst of work, left free.
            if due.isEmpty, trim.isDue(now: .now) { wh_release_free_memory() }
        }
        let (connections, refused) = confined.withLock { state in
            defer {
                state.connections.removeAll()
                state.refused.removeAll()
            }
            return (Array(state.connections.values), Array(state.refused.keys))
        }
        for connection in connections { release(connection) }
        for fd in refused { close(fd) }
        commands.withLock { $0.running = false }
        close(wakeup)
        close(poll)
        finished.signal()
    }

    /// Hands the client's waiting lines to the server while it has free slots, at most `budget`.
    private func serveWaiting(_ connection: ClientConnection, budget: inout Int) {
        while budget > 0, case .some(let line) = connection.nextLine() {
            budget -= 1
            handlers.line(line, connection)
        }
    }

    /// Closes a client (if something else has not) and releases its socket.
    private func release(_ connection: ClientConnection) {
        connection.close()
        let known = confined.withLock { $0.connections.removeValue(forKey: connection.fd) != nil }
        guard known else { return }
        _ = wh_poll_remove(poll, connection.fd)
        connection.releaseDescriptor()
        clientCount.subtract(1, ordering: .relaxed)
        handlers.released(connection)
    }

    // MARK: Accepting

    private func acceptClients() {
        for _ in 0..<Self.acceptsPerTurn {
            let fd = wh_poll_accept(listener)
            if fd < 0 {
                switch errno {
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors: stop accepting for a moment rather than spin; the
                    // waiting clients stay in the backlog.
                    _ = wh_poll_remove(poll, listener)
                    confined.withLock { $0.listenerPausedUntil = .now + .milliseconds(50) }
                    return
                case ECONNABORTED, EPROTO:
                    continue
                default:
                    return
                }
            }
            guard let peer = UnixSocket.peerCredentials(fd), peer.uid == getuid() else {
                refusedPeerCount.add(1, ordering: .relaxed)
                refuse(fd, "this daemon serves only uid \(getuid())")
                continue
            }
            guard clientCount.load(ordering: .relaxed) < maximumClients else {
                refusedOverLimitCount.add(1, ordering: .relaxed)
                refuse(fd, "the daemon serves at most \(maximumClients) clients at once (serve --max-clients); "
                       + "try again when one has left")
                continue
            }
            let connection = ClientConnection(fd: fd, poll: poll, limits: limits) { [weak self] connection in
                self?.serve(connection)
            }
            guard wh_poll_add(poll, fd, WH_POLL_IN) == 0 else {
                close(fd)
                continue
            }
            confined.withLock { $0.connections[fd] = connection }
            clientCount.add(1, ordering: .relaxed)
            handlers.connected(connection, peer.pid)
        }
    }

    /// Tells the peer why in one error line, ends our side, and keeps the socket briefly to read
    /// what the peer sent.
    private func refuse(_ fd: Int32, _ reason: String) {
        let line = (try? WireCodec(dates: .iso8601).errorResponse(id: nil, error: RPCErrorObject(code: RPCErrorCode.invalidRequest,
                                                                                                    message: reason))) ?? Data()
        _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        shutdown(fd, Int32(SHUT_WR))
        let kept = confined.withLock { state -> Bool in
            guard state.refused.count < Self.maximumRefusedHeld else { return false }
            state.refused[fd] = .now + Self.refusalGrace
            return true
        }
        if !kept || wh_poll_add(poll, fd, WH_POLL_IN) != 0 {
            if kept { _ = confined.withLock { $0.refused.removeValue(forKey: fd) } }
            close(fd)
        }
    }

    private func drainRefused(_ fd: Int32, buffer: UnsafeMutableRawBufferPointer) {
        guard confined.withLock({ $0.refused[fd] != nil }) else { return }
        let count = recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
        if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            _ = confined.withLock { $0.refused.removeValue(forKey: fd) }
            _ = wh_poll_remove(poll, fd)
            close(fd)
        }
    }

    private func closeExpiredRefusals() {
        let now = ContinuousClock.now
        let expired = confined.withLock { state -> [Int32] in
            let expired = state.refused.filter { $0.value <= now }.map(\.key)
            for fd in expired { state.refused[fd] = nil }
            return expired
        }
        for fd in expired {
            _ = wh_poll_remove(poll, fd)
            close(fd)
        }
    }

    private func resumeListenerIfDue() {
        let resume = confined.withLock { state -> Bool in
            guard let until = state.listenerPausedUntil, until <= .now else { return false }
            state.listenerPausedUntil = nil
            return state.accepting
        }
        if resume { _ = wh_poll_add(poll, listener, WH_POLL_IN) }
    }

    /// Milliseconds until the next refusal expires or accepting resumes; -1 for none.
    private func timeoutUntilNextDeadline() -> Int32 {
        let next = confined.withLock { state -> ContinuousClock.Instant? in
            [state.refused.values.min(), state.listenerPausedUntil].compactMap { $0 }.min()
        }
        guard let next else { return -1 }
        return next.pollTimeout(from: .now)
    }
}
