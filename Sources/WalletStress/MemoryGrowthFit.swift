/// A least-squares line through footprint samples, footprint against the number of calls the
/// process had served, fitted within each process (a relaunch starts a new line with its own
/// intercept but the same slope): how many bytes each call leaves behind, and how well a
/// straight line explains the samples.
public struct MemoryGrowthFit: Sendable, Equatable, Codable {
    /// Bytes the footprint grows per call (negative when it shrinks).
    public var slopeBytesPerCall: Double
    /// The fitted footprint before the first call of the longest-lived process.
    public var interceptBytes: Double
    /// How much of the footprint's variation the line explains (0...1; 0 when it is flat).
    public var rSquared: Double
    /// Samples fitted.
    public var samples: Int
    /// Whether the growth is a leak: a line that explains the samples well (R² ≥ 0.8) and that
    /// grew the footprint by at least ``leakGrowthThreshold`` over the run.
    public var leaking: Bool

    /// Growth over the run below this is allocator noise, not a leak.
    public static let leakGrowthThreshold = 512 * 1024
    /// The fit quality a leak needs.
    public static let leakRSquaredThreshold = 0.8

    /// One footprint sample: the process, how many calls it had served, its footprint.
    public struct Sample: Sendable, Equatable {
        public var pid: Int32
        public var callsServed: Int
        public var bytes: Int

        public init(pid: Int32, callsServed: Int, bytes: Int) {
            self.pid = pid
            self.callsServed = callsServed
            self.bytes = bytes
        }
    }

    public init(slopeBytesPerCall: Double, interceptBytes: Double, rSquared: Double, samples: Int, leaking: Bool) {
        self.slopeBytesPerCall = slopeBytesPerCall
        self.interceptBytes = interceptBytes
        self.rSquared = rSquared
        self.samples = samples
        self.leaking = leaking
    }

    /// Fits `samples`; nil with fewer than three.
    public init?(_ samples: [Sample]) {
        guard samples.count >= 3 else { return nil }
        let byProcess = Dictionary(grouping: samples, by: \.pid)
        var crossProducts = 0.0, xSquares = 0.0, ySquares = 0.0
        for group in byProcess.values {
            let meanX = group.map { Double($0.callsServed) }.reduce(0, +) / Double(group.count)
            let meanY = group.map { Double($0.bytes) }.reduce(0, +) / Double(group.count)
            for sample in group {
                let dx = Double(sample.callsServed) - meanX, dy = Double(sample.bytes) - meanY
                crossProducts += dx * dy
                xSquares += dx * dx
                ySquares += dy * dy
            }
        }
        let slope = xSquares > 0 ? crossProducts / xSquares : 0
        let explained = xSquares > 0 && ySquares > 0 ? (crossProducts * crossProducts) / (xSquares * ySquares) : 0
        let longest = byProcess.values.max { $0.count < $1.count }!
        let meanX = longest.map { Double($0.callsServed) }.reduce(0, +) / Double(longest.count)
        let meanY = longest.map { Double($0.bytes) }.reduce(0, +) / Double(longest.count)
        let span = Double(longest.map(\.callsServed).max()! - longest.map(\.callsServed).min()!)
        self.init(slopeBytesPerCall: slope, interceptBytes: meanY - slope * meanX, rSquared: explained,
                  samples: samples.count,
                  leaking: explained >= Self.leakRSquaredThreshold && slope * span >= Double(Self.leakGrowthThreshold))
    }

    /// Calls until the footprint reaches `limitBytes` from `currentBytes`, if it leaks.
    public func callsToLimit(from currentBytes: Int, limitBytes: Int) -> Int? {
        guard leaking, slopeBytesPerCall > 0 else { return nil }
        return Swift.max(0, Int((Double(limitBytes - currentBytes) / slopeBytesPerCall).rounded(.down)))
    }
}
