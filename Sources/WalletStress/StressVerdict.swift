import Foundation
import WalletHostRuntime

/// The verdict of a stress run, first in its text and on its page: passed when no `--fail-on`
/// threshold holds, with the figures of those that do, each in its unit.
public struct StressVerdict: Sendable {
    public var passed: Bool
    /// `every threshold holds: lost>0, zombies>0` or `failed>0 (measured 3 calls); misses>0 (...)`.
    public var sentence: String

    /// The verdict over `thresholds` (no threshold at all passes).
    public init(_ thresholds: [ThresholdOutcome]) {
        let violated = thresholds.filter(\.violated)
        passed = violated.isEmpty
        if passed {
            sentence = thresholds.isEmpty ? "no --fail-on threshold"
                : "no --fail-on condition holds (" + thresholds.map(\.threshold.expression).joined(separator: ", ") + ")"
        } else {
            sentence = violated.map { "\($0.threshold.expression) (measured \($0.measuredText))" }.joined(separator: "; ")
        }
    }

    /// `PASS: ...` or `FAIL: ...`, the first line of the text report.
    public var line: String { (passed ? "PASS: " : "FAIL: ") + sentence }
}

extension ThresholdOutcome {
    /// The measured value in its metric's unit: `3 calls`, `38.2 ms`, `256 KB per call`, `n/a`.
    public var measuredText: String {
        guard let measured else { return "n/a" }
        return threshold.format(measured)
    }
}

extension StressThreshold {
    /// A value of this threshold's metric, with its unit.
    public func format(_ value: Double) -> String {
        let field = metric.split(separator: ".").last.map(String.init) ?? metric
        switch field {
        case "p50", "p90", "p99", "max", "margin": return HumanReadable.milliseconds(value)
        case "leak": return StressReport.bytes(value) + " per call"
        case "peak": return HumanReadable.megabytes(Int(value))
        case "rate": return StressReport.rate(value)
        case "lost", "failed": return HumanReadable.counted(Int(value), "call")
        case "misses": return HumanReadable.counted(Int(value), "deadline miss", plural: "deadline misses")
        case "relaunches": return HumanReadable.counted(Int(value), "relaunch", plural: "relaunches")
        case "hangs": return HumanReadable.counted(Int(value), "hang")
        case "memoryKills": return HumanReadable.counted(Int(value), "memory kill")
        case "zombies": return HumanReadable.counted(Int(value), "zombie")
        case "fdDelta": return HumanReadable.counted(Int(value), "descriptor")
        case "threadDelta": return HumanReadable.counted(Int(value), "thread")
        default: return StressReport.number(value)
        }
    }
}
