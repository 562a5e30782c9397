import Foundation
import WalletWire

/// The JSON-RPC session's bookkeeping, with no I/O: request ids, the launch gate, calls in
/// flight, calls past their deadline, late and double completions, hang tracking.
///
/// Every mutation returns what the caller must do (write these lines, resume these waiters,
/// send these cancels); the session that owns it makes the system calls. So the rules can be
/// tested without processes, the way NIO keeps `PendingStreamWritesState` apart from its channel.
/// `Waiter` is whatever resumes a caller (a continuation in the host, a plain value in tests).
struct CallBook<Waiter> {
    /// A call the session is waiting on.
    struct Pending {
        var method: String
        var askedAt: ContinuousClock.Instant
        var deadline: ContinuousClock.Instant?
        /// The encoded request, kept until it is written (calls queue behind the handshake).
        var unsentLine: Data?
        var sentAt: ContinuousClock.Instant?
        var peakFootprintBytes: Int?
        /// Lines on fd 4 that were not protocol while this call was in flight (the first few).
        var violations: [ProtocolViolation] = []
        /// Where the process's stderr stood when the call was asked, to tell which lines came during it.
        var stderrMark: Int
        var waiter: Waiter
    }

    /// A call whose deadline passed: a response that still arrives is a late completion.
    struct Expired: Equatable {
        var method: String
        var askedAt: ContinuousClock.Instant
        var deadline: ContinuousClock.Instant
        /// If no response has come by then, the extension is declared hung.
        var hangDeadline: ContinuousClock.Instant
        /// The extension answered the cancel with -32002: it is alive, not hung; a result may follow.
        var acknowledged = false
    }

    /// Whether calls may be written yet.
    enum Gate {
        /// The handshake has not completed: gated calls queue, in order.
        case closed(queued: [RequestID])
        /// The handshake completed; only the methods the extension listed are sent.
        case open(implemented: Set<String>)
    }

    /// What happened to a call asked of the book.
    enum Admission {
        /// Write this line now.
        case send(RequestID, Data)
        /// Waiting for the handshake.
        case queued(RequestID)
        /// Never sent: the extension did not list the method in `initialize`.
        case notImplemented
    }

    /// What a response matched.
    enum Resolution {
        /// A call in flight: resume its waiter.
        case live(Pending)
        /// A call past its deadline (`acknowledgement`: the -32002 answer to its cancel, which
        /// keeps the call tracked for a late result).
        case late(Expired, acknowledgement: Bool)
        /// A second response to an id answered recently.
        case double
        /// An id the session never sent (or forgot long ago).
        case unknown
    }

    /// What passed at a moment in time.
    struct Expiry {
        /// Calls whose deadline passed, to fail with a deadline error.
        var missed: [(id: RequestID, call: Pending)] = []
        /// Ids to send `$/cancelRequest` for (missed calls that had been written).
        var cancels: [RequestID] = []
        /// Calls past their deadline and the hang grace without any answer.
        var hung: [(id: RequestID, call: Expired)] = []
    }

    /// Violations kept per call for its diagnostics.
    static var violationsKeptPerCall: Int { 4 }
    /// Acknowledged calls remembered for their late result; past this, the oldest are forgotten.
    static var acknowledgedCallsKept: Int { 1024 }

    private(set) var nextRequestID = 1
    private(set) var gate = Gate.closed(queued: [])
    private(set) var pending: [RequestID: Pending] = [:]
    private(set) var expired: [RequestID: Expired] = [:]
    /// Ids this book gave out (numbers, in order, from 1) whose calls ended with no answer that
    /// counts: hung, or past their deadline before they were written. A response to one of them
    /// answers nothing the extension was asked; one to any other id given out and no longer in
    /// flight or expired repeats an answer (a double completion). So answered ids cost no memory:
    /// a set of them, 1,024 per extension, grew the daemon by about 96 KB per warm extension.
    private var endedUnanswered = RecentSet<RequestID>(capacity: 1024)

