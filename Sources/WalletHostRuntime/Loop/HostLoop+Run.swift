import CWalletPoll
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension HostLoop {
    /// The loop's thread: wait, handle the ready descriptors, tell the observers, run the due
    /// timers and the posted work; again until ``shutdown()``.
    func run() {
        thread.store(UInt(pthread_self()), ordering: .relaxed)
        let capacity = 256
        var tokens = [UInt64](repeating: 0, count: capacity)
        var events = [UInt32](repeating: 0, count: capacity)
        var ready: [(token: UInt64, events: Events)] = []
        var reportedWaitFailure = false
        while let timeout = prepareToSleep() {
            let count = wh_loop_wait(poll, &tokens, &events, Int32(capacity), timeout)
            let failure = count < 0 ? errno : 0
            let observers = state.withLock { state -> [@Sendable () -> Void] in
                state.sleeping = false
                state.wakeSignalled = false
                for index in 0..<max(0, Int(count)) {
                    if tokens[index] == 0 {
                        wh_poll_wakeup_drain(wakeup)
                    } else {
                        ready.append((tokens[index], Events(rawValue: events[index])))
                    }
                }
                return ready.isEmpty ? [] : state.wakeupObservers
            }
            if failure != 0 && failure != EINTR {
                reportWaitFailure(failure, reported: &reportedWaitFailure)
            }
            if !ready.isEmpty {
                wakeups.add(1, ordering: .relaxed)
                // Looked up one by one: a handler may unregister a descriptor whose readiness
                // came in the same wake-up (its number may even be reused by then).
                for (token, readiness) in ready {
                    state.withLock { $0.registrations[token]?.handler }?(readiness)
                }
                ready.removeAll(keepingCapacity: true)
                for observer in observers { observer() }
            }
            runDueTimers()
            runPendingWork()
        }
        SystemCall.close(poll)
        SystemCall.close(wakeup)
        let waiters = finished.withLock { waiters in
            defer { waiters = nil }
            return waiters ?? []
        }
        for waiter in waiters { waiter.resume() }
    }

    /// The next wait's timeout in nanoseconds (-1: until something happens, 0: none), marking
    /// the loop asleep; nil once the loop was shut down.
    private func prepareToSleep() -> Int64? {
        let now = clock.now()
        return state.withLock { state -> Int64? in
            guard state.running else { return nil }
            if let until = state.pollingUntil, until > now { return 0 }
            state.pollingUntil = nil
            if !state.pending.isEmpty { return 0 }
            let earliest = state.timers.earliestDeadline()
            if let earliest, earliest <= now { return 0 }
            state.sleeping = true
            state.sleepingUntil = earliest
            return earliest.map { Self.nanoseconds(from: now, to: $0) } ?? -1
        }
    }

    /// Whether the loop sleeps until a timer's deadline to the nanosecond (epoll_pwait2); without
    /// it a timer fires up to a millisecond late (epoll_wait's timeout is whole milliseconds).
    public static var hasPreciseTimers: Bool { wh_loop_precise_wait() != 0 }

    static func nanoseconds(from now: ContinuousClock.Instant, to deadline: ContinuousClock.Instant) -> Int64 {
        let left = deadline - now
        guard left > .zero else { return 0 }
        let (seconds, attoseconds) = left.components
        guard seconds < 3_600 else { return 3_600_000_000_000 }
        return max(1, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }

    /// Runs each timer whose deadline has passed, earliest first, taken out one at a time (a
    /// timer may cancel a later one).
    private func runDueTimers() {
        let now = clock.now()
        while let work = state.withLock({ $0.timers.popDue(now: now) }) { work() }
    }

    /// Runs the work posted before this point, oldest first (work it posts runs next wake-up,
    /// which comes at once).
    private func runPendingWork() {
        let work = state.withLock { state -> [@Sendable () -> Void] in
            defer { state.pending.removeAll(keepingCapacity: true) }
            return state.pending
        }
        for item in work { item() }
    }

    /// epoll_wait failing for good (its set closed by a stray `close`) stalls everything the
    /// host watches: said once on stderr, then retried every millisecond.
    private func reportWaitFailure(_ code: Int32, reported: inout Bool) {
        if !reported {
            reported = true
            FileHandle.standardError.write(Data(
                "wallet-host: the host loop cannot wait on its epoll set: \(String(cString: strerror(code))) (errno \(code)); its I/O stalls\n".utf8))
        }
        usleep(1000)
    }
}
