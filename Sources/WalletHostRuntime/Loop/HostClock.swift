import Synchronization

/// The time the host's loop, deadlines and timers read.
///
/// The product uses ``SystemHostClock`` (the monotonic clock). Tests use ``TestClock`` and move it
/// forward with ``TestClock/advance(by:)``, so a 30 s idle timeout is tested without waiting 30 s.
/// Code in the core never reads `ContinuousClock.now` itself: it asks the clock it was given.
public protocol HostClock: Sendable {
    /// The current instant on this clock.
    func now() -> ContinuousClock.Instant

    /// Suspends the caller until `deadline` on this clock has passed.
    /// - Parameter deadline: the instant to wait for.
    /// - Throws: `CancellationError` when the waiting task is cancelled first.
    func sleep(until deadline: ContinuousClock.Instant) async throws

    /// Registers `observer`, called (on the thread that moved the clock) each time this clock
    /// jumps forward by more than real time. The system clock never jumps; a loop that computes
    /// its wait from the clock re-reads it when told.
    /// - Parameter observer: what to call after each jump.
    func onJump(_ observer: @escaping @Sendable () -> Void)
}

/// The system's monotonic clock: the clock of the product.
public struct SystemHostClock: HostClock {
    /// Makes the system clock.
    public init() {}

    public func now() -> ContinuousClock.Instant { ContinuousClock.now }

    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await Task.sleep(until: deadline, clock: .continuous)
    }

    public func onJump(_ observer: @escaping @Sendable () -> Void) {}
}

/// A clock that moves only when a test moves it.
///
/// It starts at the real instant it was made and stays there until ``advance(by:)``. Sleepers
/// whose deadline the advance passes resume before `advance` returns (their tasks run after),
/// and each ``HostClock/onJump(_:)`` observer is called.
public final class TestClock: HostClock {
    private struct Sleeper {
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: ContinuousClock.Instant
        var sleepers: [Int: Sleeper] = [:]
        var nextSleeper = 0
        var observers: [@Sendable () -> Void] = []
        /// Tasks waiting for as many sleepers as their condition says.
        var sleeperWaiters = TimedWaiters<Int, Int>()
    }

    private let state: Mutex<State>

    /// Makes a test clock that reads the current real instant until it is advanced.
    public init() { state = Mutex(State(now: ContinuousClock.now)) }

    public func now() -> ContinuousClock.Instant { state.withLock { $0.now } }

    /// How many callers are suspended in ``sleep(until:)`` (a test waits for a timer to be armed).
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        let key = state.withLock { state -> Int in
            state.nextSleeper += 1
            return state.nextSleeper
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, waiters) = state.withLock { state -> (Bool, [TimedWaiters<Int, Int>.Continuation]) in
                    if Task.isCancelled || deadline <= state.now { return (true, []) }
                    state.sleepers[key] = Sleeper(deadline: deadline, continuation: continuation)
                    let count = state.sleepers.count
                    return (false, state.sleeperWaiters.take { count >= $0 })
                }
                if resumeNow { continuation.resume() }
                let count = sleeperCount
                for waiter in waiters { waiter.resume(returning: count) }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: key) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
        try Task.checkCancellation()
    }

    public func onJump(_ observer: @escaping @Sendable () -> Void) {
        state.withLock { $0.observers.append(observer) }
    }

    /// Waits until at least `count` callers sleep on this clock (a timer the code under test
    /// arms with ``sleep(until:)``), woken by the sleep itself rather than by polling.
    /// - Parameters:
    ///   - count: how many sleepers to wait for.
    ///   - timeout: how long to wait, in real time.
    /// - Returns: whether they came within the timeout.
    public func waitForSleepers(_ count: Int, within timeout: Duration = .seconds(5)) async -> Bool {
        let id = state.withLock { $0.sleeperWaiters.makeID() }
        let reached = await TimedWaiters<Int, Int>.wait(id: id, within: timeout, begin: { continuation in
            let now = state.withLock { state -> Int? in
                if state.sleepers.count >= count { return state.sleepers.count }
                return state.sleeperWaiters.add(id, condition: count, continuation: continuation) ? nil : -1
            }
            if let now { continuation.resume(returning: now >= 0 ? now : nil) }
        }, abandon: { [self] id in
            state.withLock { $0.sleeperWaiters.abandon(id) }?.resume(returning: nil)
        })
        return reached != nil
    }

    /// Moves the clock forward, resumes every sleeper whose deadline is now past, and tells the
    /// observers.
    /// - Parameter duration: how far to move; must not be negative.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "a test clock only moves forward")
        let (due, observers) = state.withLock { state -> ([Sleeper], [@Sendable () -> Void]) in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let dueKeys = state.sleepers.filter { $0.value.deadline <= now }.map(\.key)
            let due = dueKeys.compactMap { state.sleepers.removeValue(forKey: $0) }
            return (due.sorted { $0.deadline < $1.deadline }, state.observers)
        }
        for sleeper in due { sleeper.continuation.resume() }
        for observer in observers { observer() }
    }
}
