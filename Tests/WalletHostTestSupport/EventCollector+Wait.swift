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
}
