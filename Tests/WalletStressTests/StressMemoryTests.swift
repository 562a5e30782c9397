import Testing
import WalletStress

/// Leak detection against real processes: the helper's `leak-kb` mode keeps memory on every
/// call, `churn-kb` uses as much and gives it back.
@Suite(.serialized, .timeLimit(.minutes(2))) struct StressMemoryTests {
    @Test func aHandlerThatKeeps256KBPerCallIsReportedLeakingWithASensibleProjection() async throws {
        let (_, report) = try await StressRunHarness.run(mode: "leak-kb 256", plan: StressRunHarness.plan(calls: 120))
        #expect(report.failed == 0)
        let fit = try #require(report.memory.leakFit)
        #expect(fit.leaking)
        #expect(fit.rSquared > 0.95)
        // 256 KB of data plus malloc's header page.
        #expect((250_000...280_000).contains(report.memory.leakBytesPerCall), "\(report.memory.leakBytesPerCall) bytes per call")
        let last = try #require(report.memory.lastBytes)
        let expected = Double(report.memory.limitBytes - last) / 262_144
        let projected = Double(try #require(report.memory.projectedCallsToLimit))
        #expect(abs(projected - expected) <= expected * 0.1, "projected \(projected) calls, expected about \(expected)")
        #expect(report.memorySentence.contains("killed after about"))
    }

    @Test func aHandlerThatKeepsNothingIsNotReportedLeaking() async throws {
        let (_, report) = try await StressRunHarness.run(mode: "churn-kb 256", plan: StressRunHarness.plan(calls: 300))
        #expect(report.failed == 0)
        let fit = try #require(report.memory.leakFit)
        #expect(!fit.leaking, "slope \(fit.slopeBytesPerCall), R² \(fit.rSquared)")
        #expect(report.memory.leakBytesPerCall == 0)
        #expect(report.memory.projectedCallsToLimit == nil)
        #expect(report.memorySentence.contains("no leak"))
    }

    @Test func theLowestWorkingMemoryLimitIsFoundBetweenAFailingAndAWorkingProbe() async throws {
        let (descriptor, configuration) = try StressRunHarness.helper(mode: "normal")
        let outcome = await MemoryLimitSearch.run(descriptor: descriptor, configuration: configuration,
                                                  plan: StressRunHarness.plan(calls: 5))
        let lowest = try #require(outcome.lowestWorkingBytes, "\(outcome.sentence)")
        #expect(lowest > 1 << 20 && lowest < outcome.ceilingBytes)
        // The probe just under the answer failed, and it failed for memory, at launch or in a call.
        let below = outcome.probes.filter { !$0.succeeded && $0.limitBytes < lowest }.map(\.limitBytes).max()
        let gap = lowest - (try #require(below))
        #expect(gap <= outcome.resolutionBytes)
        #expect(outcome.sentence.contains("of headroom"))
    }
}
