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
        while clock.sleeperCount == 0 { await Task.yield() }
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
        while clock.sleeperCount == 0 { await Task.yield() }
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
}
