import Testing
@testable import WalletHostRuntime

/// The one bounded retry behind reaping a killed process and emptying or removing its control
/// groups (``KernelWait``): the first value an attempt gives, or nil once the bound has passed.
@Suite struct KernelWaitTests {
    @Test func returnsTheFirstValueAnAttemptGives() {
        var attempts = 0
        let value = KernelWait.poll(within: .seconds(5), pause: .microseconds(10)) { () -> Int? in
            attempts += 1
            return attempts == 3 ? 42 : nil
        }
        #expect(value == 42)
        #expect(attempts == 3)
    }

    @Test func aZeroBoundTriesOnce() {
        var attempts = 0
        let value = KernelWait.poll(within: .zero) { () -> Int? in
            attempts += 1
            return nil
        }
        #expect(value == nil)
        #expect(attempts == 1)
    }

    @Test func givesUpOnceTheBoundHasPassed() {
        let started = ContinuousClock.now
        let value = KernelWait.poll(within: .milliseconds(20)) { () -> Int? in nil }
        #expect(value == nil)
        #expect(ContinuousClock.now - started >= .milliseconds(20))
    }
}
