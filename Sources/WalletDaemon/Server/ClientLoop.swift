import CWalletMemory
import CWalletPoll
import Foundation
import Synchronization
import WalletDaemonClient
import WalletHostRuntime
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's clients, as handlers on the host's one loop (``HostLoop``, the thread that also
/// does every extension's I/O): it accepts clients and reads every client socket, however many
/// are connected, and hands each line to the server in turn.
///
/// **Round-robin.** Each round serves every client with lines waiting, one after the other, at
/// most a client's share of lines each (its ``ClientConnection/Limits/requestsInFlight``): a
/// client that pipelines thousands of requests is read one buffer at a time, like any other,
/// and its lines past its share wait for the next round or for one of its requests to finish.
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

    /// State only the loop's thread touches.
    struct Confined {
        var connections: [Int32: ClientConnection] = [:]
        /// Refused sockets kept to read the peer's request, each with its timer to close it regardless.
        var refused: [Int32: HostLoop.Timer] = [:]
        var accepting = true
        var stopped = false
        /// Accepting is paused for a moment (the process is out of descriptors).
        var listenerPaused = false
        /// Clients to serve next round, in order, each once.
        var due: [ClientConnection] = []
        var dueDescriptors: Set<Int32> = []
        var hungUp: Set<Int32> = []
        /// A round is posted to the loop.
        var roundPosted = false
        var trim: FreeMemoryTrim
        var trimTimer: HostLoop.Timer?
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 16)
    }

    let maximumClients: Int
    let loop: HostLoop
    let listener: Int32
    let limits: ClientConnection.Limits
    let handlers: Handlers
    let confined: LoopConfined<Confined>
    let clientCount = Atomic<Int>(0)
    let refusedPeerCount = Atomic<Int>(0)
    let refusedOverLimitCount = Atomic<Int>(0)

    static let refusalGrace: Duration = .milliseconds(200)
    static let maximumRefusedHeld = 256
    static let acceptsPerTurn = 64
    /// When the loop gives free memory back (``FreeMemoryTrim``): after this many clients left,
    /// or this long with nothing to do after work.
    private static let releasesBeforeTrim = 256
    private static let quietBeforeTrim: Duration = .milliseconds(500)

    /// - Parameter loop: the loop to serve clients on (nil: the host's shared loop).
    /// - Throws: ``DaemonError`` when the host loop cannot be set up.
    init(listener: Int32, limits: ClientConnection.Limits, maximumClients: Int, handlers: Handlers, loop: HostLoop? = nil) throws {
        self.listener = listener
        self.limits = limits
        self.maximumClients = maximumClients
        self.handlers = handlers
        do {
            self.loop = try loop ?? HostLoop.shared()
        } catch {
            throw DaemonError("cannot set up the client loop: \(error)")
        }
        confined = LoopConfined(Confined(trim: FreeMemoryTrim(quiet: Self.quietBeforeTrim, releasesBeforeTrim: Self.releasesBeforeTrim)),
                                to: self.loop)
        _ = wh_poll_set_nonblocking(listener)
    }

    /// Clients connected now.
    var clients: Int { clientCount.load(ordering: .relaxed) }
    /// Connections refused because the peer was another user.
    var refusedPeers: Int { refusedPeerCount.load(ordering: .relaxed) }
    /// Connections refused because ``maximumClients`` were connected.
    var refusedOverLimit: Int { refusedOverLimitCount.load(ordering: .relaxed) }

    /// Starts accepting clients on the loop.
    /// - Throws: ``DaemonError`` when the listening socket cannot be watched.
    func start() throws {
        do {
            try loop.register(listener, for: .readable) { [weak self] _ in self?.acceptClients() }
        } catch {
            throw DaemonError("cannot watch the daemon's socket: \(error)")
        }
    }

    /// Accepts no more clients (the listener stays open: an inherited one belongs to systemd).
    func stopAccepting() {
        loop.execute { [self] in
            confined.value.accepting = false
            loop.unregister(listener)
        }
    }

    /// Closes every client and stops watching the listener; returns once it has (a blocking
    /// wait: not on a cooperative thread).
    func stop() {
        guard !loop.inLoop else { return stopOnLoop() }
        let done = DispatchSemaphore(value: 0)
        loop.execute { [self] in
            stopOnLoop()
            done.signal()
        }
        done.wait()
    }

    private func stopOnLoop() {
        guard !confined.value.stopped else { return }
        confined.value.stopped = true
        confined.value.accepting = false
        loop.unregister(listener)
        for connection in Array(confined.value.connections.values) { release(connection) }
        for (fd, timer) in confined.value.refused {
            loop.cancel(timer)
            loop.unregister(fd)
            SystemCall.close(fd)
        }
        confined.value.refused.removeAll()
        if let timer = confined.value.trimTimer { loop.cancel(timer) }
        confined.value.trimTimer = nil
        confined.value.due.removeAll()
        confined.value.dueDescriptors.removeAll()
    }

    /// A client with a line that can now be served (one of its requests finished, or it caught
    /// up with its answers): the loop serves it in its next round.
    func serve(_ connection: ClientConnection) {
        loop.execute { [self] in
            guard confined.value.connections[connection.fd] === connection else { return }
            makeDue(connection)
        }
    }

    // MARK: Rounds

    /// A client's socket is ready (loop's thread).
    func ready(_ connection: ClientConnection, _ events: HostLoop.Events) {
        guard confined.value.connections[connection.fd] === connection else { return }
        noteBusy()
        if events.contains(.writable) { connection.writeQueued() }
        if !events.isDisjoint(with: [.hangUp, .error]) { confined.value.hungUp.insert(connection.fd) }
        if !events.isDisjoint(with: [.readable, .hangUp, .error]) { makeDue(connection) }
    }

    /// Serves `connection` in the next round (posted once for all the clients due by then).
    private func makeDue(_ connection: ClientConnection) {
        guard confined.value.dueDescriptors.insert(connection.fd).inserted else { return }
        confined.value.due.append(connection)
        guard !confined.value.roundPosted else { return }
        confined.value.roundPosted = true
        loop.execute { [self] in serveRound() }
    }

    /// One round: each due client served once, in order.
    private func serveRound() {
        confined.value.roundPosted = false
        let round = confined.value.due
        confined.value.due.removeAll(keepingCapacity: true)
        confined.value.dueDescriptors.removeAll(keepingCapacity: true)
        let buffer = confined.value.buffer
        for connection in round {
            let ended = confined.value.hungUp.remove(connection.fd) != nil
            if connection.isClosed || (ended && !connection.shouldRead) {
                releaseAndCount(connection)
                continue
            }
            var budget = limits.requestsInFlight
            serveWaiting(connection, budget: &budget)
            if connection.shouldRead {
                switch connection.read(into: buffer) {
                case .ended:
                    // Lines read before the end are served; then the client is gone.
                    serveWaiting(connection, budget: &budget)
                    releaseAndCount(connection)
                    continue
                case .read(let bytes):
                    serveWaiting(connection, budget: &budget)
                    if !connection.consume(bytes, into: buffer) {
                        releaseAndCount(connection)
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
        // Nothing left to do this round: give back what clients that left left free.
        if confined.value.due.isEmpty, confined.value.trim.isDue(now: loop.clock.now()) { wh_release_free_memory() }
    }

    /// Hands the client's waiting lines to the server while it has free slots, at most `budget`.
    private func serveWaiting(_ connection: ClientConnection, budget: inout Int) {
        while budget > 0, case .some(let line) = connection.nextLine() {
            budget -= 1
            handlers.line(line, connection)
        }
    }

    private func releaseAndCount(_ connection: ClientConnection) {
        release(connection)
        confined.value.trim.noteReleased()
    }

    /// Closes a client (if something else has not) and releases its socket.
    private func release(_ connection: ClientConnection) {
        connection.close()
        guard confined.value.connections.removeValue(forKey: connection.fd) != nil else { return }
        loop.unregister(connection.fd)
        connection.releaseDescriptor()
        clientCount.subtract(1, ordering: .relaxed)
        handlers.released(connection)
    }

    /// The loop had client work: a trim comes once it has been quiet for a while (a timer, set
    /// once per quiet spell, so an idle daemon is not woken for it).
    func noteBusy() {
        let now = loop.clock.now()
        confined.value.trim.noteBusy(at: now)
        guard confined.value.trimTimer == nil, let due = confined.value.trim.quietTrimDue else { return }
        scheduleQuietTrim(at: due)
    }

    private func scheduleQuietTrim(at due: ContinuousClock.Instant) {
        confined.value.trimTimer = loop.schedule(at: due) { [weak self] in
            guard let self else { return }
            confined.value.trimTimer = nil
            if confined.value.trim.isDue(now: loop.clock.now()) {
                wh_release_free_memory()
            } else if let later = confined.value.trim.quietTrimDue {
                scheduleQuietTrim(at: later)
            }
        }
    }
}
