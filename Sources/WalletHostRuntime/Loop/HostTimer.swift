/// A one-shot timer on a ``HostClock``, held by its owner and cancelled by it: the owner keeps
/// the timer in its state, so a stop or a newer timer cancels it (nothing is left sleeping
/// unowned). On a ``TestClock`` it fires when the test advances the clock past its deadline.
public final class HostTimer: Sendable {
    private let task: Task<Void, Never>

    fileprivate init(task: Task<Void, Never>) {
        self.task = task
    }

    /// Stops the timer; its action does not run if it has not started.
    public func cancel() {
        task.cancel()
    }
}

extension HostClock {
    /// Runs `action` once this clock reaches `deadline`, unless the returned timer is cancelled first.
    /// - Parameters:
    ///   - deadline: the instant on this clock.
    ///   - action: what to run then (off the caller's thread).
    /// - Returns: the timer, for its owner to keep and cancel.
    public func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () async -> Void) -> HostTimer {
        HostTimer(task: Task {
            do {
                try await sleep(until: deadline)
            } catch {
                return
            }
            await action()
        })
    }
}
