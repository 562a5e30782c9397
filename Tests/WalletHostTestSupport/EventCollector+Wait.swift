import Testing
import WalletHostRuntime

extension EventCollector {
    /// Waits for the first event that `matches` (one recorded already counts), woken by the
    /// event itself rather than by polling; after `timeout`, records an issue naming `what` at
    /// the caller's line.
    /// - Returns: the event, or nil after the timeout.
    @discardableResult
    public func waitForEvent(_ what: String, timeout: Duration = .seconds(5), sourceLocation: SourceLocation = #_sourceLocation,
                             where matches: @escaping @Sendable (HostEvent) -> Bool) async -> HostEvent? {
        let event = await firstEvent(within: timeout, where: matches)
        if event == nil { Issue.record("\(what) not seen within \(timeout)", sourceLocation: sourceLocation) }
        return event
    }

    /// Waits until `count` events that match have been recorded (those recorded already count),
    /// woken by each as it comes rather than by polling; after `timeout`, records an issue
    /// naming `what` at the caller's line.
    /// - Returns: whether they all came in time.
    @discardableResult
    public func waitForEvents(_ what: String, count: Int, timeout: Duration = .seconds(5),
                              sourceLocation: SourceLocation = #_sourceLocation,
                              where matches: @escaping @Sendable (HostEvent) -> Bool) async -> Bool {
        let giveUp = ContinuousClock.now + timeout
        while true {
            let seen = events
            let matched = seen.lazy.filter(matches).count
            if matched >= count { return true }
            let left = giveUp - ContinuousClock.now
            // Only events recorded after those counted wake the wait: none is counted twice or missed.
            guard left > .zero, await firstEvent(from: seen.count, within: left, where: matches) != nil else {
                Issue.record("\(what): \(matched) of \(count) within \(timeout)", sourceLocation: sourceLocation)
                return false
            }
        }
    }
}
