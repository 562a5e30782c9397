import Testing
@testable import WalletStress

@Suite struct MemoryGrowthFitTests {
    private func samples(_ count: Int, pid: Int32 = 1, growth: Double, noise: Int = 0, base: Int = 1_200_000) -> [MemoryGrowthFit.Sample] {
        var generator = SplitMix64(seed: 7)
        return (1...count).map { served in
            let jitter = noise == 0 ? 0 : Int.random(in: -noise...noise, using: &generator)
            return MemoryGrowthFit.Sample(pid: pid, callsServed: served, bytes: base + Int(Double(served) * growth) + jitter)
        }
    }

    @Test func aHandlerKeeping256KBPerCallLeaksWithAGoodFit() throws {
        let fit = try #require(MemoryGrowthFit(samples(100, growth: 262_144, noise: 8192)))
        #expect(fit.leaking)
        #expect(abs(fit.slopeBytesPerCall - 262_144) < 2_000)
        #expect(fit.rSquared > 0.99)
        // 55 MB limit, 27 MB used: about 112 more calls at 256 KB each.
        #expect((110...113).contains(fit.callsToLimit(from: 27 << 20, limitBytes: 55 << 20) ?? 0))
    }

    @Test func noiseAroundAFlatLineIsNoLeak() throws {
        let fit = try #require(MemoryGrowthFit(samples(1_000, growth: 0, noise: 64 * 1024)))
        #expect(!fit.leaking)
        #expect(fit.callsToLimit(from: 1 << 20, limitBytes: 55 << 20) == nil)
    }

    @Test func aFewPagesOverALongRunAreNoLeak() throws {
        // 3 bytes per call over 10,000 calls: 30 KB, a perfect line but no leak worth the name.
        let fit = try #require(MemoryGrowthFit(samples(10_000, growth: 3)))
        #expect(fit.rSquared > 0.99)
        #expect(!fit.leaking)
    }

    @Test func aRelaunchStartsANewLineWithTheSameSlope() throws {
        // The process is killed after 60 calls; its successor starts low again.
        let first = samples(60, pid: 1, growth: 100_000)
        let second = samples(40, pid: 2, growth: 100_000, base: 900_000)
        let fit = try #require(MemoryGrowthFit(first + second))
        #expect(abs(fit.slopeBytesPerCall - 100_000) < 1)
        #expect(fit.rSquared > 0.999)
        #expect(fit.leaking)
    }

    @Test func tooFewSamplesFitNothing() {
        #expect(MemoryGrowthFit(samples(2, growth: 1_000_000)) == nil)
    }
}
