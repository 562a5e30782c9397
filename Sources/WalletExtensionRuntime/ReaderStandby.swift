import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Lets the reader run a call on its own thread without a hand-off, and still never be held
/// up by a handler for long.
///
/// Handing the reader role to a parked worker before each call (the leader/follower pool) cost
/// a thread wake-up and a sleep per call: a third of a warm `status` round trip. A call that
/// returns at once (a completion handler called synchronously, or an async handler whose task
/// was started) needs no hand-off. So the reader lends itself to the call, and a standby thread
/// takes the reader role over if the call is still running after one to two grace periods, or
/// at once when the call is about to wait for a host service on that thread (only the reader
/// can deliver the answer). See ``ReaderStandbyState`` for the rules.
package final class ReaderStandby: Sendable {
    /// How long a lent call may run before the standby takes the reader role over: one to two
    /// of these. A blocked handler delays `$/cancelRequest`, `exit` and concurrent calls by
    /// that much, once: while a taken-over call runs, calls are handed off before they start.
    package static let grace: DispatchTimeInterval = .milliseconds(graceMilliseconds)
    private static let graceMilliseconds = 1
    /// A standby that watched no call for about this long (in graces) ends, so that an idle
    /// extension has no thread waking up.
    package static let idleTicksBeforeRetiring = 100
    /// A standby that watched no call for this many graces sleeps until the next call is lent
    /// (which wakes it) instead of ticking: ticking for nothing between a discovery's status
    /// calls cost 100 ticks per call, which on two cores slowed the discovery of 100 issuers.
    package static let ticksBeforeResting = 3

    private let state = Mutex(ReaderStandbyState(idleTicksBeforeRetiring: ReaderStandby.idleTicksBeforeRetiring,
                                                 ticksBeforeResting: ReaderStandby.ticksBeforeResting))
    private let wake = DispatchSemaphore(value: 0)

    /// A call the reader runs on its own thread; pass it back to ``callReturned(_:)``.
    package struct Loan {
        fileprivate let generation: UInt64
    }

    /// Lends the calling reader thread to a call, starting a standby when none is watching.
    /// - Parameter startStandby: Starts a thread that runs ``watch()``; false when no thread
    ///   could be started.
    /// - Returns: The loan, or nil when the call must be handed off first (a taken-over call is
    ///   still running, or no standby thread could be started).
    package func lend(startingStandbyWith startStandby: () -> Bool) -> Loan? {
        let thread = Self.currentThread
        let generation: UInt64
        let needsStandby: Bool
        switch state.withLock({ $0.lend(thread: thread) }) {
        case .handOff:
            return nil
        case .lentWakingStandby(let lent):
            wake.signal()
            return Loan(generation: lent)
        case .lent(let lent, let start):
            (generation, needsStandby) = (lent, start)
        }
        if needsStandby, !startStandby() {
            state.withLock { $0.standbyDidNotStart(generation: generation) }
            return nil
        }
        return Loan(generation: generation)
    }

    /// The lent call returned.
    /// - Returns: Whether this thread is still the reader; if the standby took over, whether
    ///   this thread is to stand by in its place (then it runs ``watch()``).
    package func callReturned(_ loan: Loan) -> ReaderStandbyState.Return {
        state.withLock { $0.callReturned(generation: loan.generation) }
    }

    /// The calling thread is about to wait for the host: if it is running a lent call, the
    /// standby takes the reader role over now, so that the answer can be read.
    package func threadWillBlock() {
        let thread = Self.currentThread
        if state.withLock({ $0.threadWillBlock(thread) }) {
            wake.signal()
        }
    }

    /// The standby's loop, on a thread of its own.
    /// - Returns: true when the thread has taken the reader role over; false when it retires.
    package func watch() -> Bool {
        var tick = ReaderStandbyState.Tick.keepWatching
        while true {
            if tick == .rest {
                // Until a loan wakes it, or for the rest of the time before retiring.
                let rest = DispatchTimeInterval.milliseconds((Self.idleTicksBeforeRetiring - Self.ticksBeforeResting) * Self.graceMilliseconds)
                if wake.wait(timeout: .now() + rest) == .timedOut,
                   state.withLock({ $0.restEnded() }) == .retire {
                    return false
                }
                tick = .keepWatching
                continue
            }
            _ = wake.wait(timeout: .now() + Self.grace)
            tick = state.withLock { $0.tick() }
            switch tick {
            case .keepWatching, .rest: continue
            case .takeOver: return true
            case .retire: return false
            }
        }
    }

    private static var currentThread: UInt {
        #if canImport(Glibc)
        UInt(pthread_self())
        #else
        UInt(bitPattern: pthread_self())
        #endif
    }
}
