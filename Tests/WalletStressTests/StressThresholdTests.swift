import Testing
@testable import WalletStress

@Suite struct StressThresholdTests {
    @Test func parsesTheIssuesExample() throws {
        let thresholds = try StressThreshold.parseList("status.p99>80ms,lost>0,leak>0")
        #expect(thresholds.map(\.metric) == ["status.p99", "lost", "leak"])
        #expect(thresholds[0].value == 80)
        #expect(thresholds[0].comparison == .greater)
    }

    @Test func unitsAndComparisons() throws {
        #expect(try StressThreshold("status.cold.p99>=1s").value == 1000)
        #expect(try StressThreshold("peak>40MB").value == 40 * 1024 * 1024)
        #expect(try StressThreshold("leak > 256KB").value == 256 * 1024)
        #expect(try StressThreshold("rate<10000").comparison == .less)
        #expect(try StressThreshold("failed>1%").percentOfCalls)
    }

    @Test func badExpressionsNameThePart() {
        #expect(throws: StressError.self) { try StressThreshold("status.p99") }
        do {
            _ = try StressThreshold("latency>5")
            Issue.record("an unknown metric parsed")
        } catch {
            #expect("\(error)".contains("unknown metric \"latency\""))
        }
        do {
            _ = try StressThreshold("lost>many")
            Issue.record("a bad value parsed")
        } catch {
            #expect("\(error)".contains("\"many\" is not a value"))
        }
    }

    @Test func judgedAgainstAReport() throws {
        let report = StressReport(StressFixtures.result())
        #expect(try StressThreshold("leak>0").isViolated(by: report))
        #expect(try !StressThreshold("lost>0").isViolated(by: report))
        #expect(try StressThreshold("status.misses>=1").isViolated(by: report))
        #expect(try !StressThreshold("status.warm.p99>1ms").isViolated(by: report))
        #expect(try StressThreshold("status.cold.p50>5ms").isViolated(by: report))
        // 2 of 200 calls failed: 1%.
        #expect(try StressThreshold("failed>=1%").isViolated(by: report))
        #expect(try !StressThreshold("failed>1%").isViolated(by: report))
        // A method the run did not call cannot fail a threshold.
        #expect(try !StressThreshold("passEntries.p99>0").isViolated(by: report))
    }
}
