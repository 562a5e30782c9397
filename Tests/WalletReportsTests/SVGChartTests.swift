import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import WalletReports

@Suite struct SVGChartTests {
    @Test func aChartIsOneSVGElementNamedByItsEscapedTitle() throws {
        var chart = SVGChart(title: "p99 < 100 ms & \"fine\"", xLabel: "x", yLabel: "y")
        chart.series = [SVGChart.Series(label: "a", points: [(1, 2), (2, 4)], style: .line, color: "#000")]
        let svg = chart.render()
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.hasSuffix("</svg>"))
        #expect(svg.contains("data-chart=\"p99 &lt; 100 ms &amp; &quot;fine&quot;\""))
        // Well-formed XML, as a browser's SVG parser needs it.
        _ = try XMLDocument(xmlString: svg)
    }

    @Test func aLogarithmicAxisIgnoresZeroAndKeepsTheDeadlineInView() throws {
        var chart = SVGChart(title: "histogram", xLabel: "ms", yLabel: "calls")
        chart.logarithmicX = true
        chart.series = [SVGChart.Series(label: "calls", points: [(0, 3), (0.05, 10), (0.5, 2)], style: .bars, color: "#00f")]
        chart.verticalGuides = [SVGChart.Guide(value: 100, label: "deadline 100 ms", color: "#f00")]
        let svg = chart.render()
        #expect(!svg.contains("nan") && !svg.contains("inf"))
        #expect(svg.contains(">deadline 100 ms</text>"))
        _ = try XMLDocument(xmlString: svg)
    }

    @Test func manyMarkersAreDrawnWithoutLabels() {
        var chart = SVGChart(title: "faults", xLabel: "ms", yLabel: "ms")
        chart.series = [SVGChart.Series(label: "ok", points: [(0, 1), (100, 1)], style: .dots, color: "#00f")]
        chart.verticalGuides = (0..<20).map { SVGChart.Guide(value: Double($0 * 5), label: "kill", color: "#f90") }
        let svg = chart.render()
        #expect(svg.components(separatedBy: "<line class=\"guide\"").count == 21)
        #expect(!svg.contains(">kill</text>"))
        #expect(svg.contains("<title>kill</title>"))
    }

    @Test func aPageIsSelfContained() {
        var page = HTMLPage(title: "T <1>", subtitle: "s")
        page.section("Table", HTMLPage.table([["a", "b"], ["<x>", "y"]], rowClasses: ["fail"]))
        let html = page.render()
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<title>T &lt;1&gt;</title>"))
        #expect(html.contains("<tr class=\"fail\"><td>&lt;x&gt;</td>"))
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("<script"))
    }
}

@Suite struct SVGChartAxisTests {
    @Test("axis ticks fall on round numbers", arguments: [
        (0.0, 47.4, [0.0, 20, 40, 60]),
        (0.0, 0.83, [0.0, 0.5, 1]),
        (0.0, 8.0, [0.0, 2, 4, 6, 8]),
        (3.0, 117.0, [0.0, 50, 100, 150]),
        (0.0, 55.0, [0.0, 20, 40, 60]),
    ])
    func linearTicks(_ low: Double, _ high: Double, _ expected: [Double]) {
        #expect(AxisTicks.linear(from: low, to: high) == expected)
    }

    @Test func logarithmicTicksArePowersOfTen() {
        #expect(AxisTicks.logarithmic(from: 0.02, to: 5000) == [0.1, 1, 10, 100, 1000])
        #expect(AxisTicks.logarithmic(from: 3, to: 40) == [5, 10, 20])
    }

    /// The `<text class="tick">` labels of a rendered chart.
    private func tickLabels(_ svg: String) -> [String] {
        svg.components(separatedBy: "class=\"tick\" text-anchor=").dropFirst().map { String($0.drop { $0 != ">" }.dropFirst().prefix { $0 != "<" }) }
    }

    @Test func aChartIsLabelledAtRoundNumbersOnly() {
        var chart = SVGChart(title: "t", xLabel: "x", yLabel: "y")
        chart.series = [SVGChart.Series(label: "a", points: [(0, 0), (37, 47.4)], style: .line, color: "#000")]
        let labels = tickLabels(chart.render())
        #expect(labels.contains("20") && labels.contains("40"), "\(labels)")
        #expect(!labels.contains { $0.contains(".") }, "no 23.7 or 11.9: \(labels)")
    }

    @Test func everyChartWithMoreThanOneSeriesHasALegend() {
        var chart = SVGChart(title: "t", xLabel: "x", yLabel: "y")
        chart.series = [SVGChart.Series(label: "ok", points: [(0, 1)], style: .dots, color: "#00f")]
        #expect(!chart.render().contains("class=\"legend\""))
        chart.series.append(SVGChart.Series(label: "failed", points: [(1, 2)], style: .dots, color: "#f00"))
        let svg = chart.render()
        #expect(svg.contains("class=\"legend\""))
        #expect(svg.contains(">ok</text>") && svg.contains(">failed</text>"))
    }
}