    /// True while any call waits for its response.
    var hasCallsInFlight: Bool { !pending.isEmpty }

    /// True while any call waits for its response, or missed its deadline and is being watched
    /// for a hang (no acknowledgement of its cancel yet): the extension may still be working on
    /// it, and must not be throttled into a hang the host would then declare.
    var hasCallsAwaitingAnswer: Bool { !pending.isEmpty || expired.values.contains { !$0.acknowledged } }

    /// Takes a call: gives it an id, encodes it, and says whether to write it now.
    /// - Parameters:
    ///   - gated: false for the handshake and the stop sequence, which go before the gate opens.
    ///   - encode: makes the request line for the id.
    /// - Throws: what `encode` throws; the id is then not used.
    mutating func admit(method: String, askedAt: ContinuousClock.Instant, deadline: ContinuousClock.Instant?,
                        gated: Bool, stderrMark: Int, waiter: Waiter, now: ContinuousClock.Instant,
                        encode: (RequestID) throws -> Data) rethrows -> Admission {
        if gated, case .open(let implemented) = gate, !implemented.contains(method) { return .notImplemented }
        let id = RequestID.number(nextRequestID)
        let line = try encode(id)
        nextRequestID += 1
        var call = Pending(method: method, askedAt: askedAt, deadline: deadline, stderrMark: stderrMark, waiter: waiter)
        if gated, case .closed(var queued) = gate {
            call.unsentLine = line
            queued.append(id)
            gate = .closed(queued: queued)
            pending[id] = call
            return .queued(id)
        }
        call.sentAt = now
        pending[id] = call
        return .send(id, line)
    }

    /// Opens the gate: the handshake listed `implemented`.
    /// - Returns: the queued lines to write, in order, and the queued calls refused because
    ///   their method is not implemented (their waiters must be failed).
    mutating func openGate(implemented: [String], now: ContinuousClock.Instant)
        -> (send: [Data], refused: [(id: RequestID, call: Pending)]) {
        guard case .closed(let queued) = gate else { return ([], []) }
        let methods = Set(implemented)
        gate = .open(implemented: methods)
        var send: [Data] = []
        var refused: [(id: RequestID, call: Pending)] = []
        for id in queued {
            guard var call = pending[id], let line = call.unsentLine else { continue }
            guard methods.contains(call.method) else {
                pending[id] = nil
                refused.append((id, call))
                continue
            }
            call.unsentLine = nil
            call.sentAt = now
            pending[id] = call
            send.append(line)
        }
        return (send, refused)
    }

    /// Matches a response to its call.
    /// - Parameter cancelAcknowledgement: the response is the -32002 error that answers `$/cancelRequest`.
    mutating func resolve(_ id: RequestID, cancelAcknowledgement: Bool) -> Resolution {
        if let call = pending.removeValue(forKey: id) {
            return .live(call)
        }
        if var call = expired[id] {
            if cancelAcknowledgement, !call.acknowledged {
                call.acknowledged = true
                expired[id] = call
                forgetOldestAcknowledged()
                return .late(call, acknowledgement: true)
            }
            expired[id] = nil
            return .late(call, acknowledgement: false)
        }
        return wasGivenOut(id) && !endedUnanswered.contains(id) ? .double : .unknown
    }

    /// Whether `id` is one this book gave a call.
    private func wasGivenOut(_ id: RequestID) -> Bool {
        guard case .number(let number) = id else { return false }
        return number >= 1 && number < nextRequestID
    }

