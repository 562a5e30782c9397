import Foundation
import Synchronization

/// Keeps events in memory (for transcripts, reports and tests), forwards them to another sink,
/// and lets a task wait for the next event that matches a predicate instead of polling.
public final class EventCollector: HostEventSink {
    private struct State {
        var events: [HostEvent] = []
        var output: [String] = []
        var waiters = TimedWaiters<HostEvent, @Sendable (HostEvent) -> Bool>()
    }

    private let state = Mutex(State())
    private let next: (any HostEventSink)?

    public init(forwardingTo next: (any HostEventSink)? = nil) {
        self.next = next
    }

    /// Every event recorded so far, oldest first.
    public var events: [HostEvent] { state.withLock { $0.events } }

    /// How many events were recorded so far: an index to wait from.
    public var count: Int { state.withLock { $0.events.count } }

    /// Every output line recorded so far, as `stream: line`.
    public var outputLines: [String] { state.withLock { $0.output } }

    /// Events of `kind`, oldest first.
    public func events(_ kind: HostEvent.Kind) -> [HostEvent] {
        state.withLock { $0.events.filter { $0.kind == kind } }
    }

    public func record(_ event: HostEvent) {
        let resumed = state.withLock { state in
            state.events.append(event)
            return state.waiters.take { matches in matches(event) }
        }
        for continuation in resumed { continuation.resume(returning: event) }
        next?.record(event)
    }

    public func recordOutput(bundleIdentifier: String, pid: Int32, stream: String, line: String) {
        state.withLock { $0.output.append("\(stream): \(line)") }
        next?.recordOutput(bundleIdentifier: bundleIdentifier, pid: pid, stream: stream, line: line)
    }

    public func prepareOutput(bundleIdentifier: String) {
        next?.prepareOutput(bundleIdentifier: bundleIdentifier)
    }

    /// The first event at position `index` or later that matches, waiting for it up to `timeout`.
    /// - Parameters:
    ///   - index: where to start looking (``count`` before an action, to see only what follows it).
    ///   - timeout: how long to wait for a match that has not happened yet.
    ///   - matches: the predicate; called under the collector's lock, so keep it cheap.
    /// - Returns: the matching event, or nil when none came in time (or the task was cancelled).
    public func firstEvent(from index: Int = 0, within timeout: Duration,
                           where matches: @escaping @Sendable (HostEvent) -> Bool) async -> HostEvent? {
        let id = state.withLock { $0.waiters.makeID() }
        return await TimedWaiters<HostEvent, @Sendable (HostEvent) -> Bool>.wait(id: id, within: timeout, begin: { continuation in
            let found = state.withLock { state -> HostEvent?? in
                let start = min(max(index, 0), state.events.count)
                if let event = state.events[start...].first(where: matches) { return .some(event) }
                return state.waiters.add(id, condition: matches, continuation: continuation) ? .none : .some(nil)
            }
            if let found { continuation.resume(returning: found) }
        }, abandon: { [self] id in
            state.withLock { $0.waiters.abandon(id) }?.resume(returning: nil)
        })
    }
}
