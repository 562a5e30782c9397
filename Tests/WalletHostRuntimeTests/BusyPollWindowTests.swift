import Testing
@testable import WalletHostRuntime

/// The busy-poll window (`serve --busy-poll`) ends on the loop's clock: the loop polls without
/// sleeping until its clock passes the window's end, then sleeps, so an idle daemon costs
/// nothing once the calls stop. (That it polls between back-to-back calls only a daemon shows:
/// `BusyPollTests`.)
@Suite(.timeLimit(.minutes(1)))
struct BusyPollWindowTests {
    @Test("the loop polls until its clock passes the busy-poll window, then sleeps")
    func pollingEndsWhenTheClockPassesTheWindow() async throws {
        let clock = TestClock()
        let loop = try HostLoop(clock: clock, threadName: "wh-poll-test")
        await Self.untilSleeping(loop)
        let start = clock.now()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            loop.execute {
                // An hour (a daemon's window is 100 ms at most): a loop that read the real
                // time would poll past the suite's time limit.
                loop.keepPolling(until: start + .seconds(3_600))
                done.resume()
            }
        }
        #expect(Self.neverSleeps(loop), "the loop slept inside the window")
        clock.advance(by: .seconds(3_600) - .milliseconds(1))
        #expect(Self.neverSleeps(loop), "the loop slept 1 ms before the window's end")
        clock.advance(by: .milliseconds(1))
        await Self.untilSleeping(loop)
        await loop.shutdown()
    }

    /// Returns once the loop sleeps (the suite's time limit fails a loop that never does).
    static func untilSleeping(_ loop: HostLoop) async {
        while !loop.state.withLock({ $0.sleeping }) { await Task.yield() }
    }

    /// Whether the loop stayed awake over 10,000 looks at it (a polling loop never sleeps; an
    /// idle one sleeps between almost all of them).
    static func neverSleeps(_ loop: HostLoop) -> Bool {
        (0..<10_000).allSatisfy { _ in !loop.state.withLock { $0.sleeping } }
    }
}
