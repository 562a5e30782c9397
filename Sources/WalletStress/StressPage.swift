import Foundation
import WalletHostRuntime
import WalletReports

/// The `--html` page of a stress run: for each extension the facts, a latency histogram with the
/// deadline, latency over time with the injected faults marked, footprint against calls served
/// with the limit and the leak fit, and the failed calls with their evidence.
public struct StressPage: Sendable {
    public var results: [StressResult]
    public var reports: [StressReport]

    /// Most points a time chart draws; a longer run is thinned evenly, failures always kept.
    static let pointBudget = 4_000

    public init(results: [StressResult], reports: [StressReport]) {
        self.results = results
        self.reports = reports
    }

    public func render() -> String {
        let names = reports.map(\.target.executable).joined(separator: ", ")
        let subtitle = reports.map { "\($0.calls) calls in \(HumanReadable.milliseconds($0.elapsedSeconds * 1000))" }
            .joined(separator: "; ")
        var page = HTMLPage(title: "wallet-host stress: \(names)", subtitle: subtitle)
        let verdict = StressVerdict(reports.flatMap(\.thresholds))
        page.verdict = HTMLPage.Verdict(passed: verdict.passed, sentence: verdict.sentence)
        for (result, report) in zip(results, reports) {
            page.section("\(report.target.executable) (\(report.target.bundleIdentifier))", Self.facts(report))
            let faults = result.records.filter { $0.fault != nil }.count
            let legend = faults == 0 ? "" : "<p class=\"muted\">Dashed orange lines: the \(faults) injected faults "
                + "(\(report.chaos.kill) kill, \(report.chaos.stop) stop, \(report.chaos.closeFd4) close-fd4). Red dots: failed calls.</p>"
            page.section("Latency", Self.latencyTable(report) + histogram(result).render() + timeline(result).render() + legend)
            page.section("Memory", "<p>\(HTMLPage.escape(report.memorySentence))</p>" + footprint(result, report).render()
                + (report.memoryLimitSearch.map { "<p>\(HTMLPage.escape($0.sentence))</p>" + Self.memoryLimitChart($0).render() } ?? "")
                + (report.cpuShareSearch.map { "<p>\(HTMLPage.escape($0.sentence))</p>" + Self.cpuShareChart($0).render() } ?? ""))
            page.section("Failures", Self.failureTable(report))
            if !report.thresholds.isEmpty {
                let rows = [["threshold", "measured", "verdict"]] + report.thresholds.map {
                    [$0.threshold.expression, $0.measuredText, $0.violated ? "FAIL" : "pass"]
                }
                page.section("Thresholds", HTMLPage.table(rows, rowClasses: report.thresholds.map { $0.violated ? "fail" : "pass" }))
            }
        }
        return page.render()
    }

    private static func facts(_ report: StressReport) -> String {
        let items: [(String, String, Bool?)] = [
            ("calls", "\(report.calls)", nil), ("rate", StressReport.rate(report.callsPerSecond), nil),
            ("failed", "\(report.failed)", report.failed == 0), ("lost", "\(report.lost)", report.lost == 0),
            ("relaunches", "\(report.relaunches)", nil), ("faults injected", "\(report.chaos.injected)", nil),
            ("host fds", "\(report.host.before.fileDescriptors) → \(report.host.after.fileDescriptors)", report.host.fileDescriptorDelta <= 0),
            ("host threads", "\(report.host.before.threads) → \(report.host.after.threads)", nil),
            ("zombies", "\(report.host.zombies)", report.host.zombies == 0),
        ]
        return "<div class=\"facts\">" + items.map { name, value, good in
            let kind = good.map { $0 ? " good" : " bad" } ?? ""
            return "<div class=\"fact\(kind)\"><b>\(HTMLPage.escape(value))</b>\(HTMLPage.escape(name))</div>"
        }.joined() + "</div>"
    }

    private static func latencyTable(_ report: StressReport) -> String {
        var rows = [["method", "phase", "calls", "p50", "p90", "p99", "max", "deadline", "misses"]]
        for (name, method) in report.methods.sorted(by: { $0.key < $1.key }) {
            for (phase, calls, latency) in [("warm", method.warm.calls, method.warm.latencyMs), ("cold", method.cold.calls, method.cold.latencyMs)]
            where calls > 0 {
                rows.append([name, phase, "\(calls)", HumanReadable.milliseconds(latency.p50), HumanReadable.milliseconds(latency.p90),
                             HumanReadable.milliseconds(latency.p99), HumanReadable.milliseconds(latency.max),
                             method.deadlineMs.map(HumanReadable.milliseconds) ?? "none", "\(method.deadlineMisses)"])
            }
        }
        return HTMLPage.table(rows)
    }

