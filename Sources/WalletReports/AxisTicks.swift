import Foundation

/// Where a chart's axis is labelled: at round numbers (1, 2 or 5 times a power of ten apart), as
/// a person would draw the scale, never at 0, 23.7, 47.4.
public enum AxisTicks {
    /// Ticks from 0 to a round number at least `maximum`, about five of them.
    public static func linear(upTo maximum: Double) -> [Double] {
        linear(from: 0, to: maximum)
    }

    /// Ticks covering `low...high`: the first at or below `low`, the last at or above `high`,
    /// a round step apart (about five of them).
    public static func linear(from low: Double, to high: Double, count: Int = 5) -> [Double] {
        guard low.isFinite, high.isFinite, high > low else { return [low, low + 1] }
        let step = roundStep((high - low) / Double(max(1, count - 1)))
        let first = (low / step).rounded(.down) * step
        let last = (high / step).rounded(.up) * step
        let steps = Int(((last - first) / step).rounded())
        return (0...max(1, steps)).map { first + Double($0) * step }
    }

    /// Ticks at the powers of ten from `low` to `high` (both above zero); with fewer than three,
    /// also at 2 and 5 times them.
    public static func logarithmic(from low: Double, to high: Double) -> [Double] {
        guard low > 0, high > low, low.isFinite, high.isFinite else { return [max(low, 1e-3)] }
        let decades = Int(log10(low).rounded(.down))...Int(log10(high).rounded(.up))
        let powers = decades.map { pow(10, Double($0)) }
        var ticks: [Double] = powers.filter { (power: Double) -> Bool in power >= low * 0.999 && power <= high * 1.001 }
        if ticks.count < 3 {
            let candidates: [Double] = powers.flatMap { (power: Double) -> [Double] in [power, 2 * power, 5 * power] }
            let lowest = low * 0.999, highest = high * 1.001
            ticks = candidates.filter { $0 >= lowest && $0 <= highest }
        }
        return ticks.isEmpty ? [low, high] : ticks
    }

    /// The round step nearest above `raw`: 1, 2 or 5 times a power of ten.
    static func roundStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let power = pow(10, log10(raw).rounded(.down))
        let fraction = raw / power
        let nice: Double = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10
        return nice * power
    }
}
