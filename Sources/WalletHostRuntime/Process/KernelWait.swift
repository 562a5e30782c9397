#if canImport(Glibc)
import Glibc
#endif

/// Waiting on the calling thread for something only the kernel finishes: a killed process
/// reaped, a control group emptied or removed. SIGKILL and `rmdir` take the kernel a few
/// milliseconds, so the attempt is repeated every millisecond up to a bound.
///
/// The bound is on the real (monotonic) clock, never the host's ``HostClock``: it bounds how
/// long a thread blocks on the kernel, which a test clock cannot make faster, and a test clock
/// that nobody advances would turn the bound into a hang.
enum KernelWait {
    /// Tries `attempt` until it returns a value, for at most `timeout` (nil: until it does).
    /// - Parameters:
    ///   - timeout: how long to keep trying after the first attempt; `.zero`: once.
    ///   - pause: the sleep between two attempts.
    ///   - attempt: one try; nil while the kernel is not done.
    /// - Returns: the first value `attempt` returned, or nil when the time ran out first.
    static func poll<Value>(within timeout: Duration?, pause: Duration = .milliseconds(1),
                            _ attempt: () -> Value?) -> Value? {
        let giveUp = timeout.map { ContinuousClock.now + $0 }
        let pauseMicroseconds = UInt32(clamping: pause.components.seconds * 1_000_000 + pause.components.attoseconds / 1_000_000_000_000)
        while true {
            if let value = attempt() { return value }
            if let giveUp, ContinuousClock.now >= giveUp { return nil }
            usleep(pauseMicroseconds)
        }
    }
}
