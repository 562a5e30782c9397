import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import WalletReports

@Suite struct SVGBarChartTests {
    private func chart(_ values: [(String, Double)]) -> SVGBarChart {
        var chart = SVGBarChart(title: "Time per check", unit: "ms")
        chart.bars = values.map { SVGBarChart.Bar(label: $0.0, value: $0.1, color: "#0a84ff") }
        return chart
    }

    /// The texts of the `<text class="tick">` elements under the axis (those with text-anchor middle).
    private func axisTicks(_ svg: String) -> [String] {
        svg.components(separatedBy: "class=\"tick\" text-anchor=\"middle\">").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    @Test func eachBarIsLabelledWithItsNameInOrder() throws {
        let svg = chart([("manifest-valid", 0.4), ("status-cold-deadline", 9.3), ("memory-limit <55 MB>", 120)]).render()
        let labels = svg.components(separatedBy: "<g class=\"bar\" data-label=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(labels == ["manifest-valid", "status-cold-deadline", "memory-limit &lt;55 MB&gt;"])
        #expect(svg.contains(">status-cold-deadline</text>"))
        #expect(svg.contains(">9.30 ms</text>") && svg.contains(">120 ms</text>"))
        _ = try XMLDocument(xmlString: svg)
    }

    @Test func theValueAxisHasRoundTicksWithTheDecimalsItsStepNeeds() {
        #expect(axisTicks(chart([("a", 120), ("b", 3)]).render()) == ["0", "50", "100", "150"])
        #expect(axisTicks(chart([("a", 0.9)]).render()) == ["0.0", "0.5", "1.0"])
        #expect(axisTicks(chart([("a", 0.07)]).render()) == ["0.00", "0.02", "0.04", "0.06", "0.08"])
        #expect(axisTicks(chart([("a", 0)]).render()) == ["0", "1"])
    }

    @Test func theChartGrowsWithItsBars() {
        let few = chart([("a", 1)]).render(), many = chart((0..<20).map { ("check-\($0)", Double($0)) }).render()
        func height(_ svg: String) -> Double? {
            svg.components(separatedBy: "viewBox=\"0 0 ").dropFirst().first?.split(separator: " ").dropFirst().first
                .flatMap { Double($0.prefix { $0 != "\"" }) }
        }
        #expect((height(many) ?? 0) > (height(few) ?? 0) + 300)
    }
}
