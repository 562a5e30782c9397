import Testing
import WalletStress

/// `--cpu-share`: stopping and continuing the extension's process group slows it down.
@Suite(.serialized, .timeLimit(.minutes(2))) struct StressCPUShareTests {
    @Test func aSmallShareOfOneCoreRaisesColdLatency() async throws {
        func coldStatus(share: Double?) async throws -> Double {
            let plan = StressRunHarness.plan(calls: 6) {
                $0.coldEvery = 1
                $0.cpuSharePercent = share
            }
            let (_, report) = try await StressRunHarness.run(mode: "normal", plan: plan)
            #expect(report.failed == 0)
            return try #require(report.methods["status"]).cold.latencyMs.p50
        }
        let full = try await coldStatus(share: nil)
        let tenth = try await coldStatus(share: 10)
        #expect(tenth > full * 2, "cold status p50 \(full) ms at full speed, \(tenth) ms at 10% of a core")
    }

    @Test func theSearchFindsTheShareWhereStatusStartsMissing() async throws {
        // An 80 ms deadline keeps the search short and leaves a loaded machine room for the helper's
        // cold launch at full speed (40 ms missed under the full suite).
        let (descriptor, configuration) = try StressRunHarness.helper(mode: "normal", statusDeadline: .milliseconds(80))
        let outcome = await CPUShareSearch.run(descriptor: descriptor, configuration: configuration, callsPerProbe: 4)
        let passing = try #require(outcome.lowestPassingSharePercent, "\(outcome.sentence)")
        if let missing = outcome.highestMissingSharePercent {
            #expect(missing < passing)
            #expect(passing - missing <= 1)
            #expect(outcome.sentence.contains("starts missing 80.0 ms below"))
        }
        #expect(outcome.probes.count >= 2)
    }
}
