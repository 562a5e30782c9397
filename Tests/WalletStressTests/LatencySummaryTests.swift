import Testing
@testable import WalletStress

@Suite struct LatencySummaryTests {
    @Test func nearestRankPercentiles() {
        let summary = LatencySummary((1...100).map(Double.init).shuffled())
        #expect(summary.count == 100)
        #expect(summary.p50 == 50)
        #expect(summary.p90 == 90)
        #expect(summary.p99 == 99)
        #expect(summary.max == 100)
    }

    @Test func oneSlowCallInAHundredIsTheMaxNotTheP99() {
        let summary = LatencySummary(Array(repeating: 1.0, count: 99) + [500])
        #expect(summary.p99 == 1)
        #expect(summary.max == 500)
    }

    @Test func emptyIsZero() {
        #expect(LatencySummary([]) == LatencySummary([Double]()))
        #expect(LatencySummary([]).p99 == 0)
    }
}
