import Foundation

/// A chart drawn as inline SVG, for the self-contained HTML reports (`--html`): points, lines
/// or bars, with vertical markers (injected faults, a deadline) and horizontal rules (a limit).
/// Nothing is fetched: the SVG is text in the page.
public struct SVGChart: Sendable {
    /// How a series is drawn.
    public enum Style: Sendable {
        case dots, line, bars
    }

    /// A set of points in data units.
    public struct Series: Sendable {
        public var label: String
        public var points: [(x: Double, y: Double)]
        public var style: Style
        /// A CSS colour.
        public var color: String

        public init(label: String, points: [(x: Double, y: Double)], style: Style, color: String) {
            self.label = label
            self.points = points
            self.style = style
            self.color = color
        }
    }

    /// A labelled line across the chart at a value: vertical at an x, horizontal at a y.
    public struct Guide: Sendable {
        public var value: Double
        public var label: String
        public var color: String

        public init(value: Double, label: String, color: String) {
            self.value = value
            self.label = label
            self.color = color
        }
    }

    public var title: String
    public var xLabel: String
    public var yLabel: String
    public var series: [Series] = []
    public var verticalGuides: [Guide] = []
    public var horizontalGuides: [Guide] = []
    /// Logarithmic x axis (latency histograms span microseconds to the deadline).
    public var logarithmicX = false
    public var width = 760.0
    public var height = 280.0

