import CWalletPoll
import Foundation
import Synchronization
import WalletHostRuntime
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// One client's socket, non-blocking, served by the daemon's ``ClientLoop``: the loop reads it
/// and frames its lines; any thread sends to it without blocking.
///
/// **Fairness.** At most ``Limits/requestsInFlight`` of the client's lines are being served at
/// once; the lines after them wait, in order, and the socket is not read meanwhile, so a client
/// that pipelines thousands of requests holds a few of them in the daemon and the rest in its
/// own socket buffer.
///
/// **A client that reads slowly.** Answers a client has not read yet wait in a queue bounded in
/// bytes: past ``Limits/droppableBytes`` event notifications are dropped (and counted), and
/// the client's next requests are not read until it catches up; past ``Limits/maximumBytes``
/// (answers and transcript lines alone) the client is too slow to serve and is disconnected,
/// which cancels what it had in flight.
public final class ClientConnection: Sendable {
    /// What one client may hold of the daemon.
    public struct Limits: Sendable {
        /// Queued answer bytes past which event notifications are dropped and reading pauses.
        public var droppableBytes = 1 << 20
        /// Queued answer bytes past which the client is disconnected.
        public var maximumBytes = 64 << 20
        /// The longest line read (the extension protocol's limit).
        public var maximumLineBytes = WireProtocol.maximumLineBytes
        /// Lines of one client served at once (requests in flight); the rest wait unread.
        public var requestsInFlight = 16

        public init() {}
    }

    struct State {
        var framer: LineFramer
        /// Lines read and not yet handed to the server (nil: a line over the limit).
        var waiting: [Data?] = []
        var waitingStart = 0
        /// Lines handed to the server and not finished.
        var inFlight = 0
        var outgoing: [Data] = []
        var queuedBytes = 0
        var dropped = 0
        /// A thread is writing to the socket (a sender writing directly, or the loop).
        var writing = false
        var closed = false
        /// The loop released the socket while a sender was writing: the sender closes it.
        var releaseWhenWritten = false
        /// What epoll watches the socket for now.
        var interest: UInt32 = WH_POLL_IN
        var onClose: [@Sendable () -> Void] = []
        var drainWaiters = TimedWaiters<Bool, Void>()

        var hasWaitingLines: Bool { waitingStart < waiting.count }
    }

    public let fd: Int32
    let loop: HostLoop
    let limits: Limits
    let state: Mutex<State>
    /// Tells the loop that a line waiting for a free slot can now be served.
    let wakeLoop: @Sendable (ClientConnection) -> Void

    init(fd: Int32, loop: HostLoop, limits: Limits, wakeLoop: @escaping @Sendable (ClientConnection) -> Void) {
        self.fd = fd
        self.loop = loop
        self.limits = limits
        self.wakeLoop = wakeLoop
        state = Mutex(State(framer: LineFramer(maximumLineBytes: limits.maximumLineBytes)))
    }

    /// Whether the connection has closed (peer gone, too slow, or ``close()``).
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Lines dropped so far because the client read too slowly.
    public var droppedLines: Int { state.withLock { $0.dropped } }

    // MARK: Sending (any thread)

    /// Queues a line (with its newline) for the client. Never blocks: with nothing queued the
    /// line is written at once by the calling thread (no thread hop for a warm call's answer);
    /// what the socket does not take is written by the loop when the client reads.
    /// - Parameter droppable: true for lines a slow client may miss (event notifications).
    /// - Returns: false when the line was dropped or the connection is closed.
    @discardableResult
    public func send(_ line: Data, droppable: Bool = false) -> Bool {
        enum Plan { case direct, queued, dropped, overflow }
        let plan = state.withLock { state -> Plan in
            guard !state.closed else { return .dropped }
            if !state.writing && state.outgoing.isEmpty {
                state.writing = true
                return .direct
            }
            if droppable && state.queuedBytes + line.count > limits.droppableBytes {
                state.dropped += 1
                return .dropped
            }
            if state.queuedBytes + line.count > limits.maximumBytes { return .overflow }
            state.outgoing.append(line)
            state.queuedBytes += line.count
            updateInterest(&state)
            return .queued
        }
        switch plan {
        case .direct: return write([line], counted: false)
        case .queued: return true
        case .dropped: return false
        case .overflow:
            close()
            return false
        }
    }

    /// Writes the queued lines the socket takes now (the loop, when the socket is writable).
    func writeQueued() {
        let lines = state.withLock { state -> [Data]? in
            guard !state.closed, !state.writing, !state.outgoing.isEmpty else { return nil }
            state.writing = true
            // Still counted in `queuedBytes` until written: the limits hold while they are.
            defer { state.outgoing.removeAll(keepingCapacity: true) }
            return state.outgoing
        }
        if let lines { _ = write(lines, counted: true) }
    }

