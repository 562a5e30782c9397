/// The result of one conformance check against one extension: what was checked, whether it
/// passed, and the evidence a person needs to believe it (a sentence with the numbers).
///
///     status-cold-deadline  passed  status answered in 34.2 ms cold (launch and handshake 28.1 ms, call 6.1 ms; limit 100 ms)
public struct ConformanceCheck: Sendable, Hashable, Codable {
    /// How a check ended.
    public enum Status: String, Sendable, Hashable, Codable {
        /// The extension meets the rule.
        case passed
        /// The extension breaks the rule; the evidence says how.
        case failed
        /// The rule could not be tried (nothing to try it on, or an earlier check made it
        /// meaningless); the evidence says why. A skip does not fail a run.
        case skipped
    }

    /// A stable identifier for scripts and CI, such as `status-cold-deadline`.
    public var id: String
    /// What the check proves, for people: "status answers within 100 ms on a cold start".
    public var title: String
    public var status: Status
    /// One or two sentences with the measured numbers and, on failure, what went wrong.
    public var evidence: String
    /// How long the check took, in milliseconds.
    public var durationMilliseconds: Double

    /// Creates a check result.
    /// - Parameters:
    ///   - id: The stable identifier.
    ///   - title: What the check proves.
    ///   - status: Passed, failed or skipped.
    ///   - evidence: The sentence with the numbers.
    ///   - durationMilliseconds: How long the check took.
    public init(id: String, title: String, status: Status, evidence: String, durationMilliseconds: Double) {
        self.id = id
        self.title = title
        self.status = status
        self.evidence = evidence
        self.durationMilliseconds = durationMilliseconds
    }

    enum CodingKeys: String, CodingKey {
        case id, title, status, evidence
        case durationMilliseconds = "durationMs"
    }
}

/// What a check concluded, before the engine adds its identity and duration.
public enum ConformanceVerdict: Sendable, Hashable {
    case passed(String)
    case failed(String)
    case skipped(String)

    /// The status of a check that ends with this verdict.
    public var status: ConformanceCheck.Status {
        switch self {
        case .passed: return .passed
        case .failed: return .failed
        case .skipped: return .skipped
        }
    }

    /// The evidence sentence.
    public var evidence: String {
        switch self {
        case .passed(let evidence), .failed(let evidence), .skipped(let evidence): return evidence
        }
    }
}
