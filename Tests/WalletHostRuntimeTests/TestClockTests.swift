import Synchronization
import Testing
@testable import WalletHostRuntime

@Suite struct TestClockTests {
    @Test func sleeperResumesOnlyWhenTheClockPassesItsDeadline() async throws {
        let clock = TestClock()
        let woke = Atomic<Bool>(false)
        let deadline = clock.now().advanced(by: .seconds(30))
        let sleeper = Task {
            try await clock.sleep(until: deadline)
            woke.store(true, ordering: .sequentiallyConsistent)
        }
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(29))
        #expect(clock.sleeperCount == 1)
        let wokeEarly = woke.load(ordering: .sequentiallyConsistent)
        #expect(!wokeEarly)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        let wokeAfter = woke.load(ordering: .sequentiallyConsistent)
        #expect(wokeAfter)
    }

    @Test func cancelledSleeperThrowsAndLeaves() async {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(until: clock.now().advanced(by: .seconds(5))) }
        #expect(await clock.waitForSleepers(1))
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func advanceTellsJumpObservers() {
        let clock = TestClock()
        let jumps = Atomic<Int>(0)
        clock.onJump { jumps.add(1, ordering: .relaxed) }
        let start = clock.now()
        clock.advance(by: .milliseconds(100))
        let jumpCount = jumps.load(ordering: .relaxed)
        #expect(jumpCount == 1)
        #expect(clock.now() - start == .milliseconds(100))
    }

    @Test func waitingForSleepersIsWokenByTheSleepsAndGivesUpAfterItsTimeout() async {
        let clock = TestClock()
        let waiter = Task { await clock.waitForSleepers(2, within: .seconds(30)) }
        let first = Task { try await clock.sleep(until: clock.now() + .seconds(5)) }
        let second = Task { try await clock.sleep(until: clock.now() + .seconds(5)) }
        #expect(await waiter.value)
        #expect(clock.sleeperCount == 2)
        #expect(await clock.waitForSleepers(2, within: .zero), "as many sleep already")
        let threeSleep = await clock.waitForSleepers(3, within: .milliseconds(10))
        #expect(!threeSleep)
        clock.advance(by: .seconds(5))
        _ = try? await first.value
        _ = try? await second.value
    }
}
