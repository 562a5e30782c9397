import Testing
@testable import CoreGraphics
@testable import PassKit
@testable import UIKit
@testable import WalletExtensionKit
@testable import WalletExtensionRuntime

/// The reader lends its thread to calls; a standby takes the reader role over from a call that
/// runs on, or that is about to wait for the host, and retires when nothing is lent.
struct ReaderStandbyStateTests {
    static let readerThread: UInt = 7
    static let otherThread: UInt = 9

    @Test("a call that returns before the standby looks twice leaves its thread the reader")
    func aQuickCallKeepsTheReader() {
        var state = ReaderStandbyState(idleTicksBeforeRetiring: 3)
        let first = state.lend(thread: Self.readerThread)
        #expect(first == .lent(generation: 1, startStandby: true))
        let tick = state.tick()
        #expect(tick == .keepWatching, "seen once: maybe not yet a grace period old")
        let firstReturn = state.callReturned(generation: 1)
        #expect(firstReturn == .stillReader)
        let second = state.lend(thread: Self.readerThread)
        #expect(second == .lent(generation: 2, startStandby: false), "the standby is still watching")
        let secondReturn = state.callReturned(generation: 2)
        #expect(secondReturn == .stillReader)
    }

    @Test("a call seen on two ticks is taken over, calls are handed off until it returns, and its thread stands by")
    func aLongCallIsTakenOver() {
        var state = ReaderStandbyState(idleTicksBeforeRetiring: 3)
        _ = state.lend(thread: Self.readerThread)
        let firstTick = state.tick()
        let secondTick = state.tick()
        #expect(firstTick == .keepWatching)
        #expect(secondTick == .takeOver)
        #expect(!state.hasStandby, "the standby is the reader now")
        let whileBlocked = state.lend(thread: Self.otherThread)
        #expect(whileBlocked == .handOff, "a handler blocks: hand calls off before they start")
        let returned = state.callReturned(generation: 1)
        #expect(returned == .standBy, "no longer the reader, and no thread stands by: it does")
        #expect(state.hasStandby)
        let afterwards = state.lend(thread: Self.otherThread)
        #expect(afterwards == .lent(generation: 2, startStandby: false), "lend again, watched by the old reader")
    }

    @Test("a call about to wait for the host is taken over at the next tick")
    func aBlockingCallIsTakenOverAtOnce() {
        var state = ReaderStandbyState(idleTicksBeforeRetiring: 3)
        _ = state.lend(thread: Self.readerThread)
        let otherThreadHoldsLoan = state.threadWillBlock(Self.otherThread)
        #expect(!otherThreadHoldsLoan, "another call's thread holds no loan")
        let readerHoldsLoan = state.threadWillBlock(Self.readerThread)
        #expect(readerHoldsLoan)
        let tick = state.tick()
        #expect(tick == .takeOver)
        let holdsLoanStill = state.threadWillBlock(Self.readerThread)
        #expect(!holdsLoanStill, "taken over already")
        let returned = state.callReturned(generation: 1)
        #expect(returned == .standBy)
    }

    @Test("a standby with nothing to watch retires, and the next call starts another")
    func anIdleStandbyRetires() {
        var state = ReaderStandbyState(idleTicksBeforeRetiring: 3)
        _ = state.lend(thread: Self.readerThread)
        _ = state.callReturned(generation: 1)
        var ticks: [ReaderStandbyState.Tick] = []
        for _ in 0..<4 { ticks.append(state.tick()) }
        #expect(ticks == [.keepWatching, .keepWatching, .retire, .retire], "a stray tick after retiring ends it too")
        #expect(!state.hasStandby)
        let next = state.lend(thread: Self.readerThread)
        #expect(next == .lent(generation: 2, startStandby: true))
    }

    @Test("every lent call resets the idle count, so a busy standby never retires")
    func aBusyStandbyStays() {
        var state = ReaderStandbyState(idleTicksBeforeRetiring: 2)
        var lendings: [ReaderStandbyState.Lending] = []
        var ticks: [ReaderStandbyState.Tick] = []
        for generation in 1...10 {
            lendings.append(state.lend(thread: Self.readerThread))
            _ = state.callReturned(generation: UInt64(generation))
            ticks.append(state.tick())
        }
        #expect(lendings == (1...10).map { .lent(generation: UInt64($0), startStandby: $0 == 1) })
        #expect(ticks == Array(repeating: .keepWatching, count: 10))
    }

    @Test("a standby that cannot start calls the loan off")
    func aStandbyThatDidNotStart() {
        var state = ReaderStandbyState(idleTicksBeforeRetiring: 2)
        _ = state.lend(thread: Self.readerThread)
        state.standbyDidNotStart(generation: 1)
        #expect(!state.hasStandby)
        let next = state.lend(thread: Self.readerThread)
        #expect(next == .lent(generation: 2, startStandby: true))
    }

    @Test("a standby with nothing lent for a few ticks rests; the next loan wakes it and it watches that call as before")
    func anIdleStandbyRestsUntilTheNextLoan() {
        var state = ReaderStandbyState(idleTicksBeforeRetiring: 10, ticksBeforeResting: 2)
        _ = state.lend(thread: Self.readerThread)
        _ = state.callReturned(generation: 1)
        let first = state.tick()
        let second = state.tick()
        #expect(first == .keepWatching)
        #expect(second == .rest, "two empty ticks: stop ticking")
        let lent = state.lend(thread: Self.readerThread)
        #expect(lent == .lentWakingStandby(generation: 2), "the resting standby must be woken")
        let seen = state.tick()
        let again = state.tick()
        #expect(seen == .keepWatching)
        #expect(again == .takeOver, "a long call is taken over as ever")
    }

    @Test("a resting standby no loan woke retires when its rest ends; one a loan reached as it ended keeps watching")
    func aRestingStandbyRetiresUnlessALoanCame() {
        var state = ReaderStandbyState(idleTicksBeforeRetiring: 10, ticksBeforeResting: 1)
        _ = state.lend(thread: Self.readerThread)
        _ = state.callReturned(generation: 1)
        #expect(state.tick() == .rest)
        #expect(state.restEnded() == .retire)
        #expect(!state.hasStandby)
        let next = state.lend(thread: Self.readerThread)
        #expect(next == .lent(generation: 2, startStandby: true), "retired: the next call starts a standby")
        _ = state.callReturned(generation: 2)
        #expect(state.tick() == .rest)
        let woke = state.lend(thread: Self.readerThread)
        #expect(woke == .lentWakingStandby(generation: 3))
        #expect(state.restEnded() == .keepWatching, "the rest timed out as the loan came: watch it")
        #expect(state.hasStandby)
    }
}
