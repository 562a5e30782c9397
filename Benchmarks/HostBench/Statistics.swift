// Medians and percentiles for the benchmark report: every figure is a distribution's p50
// (with p90 and p99 beside it), never a single timed run.
import Foundation

func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
}

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
}

func median(_ values: [Double]) -> Double { percentile(values, 0.5) }

/// One line: name, p50, p90, p99 and the sample count, in `unit` (values are in ms, times `scale`).
func report(_ name: String, _ values: [Double], unit: String = "ms", scale: Double = 1) {
    let p50 = percentile(values, 0.5) * scale
    let p90 = percentile(values, 0.9) * scale
    let p99 = percentile(values, 0.99) * scale
    let label = name.padding(toLength: 52, withPad: " ", startingAt: 0)
    print(label + String(format: "p50 %9.3f %@  p90 %9.3f %@  p99 %9.3f %@  (n=%d)", p50, unit, p90, unit, p99, unit,
                         values.count))
}
