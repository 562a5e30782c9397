import Foundation

/// One condition of `--fail-on`, such as `status.p99>80ms`, `lost>0` or `leak>0`: the run fails
/// (exit status 1, a failed JUnit test case) when the condition holds.
///
/// Metrics: `lost`, `failed`, `misses`, `relaunches`, `hangs`, `memoryKills`, `zombies`,
/// `fdDelta`, `threadDelta`, `leak` (bytes per call), `peak` (bytes), `rate` (calls/s); per
/// method `METHOD.p50|p90|p99|max` (all calls), `METHOD.warm.p99`, `METHOD.cold.p99` (any
/// percentile), `METHOD.misses`, `METHOD.failed`, `METHOD.margin` (deadline minus p99, ms).
/// Values take units: `ms`, `s`, `KB`, `MB`, `%` (of the run's calls, for counts).
public struct StressThreshold: Sendable, Equatable, Codable {
    public enum Comparison: String, Sendable, Codable, CaseIterable {
        case greaterOrEqual = ">=", lessOrEqual = "<=", greater = ">", less = "<", equal = "=="
    }

    /// The text as given, for reports.
    public var expression: String
    public var metric: String
    public var comparison: Comparison
    /// The value in the metric's own unit (milliseconds, bytes, count; a `%` is resolved per run).
    public var value: Double
    /// Whether `value` is a percentage of the calls.
    public var percentOfCalls: Bool

    /// The tolerant default (`stress --tolerate-failures`, and runs with `--chaos`, whose faults
    /// fail calls on purpose): nothing lost and no zombie left.
    public static let defaults = ["lost>0", "zombies>0"]

    /// The default when `--fail-on` is not given: also no failed call and no missed deadline.
    public static let strictDefaults = defaults + ["failed>0", "misses>0"]

    /// Parses a comma-separated list.
    /// - Throws: ``StressError`` naming the part that does not parse.
    public static func parseList(_ text: String) throws -> [StressThreshold] {
        try text.split(separator: ",").map { try StressThreshold(String($0)) }
    }

    /// Parses `METRIC OP VALUE`.
    public init(_ text: String) throws {
        let trimmed = text.replacingOccurrences(of: " ", with: "")
        guard let comparison = Comparison.allCases.first(where: { trimmed.contains($0.rawValue) }),
              let range = trimmed.range(of: comparison.rawValue) else {
            throw StressError("--fail-on \"\(text)\" needs a comparison (>, >=, <, <=, ==), as in status.p99>80ms")
        }
        let metric = String(trimmed[..<range.lowerBound])
        let valueText = String(trimmed[range.upperBound...])
        guard Self.isKnown(metric) else {
            throw StressError("--fail-on \"\(text)\": unknown metric \"\(metric)\" (try lost, leak, status.p99, status.misses)")
        }
        guard let (value, percent) = Self.parseValue(valueText) else {
            throw StressError("--fail-on \"\(text)\": \"\(valueText)\" is not a value (80ms, 1s, 256KB, 5%, 0)")
        }
        expression = trimmed
        self.metric = metric
        self.comparison = comparison
        self.value = value
        percentOfCalls = percent
    }

    /// The metric's value in `report`, nil when the report has no such method.
    public func measure(_ report: StressReport) -> Double? {
        let parts = metric.split(separator: ".").map(String.init)
        if parts.count == 1 {
            switch metric {
            case "lost": return Double(report.lost)
            case "failed": return Double(report.failed)
            case "misses": return Double(report.methods.values.map(\.deadlineMisses).reduce(0, +))
            case "relaunches": return Double(report.relaunches)
            case "hangs": return Double(report.hangs)
            case "memoryKills": return Double(report.memoryKills)
            case "zombies": return Double(report.host.zombies)
            case "fdDelta": return Double(report.host.fileDescriptorDelta)
            case "threadDelta": return Double(report.host.threadDelta)
            case "leak": return report.memory.leakBytesPerCall
            case "peak": return report.memory.peakBytes.map(Double.init) ?? 0
            case "rate": return report.callsPerSecond
            default: return nil
            }
        }
        guard let method = report.methods[parts[0]] else { return nil }
        let field = parts.last!
        let latencies = parts.count == 3 ? (parts[1] == "warm" ? method.warm.latencyMs : method.cold.latencyMs) : method.latencyMs
        switch field {
        case "p50": return latencies.p50
        case "p90": return latencies.p90
        case "p99": return latencies.p99
        case "max": return latencies.max
        case "misses": return Double(method.deadlineMisses)
        case "failed": return Double(method.failed)
        case "margin": return method.marginMs
        default: return nil
        }
    }

    /// Whether the failure condition holds in `report` (a metric the report lacks does not hold).
    public func isViolated(by report: StressReport) -> Bool {
        guard let measured = measure(report) else { return false }
        let limit = percentOfCalls ? value / 100 * Double(report.calls) : value
        switch comparison {
        case .greater: return measured > limit
        case .greaterOrEqual: return measured >= limit
        case .less: return measured < limit
        case .lessOrEqual: return measured <= limit
        case .equal: return measured == limit
        }
    }

    private static let runMetrics: Set<String> = ["lost", "failed", "misses", "relaunches", "hangs", "memoryKills", "zombies",
                                                  "fdDelta", "threadDelta", "leak", "peak", "rate"]
    private static let methodFields: Set<String> = ["p50", "p90", "p99", "max", "misses", "failed", "margin"]

    private static func isKnown(_ metric: String) -> Bool {
        let parts = metric.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 1: return runMetrics.contains(metric)
        case 2: return !parts[0].isEmpty && methodFields.contains(parts[1])
        case 3: return !parts[0].isEmpty && ["warm", "cold"].contains(parts[1]) && ["p50", "p90", "p99", "max"].contains(parts[2])
        default: return false
        }
    }

    private static func parseValue(_ text: String) -> (Double, Bool)? {
        let units: [(String, Double)] = [("ms", 1), ("KB", 1024), ("MB", 1024 * 1024), ("KiB", 1024), ("MiB", 1024 * 1024),
                                         ("s", 1000), ("%", 1)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            guard let number = Double(text.dropLast(suffix.count)) else { return nil }
            return (number * scale, suffix == "%")
        }
        return Double(text).map { ($0, false) }
    }
}
