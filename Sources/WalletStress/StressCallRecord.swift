/// One call of a stress run, as measured.
public struct StressCallRecord: Sendable, Equatable {
    /// The call's position in the run (0-based, in the order callers took them).
    public var index: Int
    public var method: String
    /// Whether the call launched its process (launch counted in its latency).
    public var cold: Bool
    /// When it was asked, from the start of the load.
    public var startedAtMilliseconds: Double
    /// From the ask to the result or error: what the deadline is measured against.
    public var latencyMilliseconds: Double
    public var deadlineMilliseconds: Double?
    /// The error's kind (``WalletHostRuntime/ExtensionCallError/Kind``) when it failed; nil when it succeeded.
    public var errorKind: String?
    /// The error's sentence.
    public var message: String?
    /// What else the host saw during the failed call (fd 4, stderr, exit, footprint).
    public var evidence: [String]
    /// The process's footprint right after the call.
    public var footprintAfterBytes: Int?
    /// The highest footprint sampled during the call.
    public var peakFootprintBytes: Int?
    public var pid: Int32?
    /// The fault injected during this call, if any.
    public var fault: ChaosFault?
    /// True when the call produced neither a result nor an error in time (a lost call).
    public var lost: Bool

    public init(index: Int, method: String, cold: Bool, startedAtMilliseconds: Double, latencyMilliseconds: Double,
                deadlineMilliseconds: Double?, errorKind: String? = nil, message: String? = nil, evidence: [String] = [],
                footprintAfterBytes: Int? = nil, peakFootprintBytes: Int? = nil, pid: Int32? = nil,
                fault: ChaosFault? = nil, lost: Bool = false) {
        self.index = index
        self.method = method
        self.cold = cold
        self.startedAtMilliseconds = startedAtMilliseconds
        self.latencyMilliseconds = latencyMilliseconds
        self.deadlineMilliseconds = deadlineMilliseconds
        self.errorKind = errorKind
        self.message = message
        self.evidence = evidence
        self.footprintAfterBytes = footprintAfterBytes
        self.peakFootprintBytes = peakFootprintBytes
        self.pid = pid
        self.fault = fault
        self.lost = lost
    }

    /// Whether it returned a result.
    public var succeeded: Bool { errorKind == nil && !lost }

    /// Whether it missed its deadline.
    public var missedDeadline: Bool {
        errorKind == "deadlineExceeded" || (deadlineMilliseconds.map { latencyMilliseconds > $0 } ?? false)
    }
}