    /// Writes `lines` without blocking, as the one writer; queues what the socket did not take.
    /// - Parameter counted: the lines are in `queuedBytes` (taken from the queue), not a direct send.
    private func write(_ lines: [Data], counted: Bool) -> Bool {
        var unwritten: [Data] = []
        var failed = false
        for (index, line) in lines.enumerated() {
            let written = line.withUnsafeBytes { buffer -> Int in
                var written = 0
                while written < buffer.count {
                    let rest = UnsafeRawBufferPointer(rebasing: buffer[written...])
                    guard let count = try? SystemCall.send(fd, rest, flags: Int32(MSG_DONTWAIT)) else {
                        failed = true
                        break
                    }
                    if count > 0 {
                        written += count
                        continue
                    }
                    break
                }
                return written
            }
            if failed { break }
            if written < line.count {
                unwritten.append(written == 0 ? line : Data(line[(line.startIndex + written)...]))
                unwritten.append(contentsOf: lines[(index + 1)...])
                break
            }
        }
        if failed {
            if state.withLock({ endWriting(&$0) }) { SystemCall.close(fd) }
            close()
            return false
        }
        var releaseNow = false
        let (readingResumes, drained) = state.withLock { state -> (Bool, [TimedWaiters<Bool, Void>.Continuation]) in
            releaseNow = endWriting(&state)
            let wasPausedByOutput = state.queuedBytes > limits.droppableBytes
            let unwrittenBytes = unwritten.reduce(0) { $0 + $1.count }
            if state.closed {
                // close() emptied the queue while this was written: nothing is left to count.
                state.queuedBytes = 0
            } else {
                if counted {
                    state.queuedBytes -= lines.reduce(0) { $0 + $1.count } - unwrittenBytes
                } else {
                    state.queuedBytes += unwrittenBytes
                }
                if !unwritten.isEmpty { state.outgoing.insert(contentsOf: unwritten, at: 0) }
            }
            updateInterest(&state)
            let drained = state.outgoing.isEmpty ? state.drainWaiters.take { true } : []
            return (wasPausedByOutput && state.queuedBytes <= limits.droppableBytes && state.hasWaitingLines, drained)
        }
        if releaseNow { SystemCall.close(fd) }
        for waiter in drained { waiter.resume(returning: true) }
        if readingResumes { wakeLoop(self) }
        return true
    }

    /// The writer is done. - Returns: whether it must close the socket the loop released meanwhile.
    private func endWriting(_ state: inout State) -> Bool {
        state.writing = false
        return state.releaseWhenWritten
    }

    /// Waits until everything queued so far was written (or the connection closed), at most `timeout`.
    public func drained(within timeout: Duration) async {
        let id = state.withLock { $0.drainWaiters.makeID() }
        _ = await TimedWaiters<Bool, Void>.wait(id: id, within: timeout, begin: { continuation in
            let now = state.withLock { state -> Bool in
                if state.closed || (state.outgoing.isEmpty && !state.writing) { return true }
                return !state.drainWaiters.add(id, condition: (), continuation: continuation)
            }
            if now { continuation.resume(returning: true) }
        }, abandon: { [self] id in
            state.withLock { $0.drainWaiters.abandon(id) }?.resume(returning: nil)
        })
    }

    // MARK: Closing

    /// Runs `body` once when the connection closes (at once if it already has).
    public func onClose(_ body: @escaping @Sendable () -> Void) {
        let already = state.withLock { state -> Bool in
            if state.closed { return true }
            state.onClose.append(body)
            return false
        }
        if already { body() }
    }

    /// Closes the socket, after ``close()`` (the loop, once it stopped watching it): at once, or
    /// by the sender writing to it now, so that no write ever reaches a descriptor reused since.
    func releaseDescriptor() {
        let now = state.withLock { state -> Bool in
            guard state.writing else { return true }
            state.releaseWhenWritten = true
            return false
        }
        if now { SystemCall.close(fd) }
    }

    /// Closes the connection (any thread): nothing more is read or written, the close handlers
    /// run, and the loop releases the socket once it sees the hang-up.
    public func close() {
        let ended = state.withLock { state -> (handlers: [@Sendable () -> Void], waiters: [TimedWaiters<Bool, Void>.Continuation])? in
            guard !state.closed else { return nil }
            state.closed = true
            state.outgoing.removeAll()
            state.queuedBytes = 0
            state.waiting.removeAll()
            state.waitingStart = 0
            // Both ways, and under the lock: epoll reports a hang-up whatever it watches, and the
            // loop, which closes the socket under this lock too, cannot have closed it (and the
            // number gone to another client) before this shutdown.
            SystemCall.shutdown(fd, Int32(SHUT_RDWR))
            defer { state.onClose.removeAll() }
            return (state.onClose, state.drainWaiters.takeAll())
        }
        guard let ended else { return }
        for waiter in ended.waiters { waiter.resume(returning: true) }
        for handler in ended.handlers { handler() }
    }
}
