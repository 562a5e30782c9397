import Testing

/// Polls `condition` every 10 ms until it holds; after `timeout`, records an issue naming
/// `what` at the caller's line and returns.
/// - Throws: `CancellationError` when the test is cancelled while waiting, and whatever
///   `condition` throws.
public func waitFor(_ what: String = "condition", timeout: Duration = .seconds(5),
                    sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool) async throws {
    let giveUp = ContinuousClock.now + timeout
    while !(try await condition()) {
        guard ContinuousClock.now < giveUp else {
            Issue.record("\(what) not met within \(timeout)", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
