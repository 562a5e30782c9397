import WalletWire

/// What a stress run does: which methods, how many calls (or for how long), how many callers at
/// once, how often a call gets a fresh process, and which faults and throttling to add.
public struct StressPlan: Sendable {
    /// The methods called, in rotation: call `i` calls `methods[i % methods.count]`.
    public var methods: [String] = [WireMethod.status]
    /// How many calls in all; ignored when ``duration`` is set.
    public var calls = 1_000
    /// Keep calling for this long instead of a fixed count.
    public var duration: Duration?
    /// Callers issuing calls at once.
    public var concurrency = 1
    /// Every K-th call runs on a fresh process (launch included in its latency); 0 for never.
    public var coldEvery = 0
    /// The share of one core the extension's process group gets (1...100), nil for all it wants.
    public var cpuSharePercent: Double?
    /// The period of the stop/continue duty cycle that enforces ``cpuSharePercent``.
    public var cpuSharePeriod: Duration = .milliseconds(20)
    /// Faults to inject during calls.
    public var chaos: Set<ChaosFault> = []
    /// The probability that a call gets a fault (0...1).
    public var chaosRate = 0.05
    /// Seeds the choice of faults and their timing, so a run can be replayed.
    public var seed: UInt64 = 1

    public init() {}

    /// The method of call `index`.
    public func method(ofCall index: Int) -> String {
        methods[index % methods.count]
    }

    /// Whether call `index` runs on a fresh process.
    public func isCold(_ index: Int) -> Bool {
        coldEvery > 0 && (index + 1) % coldEvery == 0
    }

    /// The methods a stress run knows how to call with valid params (as in the add-card flow).
    public static let supportedMethods = [WireMethod.status, WireMethod.passEntries, WireMethod.remotePassEntries,
                                          WireMethod.generateAddPaymentPassRequest]
}

/// A fault injected into an extension during a call.
public enum ChaosFault: String, Sendable, CaseIterable, Codable, Comparable {
    /// `SIGKILL` to the process.
    case kill
    /// `SIGSTOP`, held past the call's deadline, then `SIGCONT`.
    case stop
    /// The process's fd 4 (its answers to the host) closed, as if it had closed it itself.
    case closeFd4 = "close-fd4"

    public static func < (lhs: ChaosFault, rhs: ChaosFault) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
