import Foundation

/// The idle stop: a process with no call for ``HostConfiguration/idleTimeout`` is stopped. One
/// timer per runner on the configuration's clock (a test advances a ``TestClock`` past it): a
/// call that ends only notes when, and the timer, when it fires, looks again if a call came since.
extension ExtensionRunner {
    /// Notes the end of a call (its reply, its deadline or its process's end): with no call left
    /// in flight, the idle clock restarts and whoever waits for the calls to end is told.
    func callEnded() {
        let (waiters, retirement) = state.withLock { state -> ([TimedWaiters<Bool, Void>.Continuation], String?) in
            state.callsInFlight -= 1
            guard state.callsInFlight == 0 else { return ([], nil) }
            state.lastCallEnded = clock.now()
            armIdleTimerIfNeeded(&state)
            return (state.idleWaiters.take { true }, state.retirement)
        }
        for waiter in waiters { waiter.resume(returning: true) }
        if let retirement { Task { _ = await self.stop(.requested(retirement)) } }
    }

    /// Arms the idle timer for ``State/lastCallEnded`` plus the idle timeout, unless one is
    /// armed (it looks again when it fires) or nothing runs.
    func armIdleTimerIfNeeded(_ state: inout State) {
        guard let idleTimeout = configuration.idleTimeout, state.idleTimer == nil, state.phase.launch != nil,
              state.retirement == nil else { return }
        state.idleTimer = clock.schedule(at: state.lastCallEnded + idleTimeout) { [weak self] in
            await self?.idleTimerFired()
        }
    }

    /// Stops the process if no call came for the idle timeout; otherwise arms the timer again
    /// for the last call's end (or leaves that to the call in flight, when it ends).
    private func idleTimerFired() async {
        guard let idleTimeout = configuration.idleTimeout else { return }
        let idle = state.withLock { state -> Launch? in
            state.idleTimer = nil
            guard state.callsInFlight == 0 else { return nil }
            guard clock.now() >= state.lastCallEnded + idleTimeout else {
                armIdleTimerIfNeeded(&state)
                return nil
            }
            // In the same step as the check: a call after this launches a new process.
            defer { state.phase = .idle }
            return state.phase.launch
        }
        guard let idle else { return }
        _ = await idle.connection.stop(.idle, teardown: configuration.teardown)
    }

    /// Stops the process once the calls in flight are over, and arms no idle timer meanwhile:
    /// for a runner being replaced. A caller that still holds it and calls it gets a new process.
    /// - Parameter reason: why, for the event log.
    public func retire(reason: String) {
        let stopNow = state.withLock { state -> Bool in
            state.retirement = reason
            state.idleTimer?.cancel()
            state.idleTimer = nil
            return state.callsInFlight == 0
        }
        if stopNow { Task { _ = await self.stop(.requested(reason)) } }
    }
}