    private static func failureTable(_ report: StressReport) -> String {
        guard !report.failures.isEmpty else { return "<p class=\"muted\">No call failed.</p>" }
        let rows = [["#", "method", "at", "latency", "fault", "error", "evidence"]] + report.failures.map {
            ["\($0.index)", $0.method + ($0.cold ? " (cold)" : ""), HumanReadable.milliseconds($0.atMs),
             HumanReadable.milliseconds($0.latencyMs), $0.fault ?? "", "\($0.kind): \($0.message)", $0.evidence.joined(separator: " | ")]
        }
        return HTMLPage.table(rows, rowClasses: report.failures.map { _ in "fail" })
    }

    /// Latencies in logarithmic bins, the deadline as a line.
    func histogram(_ result: StressResult) -> SVGChart {
        var chart = SVGChart(title: "Latency histogram", xLabel: "latency (ms, logarithmic)", yLabel: "calls")
        chart.logarithmicX = true
        let latencies = result.records.map(\.latencyMilliseconds).filter { $0 > 0 }
        let deadlines = Set(result.records.compactMap(\.deadlineMilliseconds))
        let low = max(0.001, latencies.min() ?? 0.01), high = max(latencies.max() ?? 1, deadlines.max() ?? 1, low * 10)
        let binCount = 48
        let step = (log10(high) - log10(low)) / Double(binCount)
        var counts = [Int](repeating: 0, count: binCount)
        for latency in latencies {
            counts[min(binCount - 1, max(0, Int((log10(latency) - log10(low)) / step)))] += 1
        }
        let points = counts.enumerated().map { (x: pow(10, log10(low) + Double($0.offset) * step), y: Double($0.element)) }
        chart.series = [SVGChart.Series(label: "calls", points: points, style: .bars, color: "#0a84ff")]
        chart.verticalGuides = deadlines.sorted().map { SVGChart.Guide(value: $0, label: "deadline \(HumanReadable.milliseconds($0))", color: "#c9342b") }
        return chart
    }

    /// Each call's latency at the moment it was asked; faults as vertical lines.
    func timeline(_ result: StressResult) -> SVGChart {
        var chart = SVGChart(title: "Latency over time", xLabel: "time (ms since the load started)", yLabel: "latency (ms)")
        let records = Self.thinned(result.records)
        chart.series = [
            SVGChart.Series(label: "ok", points: records.filter(\.succeeded).map { ($0.startedAtMilliseconds, $0.latencyMilliseconds) },
                            style: .dots, color: "#0a84ff"),
            SVGChart.Series(label: "failed", points: records.filter { !$0.succeeded }.map { ($0.startedAtMilliseconds, $0.latencyMilliseconds) },
                            style: .dots, color: "#c9342b"),
        ]
        chart.verticalGuides = result.records.filter { $0.fault != nil }.prefix(200).map {
            SVGChart.Guide(value: $0.startedAtMilliseconds, label: $0.fault!.rawValue, color: "#ff9f0a")
        }
        let deadlines = Set(result.records.compactMap(\.deadlineMilliseconds))
        if let deadline = deadlines.min(), deadline <= (result.records.map(\.latencyMilliseconds).max() ?? 0) * 3 {
            chart.horizontalGuides = [SVGChart.Guide(value: deadline, label: "deadline \(HumanReadable.milliseconds(deadline))", color: "#c9342b")]
        }
        return chart
    }

    /// Footprint after each warm call against calls its process served; the limit and the fit.
    func footprint(_ result: StressResult, _ report: StressReport) -> SVGChart {
        var chart = SVGChart(title: "Footprint", xLabel: "calls served by the process", yLabel: "footprint (MB)")
        let samples = result.footprintSamples
        let step = max(1, samples.count / Self.pointBudget)
        let megabyte = 1_048_576.0
        chart.series = [SVGChart.Series(label: "footprint", points: stride(from: 0, to: samples.count, by: step).map {
            (Double(samples[$0].callsServed), Double(samples[$0].bytes) / megabyte)
        }, style: .dots, color: "#0a84ff")]
        if let fit = report.memory.leakFit, let last = samples.map(\.callsServed).max() {
            chart.series.append(SVGChart.Series(label: "fit", points: [0, Double(last)].map {
                ($0, (fit.interceptBytes + fit.slopeBytesPerCall * $0) / megabyte)
            }, style: .line, color: fit.leaking ? "#c9342b" : "#34c759"))
        }
        chart.horizontalGuides = [SVGChart.Guide(value: Double(result.memoryLimitBytes) / megabyte,
                                                 label: "limit \(HumanReadable.megabytes(result.memoryLimitBytes))", color: "#c9342b")]
        return chart
    }

    static func thinned(_ records: [StressCallRecord]) -> [StressCallRecord] {
        guard records.count > pointBudget else { return records }
        let step = records.count / pointBudget + 1
        return records.enumerated().filter { $0.offset % step == 0 || !$0.element.succeeded }.map(\.element)
    }
}
