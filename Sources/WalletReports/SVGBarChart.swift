import Foundation

/// A horizontal bar chart of named values, drawn as inline SVG for the self-contained HTML
/// reports: one row per item in the order given, its name at the left, its bar, and its value
/// at the bar's end; a value axis with round ticks below. For a list of named things (the
/// checks of a conformance run), where ``SVGChart``'s numeric x axis would number them instead.
public struct SVGBarChart: Sendable {
    /// One named value.
    public struct Bar: Sendable {
        /// What the bar is for, written at its left.
        public var label: String
        /// Its length on the value axis, in ``SVGBarChart/unit``.
        public var value: Double
        /// A CSS colour.
        public var color: String

        /// A bar named `label` of length `value`, filled with `color`.
        public init(label: String, value: Double, color: String) {
            self.label = label
            self.value = value
            self.color = color
        }
    }

    /// Written above the chart, and its `data-chart` attribute.
    public var title: String
    /// The unit after each value and under the axis (`ms`).
    public var unit: String
    /// The rows, top to bottom.
    public var bars: [Bar] = []
    /// The width in SVG units; the height follows from the number of bars.
    public var width = 760.0

    /// An empty chart: give it ``bars``.
    public init(title: String, unit: String) {
        self.title = title
        self.unit = unit
    }

    private let top = 28.0, bottom = 36.0, right = 70.0, rowHeight = 18.0

    /// The chart as an `<svg>` element with a `data-chart` attribute holding its title; each
    /// bar is a `<g class="bar">` with a `data-label` attribute holding its name.
    public func render() -> String {
        // Names at 11px, about 6.2px a character, between 80 and 300 px wide.
        let left = min(300, max(80, Double(bars.map(\.label.count).max() ?? 0) * 6.2 + 12))
        let plotWidth = width - left - right, plotHeight = Double(max(1, bars.count)) * rowHeight
        let height = top + plotHeight + bottom
        let ticks = Self.ticks(upTo: bars.map(\.value).max() ?? 0)
        let maxValue = ticks.last ?? 1
        func px(_ value: Double) -> Double { left + max(0, value) / maxValue * plotWidth }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" data-chart=\"\(SVGChart.escape(title))\" "
            + "viewBox=\"0 0 \(Self.n(width)) \(Self.n(height))\" role=\"img\" aria-label=\"\(SVGChart.escape(title))\">\n"
        svg += "<text x=\"\(Self.n(left))\" y=\"18\" class=\"title\">\(SVGChart.escape(title))</text>\n"
        svg += "<rect x=\"\(Self.n(left))\" y=\"\(Self.n(top))\" width=\"\(Self.n(plotWidth))\" height=\"\(Self.n(plotHeight))\" class=\"plot\"/>\n"
        for tick in ticks {
            svg += "<text x=\"\(Self.n(px(tick)))\" y=\"\(Self.n(top + plotHeight + 14))\" class=\"tick\" text-anchor=\"middle\">"
                + "\(Self.number(tick, step: ticks.count > 1 ? ticks[1] : 1))</text>\n"
        }
        svg += "<text x=\"\(Self.n(left + plotWidth / 2))\" y=\"\(Self.n(height - 6))\" class=\"axis\" text-anchor=\"middle\">"
            + "\(SVGChart.escape(unit))</text>\n"
        for (row, bar) in bars.enumerated() {
            let y = top + Double(row) * rowHeight
            let label = SVGChart.escape(bar.label), value = SVGChart.escape(Self.valueText(bar.value) + " " + unit)
            svg += "<g class=\"bar\" data-label=\"\(label)\"><title>\(label): \(value)</title>"
                + "<text x=\"\(Self.n(left - 6))\" y=\"\(Self.n(y + rowHeight - 5))\" class=\"axis\" text-anchor=\"end\">\(label)</text>"
                + "<rect x=\"\(Self.n(left))\" y=\"\(Self.n(y + 3))\" width=\"\(Self.n(max(1, px(bar.value) - left)))\" "
                + "height=\"\(Self.n(rowHeight - 6))\" fill=\"\(bar.color)\"/>"
                + "<text x=\"\(Self.n(px(bar.value) + 4))\" y=\"\(Self.n(y + rowHeight - 5))\" class=\"tick\">\(value)</text></g>\n"
        }
        return svg + "</svg>"
    }

    /// Round ticks from 0 to at least `maximum`: steps of 1, 2 or 5 times a power of ten, at most 6 ticks.
    static func ticks(upTo maximum: Double) -> [Double] {
        guard maximum.isFinite, maximum > 0 else { return [0, 1] }
        let rough = maximum / 4
        let magnitude = pow(10, floor(log10(rough)))
        let step = [1.0, 2, 5, 10].map { $0 * magnitude }.first { $0 >= rough } ?? 10 * magnitude
        let count = Int((maximum / step).rounded(.up))
        return (0...max(1, count)).map { Double($0) * step }
    }

    /// A tick's text: as many decimals as the step needs (none for whole steps).
    static func number(_ value: Double, step: Double) -> String {
        let decimals = step >= 1 ? 0 : min(6, Int((-log10(step)).rounded(.up)))
        return String(format: "%.\(decimals)f", value)
    }

    /// A bar's value: three significant figures at most, as the reports write durations.
    static func valueText(_ value: Double) -> String {
        if value >= 100 { return String(format: "%.0f", value) }
        if value >= 10 { return String(format: "%.1f", value) }
        return String(format: "%.2f", value)
    }

    private static func n(_ value: Double) -> String {
        String(format: "%.1f", value.isFinite ? value : 0)
    }
}
