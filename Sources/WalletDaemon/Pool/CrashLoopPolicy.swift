/// When a kept-warm extension that crashed is launched again: soon at first, then with a
/// doubling delay, and not at all after ``maximumCrashes`` crashes within ``window`` (it is
/// crash-looping, and stays stopped until the next reload), as VS Code treats its extension host.
///
/// Pure state: the caller passes the clock.
public struct CrashLoopPolicy: Sendable, Equatable {
    /// What to do after a crash.
    public enum Decision: Sendable, Equatable {
        /// Launch it again after this long.
        case relaunch(after: Duration)
        /// Leave it stopped: it crashed too often.
        case crashLooping
    }

    public var maximumCrashes = 3
    public var window: Duration = .seconds(300)
    public var firstDelay: Duration = .milliseconds(100)
    public var longestDelay: Duration = .seconds(10)
    /// When the recent crashes happened, oldest first.
    public private(set) var crashes: [ContinuousClock.Instant] = []

    public init() {}

    /// Notes a crash at `now` and says what to do.
    public mutating func recordCrash(at now: ContinuousClock.Instant) -> Decision {
        crashes.removeAll { now - $0 > window }
        crashes.append(now)
        if crashes.count >= maximumCrashes { return .crashLooping }
        var delay = firstDelay
        for _ in 1..<crashes.count { delay = min(delay * 2, longestDelay) }
        return .relaunch(after: delay)
    }

    /// Whether the last decision was ``Decision/crashLooping``.
    public func isCrashLooping(at now: ContinuousClock.Instant) -> Bool {
        crashes.filter { now - $0 <= window }.count >= maximumCrashes
    }

    /// Forgets every crash (a reload gives the extension a fresh start).
    public mutating func reset() {
        crashes.removeAll()
    }
}
