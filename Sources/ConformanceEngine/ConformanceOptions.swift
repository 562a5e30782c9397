import Foundation
import WalletHostRuntime

/// How the conformance engine runs: the host configuration it starts from and how hard it probes.
public struct ConformanceOptions: Sendable {
    /// The host configuration every runner starts from: deadlines, memory limit, hang and
    /// stop grace, and where events go (they are also collected for the checks).
    public var configuration: HostConfiguration
    /// How many calls the `concurrent-calls` check sends at once.
    public var concurrentCalls = 8
    /// How many warm calls the warm deadline check measures (it judges their median).
    public var warmSamples = 5
    /// How many cold launches the cold deadline check may try: the first within the limit passes
    /// (a busy CI machine can slow one launch).
    public var coldAttempts = 3
    /// Methods whose deadline in the registry is at most this are timed cold and warm (against
    /// the configured deadline, which may differ).
    public var timedDeadlineThreshold: Duration = .seconds(1)
    /// The longest a check waits for one call whose deadline is longer (Wallet's 20 s), so that a
    /// hanging extension does not hold up the run.
    public var callCap: Duration = .seconds(5)
    /// The least a check gives a call that is not being timed, however short its deadline: the
    /// shape, cancellation and concurrency checks judge answers, not speed.
    public var minimumPatience: Duration = .seconds(1)

    /// Creates options starting from a host configuration.
    public init(configuration: HostConfiguration = HostConfiguration()) {
        self.configuration = configuration
    }
}
