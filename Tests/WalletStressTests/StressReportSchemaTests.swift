import Foundation
import Testing
import WalletTestSupport
@testable import WalletStress

/// docs/STRESS.md's `--json` example is the schema: every key it shows is one the encoder writes
/// and every key the encoder writes is in it (method names and error kinds are the variable parts).
@Suite struct StressReportSchemaTests {
    private static let documentURL = BuildProducts.repositoryRoot.appendingPathComponent("docs/STRESS.md")

    /// The one ```json block of docs/STRESS.md, decoded.
    private func documentedExample() throws -> Any {
        let text = try String(contentsOf: Self.documentURL, encoding: .utf8)
        let start = try #require(text.range(of: "```json\n"), "docs/STRESS.md has no ```json block")
        let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
        return try JSONSerialization.jsonObject(with: Data(text[start.upperBound..<end.lowerBound].utf8))
    }

    /// A report with every optional part present: CPU share, chaos, a leak, both searches, a threshold.
    private func fullReport() throws -> Any {
        var plan = StressPlan()
        plan.cpuSharePercent = 50
        plan.chaos = [.kill, .stop, .closeFd4]
        var report = StressReport(StressFixtures.result(plan: plan))
        report.memoryLimitSearch = MemoryLimitSearch.Outcome(
            lowestWorkingBytes: 10 << 20, ceilingBytes: 55 << 20, resolutionBytes: 256 << 10, callsPerProbe: 50,
            probes: [.init(limitBytes: 55 << 20, succeeded: true, failure: "none")])
        report.cpuShareSearch = CPUShareSearch.Outcome(lowestPassingSharePercent: 12, highestMissingSharePercent: 11, deadlineMs: 100,
                                                       probes: [.init(sharePercent: 100, misses: 0, calls: 10, p99Ms: 14)])
        report.thresholds = [ThresholdOutcome(threshold: try StressThreshold("status.p99>80ms"), report: report)]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try JSONSerialization.jsonObject(with: try encoder.encode(report))
    }

    /// Every key path in `value`: `methods.*.warm.latencyMs.p99`, `failures[].evidence`.
    private func keyPaths(_ value: Any, prefix: String = "") -> Set<String> {
        var paths: Set<String> = []
        if let object = value as? [String: Any] {
            for (key, child) in object {
                let wildcard = prefix == "methods" || prefix.hasSuffix(".errors")
                let path = prefix.isEmpty ? key : "\(prefix).\(wildcard ? "*" : key)"
                paths.insert(path)
                paths.formUnion(keyPaths(child, prefix: path))
            }
        } else if let array = value as? [Any] {
            for element in array { paths.formUnion(keyPaths(element, prefix: prefix + "[]")) }
        }
        return paths
    }

    @Test func theDocumentedExampleHasEveryKeyTheEncoderWrites() throws {
        let documented = keyPaths(try documentedExample())
        let encoded = keyPaths(try fullReport())
        #expect(encoded.subtracting(documented).sorted() == [], "written but not documented in docs/STRESS.md")
        #expect(documented.subtracting(encoded).sorted() == [], "documented in docs/STRESS.md but not written")
    }

    @Test func theIssuesMinimumIsThere() throws {
        let encoded = keyPaths(try fullReport())
        for path in ["methods.*.calls", "methods.*.ok", "methods.*.failed", "methods.*.deadlineMisses",
                     "methods.*.latencyMs.p50", "methods.*.latencyMs.p90", "methods.*.latencyMs.p99", "methods.*.latencyMs.max",
                     "methods.*.warm.latencyMs.p99", "methods.*.cold.latencyMs.p99", "lost", "relaunches", "chaos.injected",
                     "memory.peakBytes", "memory.leakBytesPerCall", "memory.leakFit", "memory.projectedCallsToLimit", "host"] {
            #expect(encoded.contains(path), "\(path) missing from --json")
        }
    }

    @Test func theSummarySaysHowFastItLeaksAndWhenItDies() {
        let report = StressReport(StressFixtures.result())
        #expect(report.memorySentence.contains("grows 256 KB per call (R² 1.00"))
        #expect(report.memorySentence.contains("killed after about"))
        let text = report.renderText()
        #expect(text.contains("status p99"))
        #expect(text.contains("of 100 ms, 1 miss"))
    }
}
