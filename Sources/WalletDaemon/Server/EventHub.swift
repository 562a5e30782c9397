import Foundation
import Synchronization
import WalletHostRuntime
import WalletWire

/// The daemon's event sink: every event goes to the event log, into the ``ProcessTable``, to
/// the clients subscribed to it (through their bounded queues, never blocking the extension's
/// I/O thread that records it), and into a short ring of recent events that request handlers
/// can wait on. Each event is encoded once: the log's line and every subscriber's notification
/// carry the same bytes; an event no client subscribed to is encoded by the log's writer thread,
/// not by the thread that records it (the client loop or the I/O reactor, whose next wake-up a
/// client waits on).
public final class EventHub: HostEventSink {
    /// A client's subscription: which events it wants and where they go.
    public struct Subscription: Sendable {
        public var kinds: Set<HostEvent.Kind>?
        public var bundleIdentifier: String?
        /// Gets the event's `events.event` notification line, encoded once for every subscriber.
        public var deliver: @Sendable (_ notification: Data) -> Void

        public init(kinds: Set<HostEvent.Kind>?, bundleIdentifier: String?, deliver: @escaping @Sendable (_ notification: Data) -> Void) {
            self.kinds = kinds
            self.bundleIdentifier = bundleIdentifier
            self.deliver = deliver
        }

        func wants(_ event: HostEvent) -> Bool {
            if let kinds, !kinds.contains(event.kind) { return false }
            if let bundleIdentifier, event.bundleIdentifier != bundleIdentifier { return false }
            return true
        }
    }

    /// A handler waiting for an event: the first from `sequence` on that `matches`.
    private struct Wanted: Sendable {
        var sequence: Int
        var matches: @Sendable (HostEvent) -> Bool
    }

    private struct State {
        var table = ProcessTable()
        var recent: [HostEvent] = []
        /// The sequence number of `recent[0]`.
        var firstSequence = 0
        var subscriptions: [Int: Subscription] = [:]
        var nextSubscription = 1
        var waiters = TimedWaiters<HostEvent, Wanted>()
        /// Told of every line an extension wrote on stderr or logged (the studio page's panel).
        var outputObservers: [@Sendable (OutputLine) -> Void] = []
    }

    /// A line an extension wrote on stdout or stderr, or logged with os_log (`stream` says which).
    public struct OutputLine: Codable, Sendable {
        public var bundleIdentifier: String
        public var pid: Int32
        public var stream: String
        public var line: String
    }

    /// The method of the notification that carries an event.
    public static let notificationMethod = "events.event"
    /// Recent events kept for handlers to wait on: at least this many, at most twice as many.
    private static let recentCapacity = 512
    private let state = Mutex(State())
    private let log: EventLogFile?
    private let codec = WireCodec(dates: .iso8601)
    /// Told of every process that ended without the host asking (for keep-warm).
    private let onCrash: @Sendable (HostEvent) -> Void

    public init(log: EventLogFile?, onCrash: @escaping @Sendable (HostEvent) -> Void = { _ in }) {
        self.log = log
        self.onCrash = onCrash
    }

    public func record(_ event: HostEvent) {
        let (crashed, receivers, woken) = state.withLock { state -> (Bool, [Subscription], [TimedWaiters<HostEvent, Wanted>.Continuation]) in
            let crashed = state.table.apply(event)
            let sequence = state.firstSequence + state.recent.count
            state.recent.append(event)
            // Between one and two capacities kept: dropping one event at a time would move all
            // the others on every event.
            if state.recent.count >= 2 * Self.recentCapacity {
                state.recent.removeFirst(Self.recentCapacity)
                state.firstSequence += Self.recentCapacity
            }
            let woken = state.waiters.take { $0.sequence <= sequence && $0.matches(event) }
            return (crashed, state.subscriptions.values.filter { $0.wants(event) }, woken)
        }
        for waiter in woken { waiter.resume(returning: event) }
        if receivers.isEmpty {
            // The log encodes it on its own thread: this one may be the one a client waits on.
            log?.record(event)
        } else if let json = log?.encode(event) ?? (try? codec.json(event)) {
            // Encoded once, outside the lock: for the log, and as every subscriber's notification.
            log?.record(encoded: json)
            let notification = codec.notification(method: Self.notificationMethod, encodedParams: json)
            for receiver in receivers { receiver.deliver(notification) }
        }
        if crashed { onCrash(event) }
    }

    public func recordOutput(bundleIdentifier: String, pid: Int32, stream: String, line: String) {
        log?.recordOutput(bundleIdentifier: bundleIdentifier, pid: pid, stream: stream, line: line)
        let observers = state.withLock { $0.outputObservers }
        guard !observers.isEmpty else { return }
        let output = OutputLine(bundleIdentifier: bundleIdentifier, pid: pid, stream: stream, line: line)
        for observer in observers { observer(output) }
    }

    /// Calls `observer` with every output line from now on (on the thread that read it: never block).
    public func observeOutput(_ observer: @escaping @Sendable (OutputLine) -> Void) {
        state.withLock { $0.outputObservers.append(observer) }
    }

    /// Writes the events the log gathered (``EventLogFile/flush()``): the daemon does as it stops.
    public func flushLog() {
        log?.flush()
    }

    /// The process table as it stands.
    public var table: ProcessTable { state.withLock { $0.table } }

    /// The sequence number the next event will get: a place to wait from.
    public var nextSequence: Int { state.withLock { $0.firstSequence + $0.recent.count } }

    /// Adds a subscription. - Returns: its id, for ``unsubscribe(_:)``.
    public func subscribe(_ subscription: Subscription) -> Int {
        state.withLock { state in
            let id = state.nextSubscription
            state.nextSubscription += 1
            state.subscriptions[id] = subscription
            return id
        }
    }

    public func unsubscribe(_ id: Int) {
        _ = state.withLock { $0.subscriptions.removeValue(forKey: id) }
    }

    public var subscriptionCount: Int { state.withLock { $0.subscriptions.count } }

    /// The first event from `sequence` on that matches: one already recorded, or the next one
    /// recorded within `timeout` (nil when none is, or the task is cancelled).
    public func firstEvent(from sequence: Int, within timeout: Duration,
                           where matches: @escaping @Sendable (HostEvent) -> Bool) async -> HostEvent? {
        let id = state.withLock { $0.waiters.makeID() }
        return await TimedWaiters<HostEvent, Wanted>.wait(id: id, within: timeout, begin: { continuation in
            let found = state.withLock { state -> HostEvent?? in
                let start = max(0, sequence - state.firstSequence)
                if start < state.recent.count, let event = state.recent[start...].first(where: matches) { return .some(event) }
                return state.waiters.add(id, condition: Wanted(sequence: sequence, matches: matches), continuation: continuation)
                    ? .none : .some(nil)
            }
            if case .some(let event) = found { continuation.resume(returning: event) }
        }, abandon: { [self] id in
            state.withLock { $0.waiters.abandon(id) }?.resume(returning: nil)
        })
    }

    /// The events from `sequence` on that match, among those the hub still keeps.
    public func events(from sequence: Int, where matches: (HostEvent) -> Bool) -> [HostEvent] {
        state.withLock { state in
            let start = max(0, sequence - state.firstSequence)
            return start < state.recent.count ? state.recent[start...].filter(matches) : []
        }
    }
}