    public init(title: String, xLabel: String, yLabel: String) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
    }

    private let left = 64.0, right = 16.0, top = 28.0, bottom = 40.0

    /// The chart as an `<svg>` element with a `data-chart` attribute holding its title.
    public func render() -> String {
        let (plot, yTicks) = makePlot()
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" data-chart=\"\(Self.escape(title))\" "
            + "viewBox=\"0 0 \(Self.n(width)) \(Self.n(height))\" role=\"img\" aria-label=\"\(Self.escape(title))\">\n"
        svg += "<text x=\"\(Self.n(left))\" y=\"18\" class=\"title\">\(Self.escape(title))</text>\n"
        svg += axes(on: plot, yTicks: yTicks)
        for item in series { svg += marks(of: item, on: plot) }
        svg += guides(on: plot)
        return svg + legend(right: left + plot.width) + "</svg>"
    }

    /// Where data units land in the picture: the plot area and the ranges its axes span.
    private struct Plot {
        let left, top, width, height: Double
        let minX, maxX, maxY: Double
        let logarithmicX: Bool

        func x(_ value: Double) -> Double {
            let fraction = logarithmicX ? (log10(max(value, minX)) - log10(minX)) / (log10(maxX) - log10(minX))
                : (value - minX) / (maxX - minX)
            return left + fraction * width
        }

        func y(_ value: Double) -> Double { top + height - value / maxY * height }
    }

    /// The axes' ranges from the data and guides: x to its ticks (a linear axis) and y from 0 to
    /// a round number, ticked at round steps (0, 25, 50, 75, 100).
    private func makePlot() -> (Plot, yTicks: [Double]) {
        let xs = series.flatMap { $0.points.map(\.x) } + verticalGuides.map(\.value)
        let ys = series.flatMap { $0.points.map(\.y) } + horizontalGuides.map(\.value) + [0]
        let xValues = logarithmicX ? xs.filter { $0 > 0 } : xs
        var minX = xValues.min() ?? 0, maxX = xValues.max() ?? 1
        if minX == maxX { minX -= 1; maxX += 1 }
        if !logarithmicX, let ticks = Optional(AxisTicks.linear(from: minX, to: maxX)), let first = ticks.first, let last = ticks.last {
            minX = min(minX, first)
            maxX = max(maxX, last)
        }
        let yTicks = AxisTicks.linear(upTo: (ys.max() ?? 1) * 1.04 + (ys.max() == 0 ? 1 : 0))
        let plot = Plot(left: left, top: top, width: width - left - right, height: height - top - bottom,
                        minX: minX, maxX: maxX, maxY: yTicks.last ?? 1, logarithmicX: logarithmicX)
        return (plot, yTicks)
    }

    /// The plot's frame, the ticks of both axes and their labels.
    private func axes(on plot: Plot, yTicks: [Double]) -> String {
        var svg = "<rect x=\"\(Self.n(left))\" y=\"\(Self.n(top))\" width=\"\(Self.n(plot.width))\" height=\"\(Self.n(plot.height))\" class=\"plot\"/>\n"
        for value in yTicks {
            svg += "<text x=\"\(Self.n(left - 6))\" y=\"\(Self.n(plot.y(value) + 4))\" class=\"tick\" text-anchor=\"end\">\(Self.label(value))</text>\n"
        }
        let xTicks = logarithmicX ? AxisTicks.logarithmic(from: plot.minX, to: plot.maxX) : AxisTicks.linear(from: plot.minX, to: plot.maxX)
        for value in xTicks {
            svg += "<text x=\"\(Self.n(plot.x(value)))\" y=\"\(Self.n(height - bottom + 16))\" class=\"tick\" text-anchor=\"middle\">\(Self.label(value))</text>\n"
        }
        svg += "<text x=\"\(Self.n(left + plot.width / 2))\" y=\"\(Self.n(height - 6))\" class=\"axis\" text-anchor=\"middle\">\(Self.escape(xLabel))</text>\n"
        svg += "<text x=\"12\" y=\"\(Self.n(top + plot.height / 2))\" class=\"axis\" text-anchor=\"middle\" "
            + "transform=\"rotate(-90 12 \(Self.n(top + plot.height / 2)))\">\(Self.escape(yLabel))</text>\n"
        return svg
    }

    /// One series as dots, a line or bars.
    private func marks(of item: Series, on plot: Plot) -> String {
        var svg = "<g class=\"series\" data-series=\"\(Self.escape(item.label))\" fill=\"\(item.color)\" stroke=\"\(item.color)\">\n"
        switch item.style {
        case .dots:
            for point in item.points {
                svg += "<circle cx=\"\(Self.n(plot.x(point.x)))\" cy=\"\(Self.n(plot.y(point.y)))\" r=\"1.8\"/>"
            }
        case .line:
            let path = item.points.map { "\(Self.n(plot.x($0.x))),\(Self.n(plot.y($0.y)))" }.joined(separator: " ")
            svg += "<polyline points=\"\(path)\" fill=\"none\" stroke-width=\"2\"/>"
        case .bars:
            let sorted = item.points.sorted { $0.x < $1.x }
            for (index, point) in sorted.enumerated() {
                let next = index + 1 < sorted.count ? plot.x(sorted[index + 1].x) : plot.x(point.x) + plot.width / Double(max(1, sorted.count))
                let x = plot.x(point.x), barWidth = max(1, next - x - 1)
                svg += "<rect x=\"\(Self.n(x))\" y=\"\(Self.n(plot.y(point.y)))\" width=\"\(Self.n(barWidth))\" "
                    + "height=\"\(Self.n(top + plot.height - plot.y(point.y)))\"/>"
            }
        }
        return svg + "\n</g>\n"
    }

    /// The vertical markers (labelled unless there are many: labels would overlap) and the
    /// horizontal rules.
    private func guides(on plot: Plot) -> String {
        var svg = ""
        let labelled = verticalGuides.count <= 12
        for guide in verticalGuides {
            let x = plot.x(guide.value)
            svg += "<line class=\"guide\" x1=\"\(Self.n(x))\" x2=\"\(Self.n(x))\" y1=\"\(Self.n(top))\" y2=\"\(Self.n(top + plot.height))\" "
                + "stroke=\"\(guide.color)\"><title>\(Self.escape(guide.label))</title></line>"
            if labelled {
                let nearRightEdge = x > left + plot.width * 0.8
                svg += "<text x=\"\(Self.n(nearRightEdge ? x - 3 : x + 3))\" y=\"\(Self.n(top + 12))\" class=\"guide-label\" "
                    + "text-anchor=\"\(nearRightEdge ? "end" : "start")\" fill=\"\(guide.color)\">\(Self.escape(guide.label))</text>"
            }
            svg += "\n"
        }
        for guide in horizontalGuides {
            let y = plot.y(guide.value)
            svg += "<line class=\"guide\" x1=\"\(Self.n(left))\" x2=\"\(Self.n(left + plot.width))\" y1=\"\(Self.n(y))\" y2=\"\(Self.n(y))\" "
                + "stroke=\"\(guide.color)\"/><text x=\"\(Self.n(left + plot.width - 4))\" y=\"\(Self.n(y - 4))\" class=\"guide-label\" "
                + "text-anchor=\"end\" fill=\"\(guide.color)\">\(Self.escape(guide.label))</text>\n"
        }
        return svg
    }

    /// A key naming each series by its colour, top right, when there is more than one series.
    private func legend(right edge: Double) -> String {
        guard series.count > 1 else { return "" }
        var svg = "<g class=\"legend\">"
        var x = edge
        for item in series.reversed() {
            let labelWidth = Double(item.label.count) * 6.5
            x -= labelWidth
            svg += "<text x=\"\(Self.n(x))\" y=\"18\" class=\"legend-label\">\(Self.escape(item.label))</text>"
            x -= 14
            svg += "<rect x=\"\(Self.n(x))\" y=\"10\" width=\"10\" height=\"10\" fill=\"\(item.color)\"/>"
            x -= 12
        }
        return svg + "</g>\n"
    }

    static func escape(_ text: String) -> String {
        JUnitXML.escape(text)
    }

    private static func n(_ value: Double) -> String {
        String(format: "%.1f", value.isFinite ? value : 0)
    }

    private static func label(_ value: Double) -> String {
        // Ticks are round numbers: shown as they are, 25 not 25.0, 0.05 not 5e-02.
        if abs(value) < 1e-9 { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(format: "%.6g", value)
    }
}
