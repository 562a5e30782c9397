import Testing

/// Checks `condition` until it holds; after `timeout`, records an issue naming `what` at the
/// caller's line and returns.
///
/// For a state no event announces (a daemon's listing, a file, a process gone). Where an event
/// does, await it instead: `EventCollector.waitForEvent` and `waitForEvents(count:)`,
/// `EventHub.firstEvent`, `TestClock.waitForSleepers`. The checks come 1 ms apart at first and
/// back off to 10 ms: a condition that holds soon is seen soon, one that takes long costs a
/// check every 10 ms.
/// - Throws: `CancellationError` when the test is cancelled while waiting, and whatever
///   `condition` throws.
public func waitFor(_ what: String = "condition", timeout: Duration = .seconds(5),
                    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool) async throws {
    let giveUp = ContinuousClock.now + timeout
    var pause = Duration.milliseconds(1)
    while !(try await condition()) {
        guard ContinuousClock.now < giveUp else {
            Issue.record("\(what) not met within \(timeout)", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: pause)
        pause = min(pause * 2, .milliseconds(10))
    }
}
