import Testing
import WalletStress

/// Faults injected during calls against a real process: every call still ends with exactly one
/// result or one error, none is lost, and the host relaunches what died.
@Suite(.serialized, .timeLimit(.minutes(2))) struct StressChaosTests {
    @Test func killsStopsAndClosedDescriptorsLoseNoCall() async throws {
        let plan = StressRunHarness.plan(calls: 240) {
            $0.chaos = [.kill, .stop, .closeFd4]
            $0.chaosRate = 0.12
            $0.seed = 11
        }
        let (result, report) = try await StressRunHarness.run(mode: "normal", plan: plan, statusDeadline: .milliseconds(250))
        #expect(report.lost == 0)
        #expect(report.calls == 240)
        for record in result.records {
            // Exactly one of the two: a result, or an error with a sentence.
            #expect(record.succeeded != (record.errorKind != nil), "call \(record.index)")
            if record.errorKind != nil { #expect(!(record.message ?? "").isEmpty) }
        }
        #expect(report.chaos.kill > 0)
        #expect(report.chaos.stop > 0)
        #expect(report.chaos.closeFd4 > 0)
        #expect(report.relaunches > 0)
        // A stop held past the deadline makes its call miss it.
        #expect(result.records.contains { $0.fault == .stop && $0.errorKind == "deadlineExceeded" })
        #expect(report.host.zombies == 0)
    }

    @Test func aClosedFd4IsSeenByTheHostAsTheExtensionsOwnDoing() async throws {
        let plan = StressRunHarness.plan(calls: 60) {
            $0.chaos = [.closeFd4]
            $0.chaosRate = 0.1
            $0.seed = 5
        }
        let (result, report) = try await StressRunHarness.run(mode: "normal", plan: plan)
        #expect(report.lost == 0)
        #expect(report.chaos.closeFd4 > 0)
        // Each closed fd 4 ends that process: the next call launches a new one.
        #expect(report.relaunches >= report.chaos.closeFd4 - 1)
        #expect(result.records.contains { $0.cold && $0.index > 0 })
    }
}
