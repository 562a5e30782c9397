import Foundation
import Synchronization
import WalletHostRuntime

/// The daemon's event sink: every event goes to the event log, into the ``ProcessTable``, to
/// the clients subscribed to it (through their bounded queues, never blocking the extension's
/// I/O thread that records it), and into a short ring of recent events that request handlers
/// can wait on.
public final class EventHub: HostEventSink {
    /// A client's subscription: which events it wants and where they go.
    public struct Subscription: Sendable {
        public var kinds: Set<HostEvent.Kind>?
        public var bundleIdentifier: String?
        public var deliver: @Sendable (HostEvent) -> Void

        func wants(_ event: HostEvent) -> Bool {
            if let kinds, !kinds.contains(event.kind) { return false }
            if let bundleIdentifier, event.bundleIdentifier != bundleIdentifier { return false }
            return true
        }
    }

    private struct State {
        var table = ProcessTable()
        var recent: [HostEvent] = []
        /// The sequence number of `recent[0]`.
        var firstSequence = 0
        var subscriptions: [Int: Subscription] = [:]
        var nextSubscription = 1
    }

    private static let recentCapacity = 512
    private let state = Mutex(State())
    private let log: (any HostEventSink)?
    /// Told of every process that ended without the host asking (for keep-warm).
    private let onCrash: @Sendable (HostEvent) -> Void

    public init(log: (any HostEventSink)?, onCrash: @escaping @Sendable (HostEvent) -> Void = { _ in }) {
        self.log = log
        self.onCrash = onCrash
    }

    public func record(_ event: HostEvent) {
        log?.record(event)
        let (crashed, receivers) = state.withLock { state -> (Bool, [Subscription]) in
            let crashed = state.table.apply(event)
            state.recent.append(event)
            if state.recent.count > Self.recentCapacity {
                state.recent.removeFirst(state.recent.count - Self.recentCapacity)
                state.firstSequence += 1
            }
            return (crashed, state.subscriptions.values.filter { $0.wants(event) })
        }
        for receiver in receivers { receiver.deliver(event) }
        if crashed { onCrash(event) }
    }

    public func recordOutput(bundleIdentifier: String, pid: Int32, stream: String, line: String) {
        log?.recordOutput(bundleIdentifier: bundleIdentifier, pid: pid, stream: stream, line: line)
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

    /// The first event from `sequence` on that matches, waiting up to `timeout` for it.
    public func firstEvent(from sequence: Int, within timeout: Duration,
                           where matches: @Sendable (HostEvent) -> Bool) async -> HostEvent? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let found = state.withLock { state -> HostEvent? in
                let start = max(0, sequence - state.firstSequence)
                guard start < state.recent.count else { return nil }
                return state.recent[start...].first(where: matches)
            }
            if let found { return found }
            if ContinuousClock.now >= deadline || Task.isCancelled { return nil }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }
}
