import CWalletPoll
import Foundation
import Synchronization
import WalletHostRuntime
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// Reading a client (the loop's thread): its bytes framed into lines, at most
/// ``ClientConnection/Limits/requestsInFlight`` of them served at once, and what epoll watches
/// the socket for.
extension ClientConnection {
    /// What one read found.
    enum ReadResult {
        /// Lines (maybe none) were added to those waiting; the socket still holds the bytes
        /// read, until ``consume(_:into:)``.
        case read(bytes: Int)
        /// Nothing to read now.
        case wouldBlock
        /// The client closed its end, or the socket failed.
        case ended
    }

    /// Reads what the socket holds, up to `buffer`'s size, and frames it into waiting lines.
    /// The bytes are peeked, not taken: taking them wakes the client's thread waiting for the
    /// answer (the kernel tells a writer there is room again), which the loop does after it
    /// has handed the lines out (``consume(_:into:)``), not before.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        let received = Result { try SystemCall.receive(fd, into: buffer, flags: Int32(MSG_DONTWAIT | MSG_PEEK)) }
        guard case .success(let wouldBlockOrCount) = received else { return .ended }
        guard let count = wouldBlockOrCount else { return .wouldBlock }
        if count == 0 { return .ended }
        state.withLock { state in
            for frame in state.framer.append(UnsafeRawBufferPointer(rebasing: buffer[..<count])) {
                switch frame {
                case .line(let line): state.waiting.append(line)
                case .oversized: state.waiting.append(nil)
                }
            }
        }
        return .read(bytes: count)
    }

    /// Takes the `count` bytes ``read(into:)`` peeked off the socket (nobody else reads it, so
    /// they are still first in it). - Returns: false when the socket failed.
    func consume(_ count: Int, into buffer: UnsafeMutableRawBufferPointer) -> Bool {
        var left = count
        while left > 0 {
            let room = UnsafeMutableRawBufferPointer(rebasing: buffer[..<min(left, buffer.count)])
            guard let taken = try? SystemCall.receive(fd, into: room, flags: Int32(MSG_DONTWAIT)), taken > 0 else { return false }
            left -= taken
        }
        return true
    }

    /// The next waiting line, when the client has a free slot (it then counts as in flight
    /// until ``finished()``); `.none` when nothing can be served now.
    func nextLine() -> Data?? {
        state.withLock { state -> Data?? in
            guard !state.closed, state.hasWaitingLines, state.inFlight < limits.requestsInFlight else { return .none }
            let line = state.waiting[state.waitingStart]
            state.waitingStart += 1
            if state.waitingStart == state.waiting.count {
                state.waiting.removeAll(keepingCapacity: state.waiting.count <= 64)
                state.waitingStart = 0
            } else if state.waitingStart >= 1024 {
                state.waiting.removeFirst(state.waitingStart)
                state.waitingStart = 0
            }
            state.inFlight += 1
            return .some(line)
        }
    }

    /// Whether the loop should read the socket: no line waits for a slot, and the client keeps
    /// up with its answers.
    var shouldRead: Bool {
        state.withLock { !$0.closed && !$0.hasWaitingLines && $0.queuedBytes <= limits.droppableBytes }
    }

    /// Sets what epoll watches the socket for, after the loop's turn for this client
    /// (``read(into:)`` and ``nextLine()`` leave it as it was: a line read and served in the
    /// same turn would otherwise cost two `epoll_ctl` calls, one to stop reading and one to
    /// read again).
    func settleInterest() {
        state.withLock { updateInterest(&$0) }
    }

    /// Whether a line waits that ``nextLine()`` would hand out now.
    var canServe: Bool {
        state.withLock { !$0.closed && $0.hasWaitingLines && $0.inFlight < limits.requestsInFlight }
    }

    /// A line handed out by ``nextLine()`` was served (any thread): its slot is free again.
    public func finished() {
        let wake = state.withLock { state -> Bool in
            state.inFlight -= 1
            updateInterest(&state)
            return !state.closed && state.hasWaitingLines && state.inFlight == limits.requestsInFlight - 1
        }
        if wake { wakeLoop(self) }
    }

    /// Sets what epoll watches for: reading while no line waits for a slot and the client keeps
    /// up with its answers; writing while answers are queued and nobody is writing them.
    func updateInterest(_ state: inout State) {
        guard !state.closed else { return }
        var interest: UInt32 = 0
        if !state.hasWaitingLines && state.queuedBytes <= limits.droppableBytes { interest |= WH_POLL_IN }
        if !state.outgoing.isEmpty && !state.writing { interest |= WH_POLL_OUT }
        guard interest != state.interest else { return }
        state.interest = interest
        loop.reregister(fd, for: HostLoop.Events(rawValue: interest))
    }
}
