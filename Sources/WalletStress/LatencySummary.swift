/// Percentiles of a set of latencies, in milliseconds (nearest-rank: p99 of 100 calls is the 99th).
public struct LatencySummary: Sendable, Equatable, Codable {
    public var count: Int
    public var p50: Double
    public var p90: Double
    public var p99: Double
    public var max: Double

    /// Summarizes `milliseconds`; all zero when there are none.
    public init(_ milliseconds: [Double]) {
        let sorted = milliseconds.sorted()
        count = sorted.count
        p50 = Self.percentile(50, of: sorted)
        p90 = Self.percentile(90, of: sorted)
        p99 = Self.percentile(99, of: sorted)
        max = sorted.last ?? 0
    }

    /// The nearest-rank percentile of sorted values (0 when there are none).
    public static func percentile(_ percent: Double, of sorted: [Double]) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((percent / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank - 1))]
    }

    /// The median of `values` (0 when there are none).
    public static func median(_ values: [Double]) -> Double {
        percentile(50, of: values.sorted())
    }
}
