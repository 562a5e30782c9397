import WalletHostRuntime
import WalletReports
/// The `conform --html` page: per extension, the verdict, each check passed, failed or skipped
/// with its evidence, and how long each check took.
public struct ConformancePage: Sendable {
    public var reports: [ConformanceReport]

    public init(reports: [ConformanceReport]) {
        self.reports = reports
    }

    public func render() -> String {
        let failed = reports.filter { !$0.passed }.map(\.name)
        var page = HTMLPage(title: "wallet-host conform: " + reports.map(\.name).joined(separator: ", "),
                            subtitle: failed.isEmpty ? "every check passed" : "failed: " + failed.joined(separator: ", "))
        for report in reports {
            let counts = [ConformanceCheck.Status.passed, .failed, .skipped].map { "\(report.count($0)) \($0.rawValue)" }
            var html = "<p>\(HTMLPage.escape(report.bundleIdentifier ?? report.bundlePath)) · "
                + "\(HTMLPage.escape(counts.joined(separator: ", "))) · \(HumanReadable.milliseconds(report.durationMilliseconds))</p>"
            html += report.notes.map { "<p class=\"muted\">\(HTMLPage.escape($0))</p>" }.joined()
            let rows = [["check", "verdict", "time", "evidence"]] + report.checks.map {
                ["\($0.id): \($0.title)", $0.status.rawValue.uppercased(), HumanReadable.milliseconds($0.durationMilliseconds), $0.evidence]
            }
            html += HTMLPage.table(rows, rowClasses: report.checks.map { $0.status == .failed ? "fail" : $0.status == .passed ? "pass" : nil })
            // One bar per check, named: the checks are a list, not a numeric axis.
            var chart = SVGBarChart(title: "Time per check", unit: "ms")
            chart.bars = report.checks.map {
                SVGBarChart.Bar(label: $0.id, value: $0.durationMilliseconds,
                                color: $0.status == .failed ? "#ff3b30" : $0.status == .passed ? "#0a84ff" : "#8e8e93")
            }
            html += chart.render()
            page.section(report.name, html)
        }
        return page.render()
    }
}
