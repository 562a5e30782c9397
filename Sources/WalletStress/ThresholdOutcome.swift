import Foundation

/// A threshold judged against one report.
public struct ThresholdOutcome: Sendable, Codable {
    public var threshold: StressThreshold
    public var measured: Double?
    public var violated: Bool

    public init(threshold: StressThreshold, report: StressReport) {
        self.threshold = threshold
        measured = threshold.measure(report)
        violated = threshold.isViolated(by: report)
    }

    private enum CodingKeys: String, CodingKey {
        case expression, measured, violated
    }

    /// `{"expression": "status.p99>80ms", "measured": 38.2, "violated": false}`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(threshold.expression, forKey: .expression)
        try container.encode(measured, forKey: .measured)
        try container.encode(violated, forKey: .violated)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        threshold = try StressThreshold(try container.decode(String.self, forKey: .expression))
        measured = try container.decodeIfPresent(Double.self, forKey: .measured)
        violated = try container.decode(Bool.self, forKey: .violated)
    }
}
