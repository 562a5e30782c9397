import Testing
@testable import WalletDaemon

@Suite struct CrashLoopPolicyTests {
    @Test func backsOffThenMarksTheThirdCrashInFiveMinutesCrashLooping() {
        var policy = CrashLoopPolicy()
        let start = ContinuousClock.now
        #expect(policy.recordCrash(at: start) == .relaunch(after: .milliseconds(100)))
        #expect(policy.recordCrash(at: start + .seconds(1)) == .relaunch(after: .milliseconds(200)))
        #expect(policy.recordCrash(at: start + .seconds(2)) == .crashLooping)
        #expect(policy.isCrashLooping(at: start + .seconds(3)))
    }

    @Test func crashesOlderThanTheWindowAreForgotten() {
        var policy = CrashLoopPolicy()
        let start = ContinuousClock.now
        _ = policy.recordCrash(at: start)
        _ = policy.recordCrash(at: start + .seconds(10))
        // The first crash is more than 5 minutes old by the third: two in the window.
        #expect(policy.recordCrash(at: start + .seconds(301)) == .relaunch(after: .milliseconds(200)))
        #expect(!policy.isCrashLooping(at: start + .seconds(301)))
    }

    @Test func aResetGivesAFreshStart() {
        var policy = CrashLoopPolicy()
        let start = ContinuousClock.now
        for offset in 0..<3 { _ = policy.recordCrash(at: start + .seconds(offset)) }
        policy.reset()
        #expect(policy.recordCrash(at: start + .seconds(4)) == .relaunch(after: .milliseconds(100)))
    }
}