    /// Takes every call whose deadline is at or before `now`; calls that were written move to
    /// the expired list (a late answer is recognised) with a hang deadline `hangGrace` later.
    /// Expired calls past their hang deadline without an acknowledgement are reported hung.
    mutating func expire(now: ContinuousClock.Instant, hangGrace: Duration) -> Expiry {
        var expiry = Expiry()
        for (id, call) in pending {
            guard let deadline = call.deadline, deadline <= now else { continue }
            pending[id] = nil
            if case .closed(var queued) = gate, let index = queued.firstIndex(of: id) {
                queued.remove(at: index)
                gate = .closed(queued: queued)
            }
            expiry.missed.append((id, call))
            if call.sentAt != nil {
                expired[id] = Expired(method: call.method, askedAt: call.askedAt, deadline: deadline,
                                      hangDeadline: now + hangGrace)
                expiry.cancels.append(id)
            } else {
                endedUnanswered.insert(id)
            }
        }
        // An acknowledged cancel shows a live extension: it is never hung, and its result, however
        // late, is still recognised as late (within ``acknowledgedCallsKept``).
        for (id, call) in expired where call.hangDeadline <= now && !call.acknowledged {
            expired[id] = nil
            endedUnanswered.insert(id)
            expiry.hung.append((id, call))
        }
        expiry.missed.sort { $0.call.askedAt < $1.call.askedAt }
        expiry.hung.sort { $0.call.deadline < $1.call.deadline }
        return expiry
    }

    /// The earliest deadline or hang deadline still to come. (Closures, not key paths: the I/O
    /// loop asks for it after every line, and in a generic type a key path is built at run time.)
    var nextTimer: ContinuousClock.Instant? {
        var earliest: ContinuousClock.Instant?
        for call in pending.values {
            if let deadline = call.deadline, earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        for call in expired.values where !call.acknowledged {
            if earliest.map({ call.hangDeadline < $0 }) ?? true { earliest = call.hangDeadline }
        }
        return earliest
    }

    private mutating func forgetOldestAcknowledged() {
        let acknowledged = expired.filter { $0.value.acknowledged }
        guard acknowledged.count > Self.acknowledgedCallsKept else { return }
        for (id, _) in acknowledged.sorted(by: { $0.value.deadline < $1.value.deadline })
            .prefix(acknowledged.count - Self.acknowledgedCallsKept) {
            expired[id] = nil
        }
    }

    /// Raises every call in flight's peak to at least `bytes`.
    mutating func recordFootprint(_ bytes: Int) {
        for id in Array(pending.keys) {
            let previous = pending[id]?.peakFootprintBytes ?? 0
            pending[id]?.peakFootprintBytes = max(previous, bytes)
        }
    }

    /// Notes a protocol violation on every call in flight (the first few per call), so that
    /// their failures can say what the extension wrote instead of an answer.
    mutating func noteViolation(_ violation: ProtocolViolation) {
        for id in Array(pending.keys) where (pending[id]?.violations.count ?? 0) < Self.violationsKeptPerCall {
            pending[id]?.violations.append(violation)
        }
    }

    /// The call `id`, if it is in flight.
    func pendingCall(_ id: RequestID) -> Pending? { pending[id] }

    /// Takes the call `id` out of flight (to fail it at once), if it is in flight.
    mutating func take(_ id: RequestID) -> Pending? {
        guard let call = pending.removeValue(forKey: id) else { return nil }
        return call
    }

    /// Takes every call in flight (to fail them) and forgets the expired ones.
    mutating func takeAll() -> [(id: RequestID, call: Pending)] {
        let calls = pending.map { (id: $0.key, call: $0.value) }.sorted { $0.call.askedAt < $1.call.askedAt }
        pending.removeAll()
        expired.removeAll()
        if case .closed = gate { gate = .closed(queued: []) }
        return calls
    }
}

/// A set that remembers only its most recent `capacity` members.
struct RecentSet<Element: Hashable> {
    private var members: Set<Element> = []
    private var order: [Element] = []
    private var nextSlot = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    func contains(_ element: Element) -> Bool { members.contains(element) }

    mutating func insert(_ element: Element) {
        guard !members.contains(element) else { return }
        if order.count < capacity {
            order.append(element)
        } else {
            members.remove(order[nextSlot])
            order[nextSlot] = element
            nextSlot = (nextSlot + 1) % capacity
        }
        members.insert(element)
    }
}
