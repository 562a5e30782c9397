import Foundation
import WalletHostRuntime
import WalletReports

/// The searches of a stress run drawn as charts on its page: each probe of `--cpu-share search`
/// and `--find-memory-limit`, passing and failing apart, with the limit found.
extension StressPage {
    /// status's p99 at each CPU share tried, probes that missed the deadline in red.
    static func cpuShareChart(_ search: CPUShareSearch.Outcome) -> SVGChart {
        var chart = SVGChart(title: "CPU share search", xLabel: "share of one core (%)", yLabel: "status p99 (ms)")
        let kept = search.probes.filter { $0.misses == 0 }, missed = search.probes.filter { $0.misses > 0 }
        chart.series = [
            SVGChart.Series(label: "no deadline miss", points: kept.map { ($0.sharePercent, $0.p99Ms) }, style: .dots, color: "#34c759"),
            SVGChart.Series(label: "missed the deadline", points: missed.map { ($0.sharePercent, $0.p99Ms) }, style: .dots, color: "#c9342b"),
        ]
        if let deadline = search.deadlineMs {
            chart.horizontalGuides = [SVGChart.Guide(value: deadline, label: "deadline \(HumanReadable.milliseconds(deadline))",
                                                     color: "#c9342b")]
        }
        if let lowest = search.lowestPassingSharePercent {
            chart.verticalGuides = [SVGChart.Guide(value: lowest, label: "lowest passing \(StressReport.number(lowest))%", color: "#1a7f37")]
        }
        return chart
    }

    /// Each memory limit tried, in the order tried, the limits under which a call failed in red.
    static func memoryLimitChart(_ search: MemoryLimitSearch.Outcome) -> SVGChart {
        var chart = SVGChart(title: "Memory limit search", xLabel: "probe (in the order tried)", yLabel: "memory limit (MB)")
        let megabyte = 1_048_576.0
        let probes = search.probes.enumerated().map { (index: Double($0.offset + 1), probe: $0.element) }
        chart.series = [
            SVGChart.Series(label: "every call succeeded", points: probes.filter(\.probe.succeeded).map {
                ($0.index, Double($0.probe.limitBytes) / megabyte)
            }, style: .dots, color: "#34c759"),
            SVGChart.Series(label: "a call failed", points: probes.filter { !$0.probe.succeeded }.map {
                ($0.index, Double($0.probe.limitBytes) / megabyte)
            }, style: .dots, color: "#c9342b"),
        ]
        var guides = [SVGChart.Guide(value: Double(search.ceilingBytes) / megabyte,
                                     label: "limit \(HumanReadable.megabytes(search.ceilingBytes))", color: "#6e6e73")]
        if let lowest = search.lowestWorkingBytes {
            guides.append(SVGChart.Guide(value: Double(lowest) / megabyte, label: "lowest working \(HumanReadable.megabytes(lowest))",
                                         color: "#1a7f37"))
        }
        chart.horizontalGuides = guides
        return chart
    }
}
