/// When the reader role passes from a thread running a call to the standby: the bookkeeping of
/// ``ReaderStandby``, without threads or clocks, so that it is tested on its own.
///
/// The reader runs a call on its own thread by *lending* itself to the call. While a loan is
/// out a standby thread watches it, waking every grace period (a *tick*). A loan seen on two
/// ticks in a row (the call has run for one to two grace periods), or one whose thread is about
/// to block on the host, is taken over: the standby becomes the reader and the lending thread,
/// once its call returns, stops reading and stands by in its place if no other thread has
/// started to (it is awake already). While a taken-over call still runs, handlers evidently
/// block, so calls are handed off before they start (the leader/follower hand-off) instead of
/// being lent.
package struct ReaderStandbyState {
    /// What ``lend(thread:)`` decided for a call.
    package enum Lending: Equatable {
        /// Run the call on this thread. `startStandby`: no standby is watching; start one.
        case lent(generation: UInt64, startStandby: Bool)
        /// Run the call on this thread, and wake the standby: it rests (``Tick/rest``).
        case lentWakingStandby(generation: UInt64)
        /// Hand the reader role to another thread first.
        case handOff
    }

    /// What the thread of a lent call does once the call returns.
    package enum Return: Equatable {
        /// Go on reading: the loan was not taken over.
        case stillReader
        /// The standby took the reader role over and no thread stands by now: stand by.
        case standBy
        /// The standby took the reader role over and another thread stands by.
        case done
    }

    /// What a standby does after a tick.
    package enum Tick: Equatable {
        /// Wait another grace period.
        case keepWatching
        /// Become the reader: the loan outlasted the grace or its thread is about to block.
        case takeOver
        /// Nothing was lent for ``idleTicksBeforeRetiring`` ticks: stop watching.
        case retire
        /// Nothing was lent for ``ticksBeforeResting`` ticks: sleep until a call is lent (it
        /// wakes the standby) or until the retirement is due (then ``restEnded()``), instead of
        /// ticking for nothing.
        case rest
    }

    private struct Loan {
        var generation: UInt64
        /// The thread running the call, to recognise it when it is about to block.
        var thread: UInt
        var seenByStandby = false
        var threadWillBlock = false
    }

    /// How many empty ticks a standby waits for the next loan before it retires.
    package let idleTicksBeforeRetiring: Int
    /// How many empty ticks before the standby rests instead of ticking (``Tick/rest``).
    package let ticksBeforeResting: Int
    /// The standby rests: the next loan wakes it.
    private var resting = false
    private var lastGeneration: UInt64 = 0
    private var loan: Loan?
    /// Empty ticks in a row, while a standby is watching; nil when none is.
    private var standbyIdleTicks: Int?
    private var takenOverCallsRunning = 0

    /// - Parameter ticksBeforeResting: by default the standby ticks until it retires.
    package init(idleTicksBeforeRetiring: Int, ticksBeforeResting: Int = .max) {
        self.idleTicksBeforeRetiring = idleTicksBeforeRetiring
        self.ticksBeforeResting = ticksBeforeResting
    }

    /// True while a standby is watching (or has been asked to start).
    package var hasStandby: Bool { standbyIdleTicks != nil }

    /// The reader on `thread` is about to run a call.
    package mutating func lend(thread: UInt) -> Lending {
        precondition(loan == nil, "the reader runs one call at a time")
        guard takenOverCallsRunning == 0 else { return .handOff }
        lastGeneration += 1
        loan = Loan(generation: lastGeneration, thread: thread)
        let startStandby = standbyIdleTicks == nil
        standbyIdleTicks = 0
        if resting {
            resting = false
            return .lentWakingStandby(generation: lastGeneration)
        }
        return .lent(generation: lastGeneration, startStandby: startStandby)
    }

    /// The standby could not be started: the loan is called off and the call handed off.
    package mutating func standbyDidNotStart(generation: UInt64) {
        guard loan?.generation == generation else { return }
        loan = nil
        standbyIdleTicks = nil
    }

    /// The lent call returned: the thread is still the reader, or (the standby took the role
    /// over) it stands by in the standby's place, or it is done.
    package mutating func callReturned(generation: UInt64) -> Return {
        if loan?.generation == generation {
            loan = nil
            return .stillReader
        }
        takenOverCallsRunning -= 1
        guard standbyIdleTicks == nil else { return .done }
        standbyIdleTicks = 0
        return .standBy
    }

    /// The thread `thread` is about to block waiting for the host. True when it holds a loan,
    /// which is then taken over at the standby's next tick: wake the standby.
    package mutating func threadWillBlock(_ thread: UInt) -> Bool {
        guard loan?.thread == thread else { return false }
        loan?.threadWillBlock = true
        return true
    }

    /// A resting standby's sleep ran to the retirement without a loan waking it: it retires,
    /// unless a loan came as the sleep ended (it watches that one).
    package mutating func restEnded() -> Tick {
        guard resting else { return .keepWatching }
        resting = false
        standbyIdleTicks = nil
        return .retire
    }

    /// The standby woke up: a grace period passed, or it was woken.
    package mutating func tick() -> Tick {
        guard let idleTicks = standbyIdleTicks else { return .retire }
        guard let current = loan else {
            if idleTicks + 1 >= idleTicksBeforeRetiring {
                standbyIdleTicks = nil
                return .retire
            }
            standbyIdleTicks = idleTicks + 1
            if idleTicks + 1 >= ticksBeforeResting {
                resting = true
                return .rest
            }
            return .keepWatching
        }
        guard current.seenByStandby || current.threadWillBlock else {
            loan?.seenByStandby = true
            return .keepWatching
        }
        loan = nil
        standbyIdleTicks = nil
        takenOverCallsRunning += 1
        return .takeOver
    }
}
