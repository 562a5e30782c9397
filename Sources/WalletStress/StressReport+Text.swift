import Foundation
import WalletHostRuntime

extension StressReport {
    /// The summary table and the lines under it, as a person reads them after a run.
    public func renderText(thresholds: [ThresholdOutcome] = []) -> String {
        // The verdict first: a person reads the top of the output, CI logs show it first.
        var lines = thresholds.isEmpty ? [] : [StressVerdict(thresholds).line]
        lines += ["stress \(target.executable) (\(target.bundleIdentifier)): \(HumanReadable.counted(calls, "call")) in "
            + "\(HumanReadable.milliseconds(elapsedSeconds * 1000)), \(Self.rate(callsPerSecond)), "
            + "\(HumanReadable.counted(plan.concurrency, "caller")) at once\(plan.coldEvery > 0 ? ", every \(Self.ordinal(plan.coldEvery)) cold" : "")"
            + "\(plan.cpuSharePercent.map { ", CPU share \(Self.number($0))%" } ?? "")"]
        var rows = [["method", "phase", "calls", "failed", "misses", "p50", "p90", "p99", "max", "deadline", "margin"]]
        for (name, method) in methods.sorted(by: { $0.key < $1.key }) {
            let deadline = method.deadlineMs.map(HumanReadable.milliseconds) ?? "none"
            let phases = [("all", method.calls, method.latencyMs), ("warm", method.warm.calls, method.warm.latencyMs),
                          ("cold", method.cold.calls, method.cold.latencyMs)]
            for (phase, count, latency) in phases where count > 0 && (phase == "all" || method.cold.calls > 0) {
                let all = phase == "all"
                let margin = method.deadlineMs.map { HumanReadable.milliseconds($0 - latency.p99) } ?? ""
                rows.append([all ? name : "", phase, String(count), all ? String(method.failed) : "",
                             all ? String(method.deadlineMisses) : "", HumanReadable.milliseconds(latency.p50),
                             HumanReadable.milliseconds(latency.p90), HumanReadable.milliseconds(latency.p99),
                             HumanReadable.milliseconds(latency.max), all ? deadline : "", margin])
            }
        }
        lines += Self.table(rows)
        for (name, method) in methods.sorted(by: { $0.key < $1.key }) {
            if let deadline = method.deadlineMs {
                lines.append("\(name) p99 \(HumanReadable.milliseconds(method.latencyMs.p99)) of \(HumanReadable.milliseconds(deadline))"
                    + (method.deadlineMisses > 0 ? ", \(HumanReadable.counted(method.deadlineMisses, "miss", plural: "misses"))" : ""))
            }
        }
        lines.append(memorySentence)
        let peaks = methods.sorted { $0.key < $1.key }.compactMap { name, method in
            method.peakFootprintBytes.map { "\(name) \(HumanReadable.megabytes($0))" }
        }
        if !peaks.isEmpty { lines.append("peak footprint per method: " + peaks.joined(separator: ", ")) }
        lines.append("calls lost \(lost) · relaunches \(relaunches) · cold launches \(coldLaunches) · memory kills \(memoryKills) · "
            + "hangs \(hangs) · late completions \(lateCompletions) · double completions \(doubleCompletions)")
        if !plan.chaos.isEmpty {
            lines.append("chaos: \(chaos.injected) faults injected (kill \(chaos.kill), stop \(chaos.stop), close-fd4 \(chaos.closeFd4))"
                + (chaos.missed > 0 ? ", \(chaos.missed) found no process" : ""))
        }
        lines.append("host: fds \(host.before.fileDescriptors) -> \(host.after.fileDescriptors), threads \(host.before.threads) -> "
            + "\(host.after.threads), RSS \(HumanReadable.megabytes(host.before.rssBytes)) -> \(HumanReadable.megabytes(host.after.rssBytes)), "
            + "zombies \(host.zombies)")
        if host.fileDescriptorDelta > 0 && !host.newDescriptors.isEmpty {
            lines.append("host: left open: " + host.newDescriptors.prefix(10).joined(separator: ", ")
                         + (host.newDescriptors.count > 10 ? ", ... \(host.newDescriptors.count - 10) more" : ""))
        }
        for failure in failures.prefix(5) {
            lines.append("failed #\(failure.index) \(failure.method)\(failure.cold ? " (cold)" : ""): \(failure.message)")
        }
        if failures.count > 5 { lines.append("... \(failed - 5) more failed calls (--json or --html lists them)") }
        for outcome in thresholds {
            lines.append("\(outcome.violated ? "FAIL" : "pass") --fail-on \(outcome.threshold.expression): "
                + "measured \(outcome.measuredText)")
        }
        return lines.joined(separator: "\n")
    }

    /// "grows 256 KB per call (R² 1.00); killed after about 180 more calls", or that it does not.
    public var memorySentence: String {
        let peak = memory.peakBytes.map { "peak \(HumanReadable.megabytes($0)) of \(HumanReadable.megabytes(memory.limitBytes))" }
            ?? "no footprint sampled"
        guard let fit = memory.leakFit else { return "memory: \(peak); too few samples to fit growth" }
        let quality = String(format: "R² %.2f over %d calls", fit.rSquared, fit.samples)
        guard fit.leaking else {
            return "memory: \(peak); no leak (\(Self.bytes(fit.slopeBytesPerCall)) per call, \(quality))"
        }
        let projection = memory.projectedCallsToLimit.map { "; killed after about \($0) more calls" } ?? ""
        return "memory: \(peak); grows \(Self.bytes(fit.slopeBytesPerCall)) per call (\(quality))\(projection)"
    }

    static func bytes(_ value: Double) -> String {
        abs(value) >= 1024 * 1024 ? String(format: "%.1f MB", value / 1_048_576)
            : abs(value) >= 1024 ? String(format: "%.0f KB", value / 1024) : String(format: "%.0f bytes", value)
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
    }

    static func rate(_ perSecond: Double) -> String {
        String(format: "%.0f calls/s", perSecond)
    }

    private static func ordinal(_ value: Int) -> String {
        let suffix = (11...13).contains(value % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][value % 10] ?? "th"
        return "\(value)\(suffix)"
    }

    private static func table(_ rows: [[String]]) -> [String] {
        let widths = rows[0].indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column < 2 ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - cell.count) + cell
            }.joined(separator: "  ")
        }
    }
}
