import Foundation
import Synchronization

/// Keeps events in memory (for transcripts, reports and tests), forwards them to another sink,
/// and lets a task wait for the next event that matches a predicate instead of polling.
public final class EventCollector: HostEventSink {
    private struct Waiter {
        var id: UInt64
        var matches: @Sendable (HostEvent) -> Bool
        var continuation: CheckedContinuation<HostEvent?, Never>
    }

    private struct State {
        var events: [HostEvent] = []
        var output: [String] = []
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        /// Waiters whose time ran out (or whose task was cancelled) before they began to wait.
        var abandoned: Set<UInt64> = []
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
    public var outputLines: [String] { output }
    private var output: [String] { state.withLock { $0.output } }

    /// Events of `kind`, oldest first.
    public func events(_ kind: HostEvent.Kind) -> [HostEvent] {
        state.withLock { $0.events.filter { $0.kind == kind } }
    }

    public func record(_ event: HostEvent) {
        let resumed = state.withLock { state -> [(CheckedContinuation<HostEvent?, Never>, HostEvent)] in
            state.events.append(event)
            var resumed: [(CheckedContinuation<HostEvent?, Never>, HostEvent)] = []
            state.waiters.removeAll { waiter in
                guard waiter.matches(event) else { return false }
                resumed.append((waiter.continuation, event))
                return true
            }
            return resumed
        }
        for (continuation, event) in resumed { continuation.resume(returning: event) }
        next?.record(event)
    }

    public func recordOutput(bundleIdentifier: String, pid: Int32, stream: String, line: String) {
        state.withLock { $0.output.append("\(stream): \(line)") }
        next?.recordOutput(bundleIdentifier: bundleIdentifier, pid: pid, stream: stream, line: line)
    }

    /// The first event at position `index` or later that matches, waiting for it up to `timeout`.
    /// - Parameters:
    ///   - index: where to start looking (``count`` before an action, to see only what follows it).
    ///   - timeout: how long to wait for a match that has not happened yet.
    ///   - matches: the predicate; called under the collector's lock, so keep it cheap.
    /// - Returns: the matching event, or nil when none came in time (or the task was cancelled).
    public func firstEvent(from index: Int = 0, within timeout: Duration,
                           where matches: @escaping @Sendable (HostEvent) -> Bool) async -> HostEvent? {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            self.abandonWaiter(id)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let found = state.withLock { state -> HostEvent?? in
                    let start = min(max(index, 0), state.events.count)
                    if let event = state.events[start...].first(where: matches) { return .some(event) }
                    if state.abandoned.remove(id) != nil { return .some(nil) }
                    state.waiters.append(Waiter(id: id, matches: matches, continuation: continuation))
                    return .none
                }
                if let found { continuation.resume(returning: found) }
            }
        } onCancel: {
            abandonWaiter(id)
        }
    }

    /// Resumes the waiter `id` with nil, if it is still waiting.
    private func abandonWaiter(_ id: UInt64) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
                state.abandoned.insert(id)
                return nil
            }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: nil)
    }
}
