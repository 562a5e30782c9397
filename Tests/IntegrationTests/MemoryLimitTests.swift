import Foundation
import Testing
import WalletHostTestSupport
import WalletTestSupport
import WalletWire

@Suite("Memory limits", .serialized, .timeLimit(.minutes(2)))
struct MemoryLimitTests {
    @Test("40 MB in one block survives under 55 MB and its peak is recorded")
    func fortyMegabytesSurvive() async throws {
        let appex = try ExampleBundles.testHelper(mode: "allocate-mb 40")
        let (runner, _, _) = try ExampleBundles.runner(appex: appex) { $0.deadlineOverrides["status"] = .seconds(5) }
        let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        #expect((try? outcome.result.get()) != nil)
        let peak = try #require(outcome.peakFootprintBytes)
        #expect(peak >= 40 * 1024 * 1024)
        #expect(peak < 55 * 1024 * 1024)
        await runner.stop()
    }

    @Test("70 MB is killed and reported in the kernel's words; the next call relaunches", arguments: [
        "allocate-mb 70", "allocate-small-mb 70",
    ])
    func seventyMegabytesKilled(mode: String) async throws {
        let appex = try ExampleBundles.testHelper(mode: mode)
        let (runner, events, _) = try ExampleBundles.runner(appex: appex) { $0.deadlineOverrides["status"] = .seconds(5) }
        let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        let error = try #require(outcome.result.failureValue, "70 MB must not fit under 55 MB")
        #expect(error.kind == .memoryLimitExceeded)
        let pid = try #require(outcome.pid)
        #expect(error.message.contains("EXC_RESOURCE -> TestHelperExt[\(pid)] exceeded mem limit: ActiveHard 55 MB (fatal)"))
        #expect(events.events.contains { $0.kind == .exit && $0.message.contains("EXC_RESOURCE") })

        try ExampleBundles.setMode("normal", appex: appex)
        let next = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        #expect((try? next.result.get()) != nil)
        #expect(next.launchedProcess)
        #expect(next.pid != pid)
        await runner.stop()
    }

    @Test("sampling kills an extension whose footprint crosses a limit lower than its rlimit")
    func samplingEnforcesFootprint() async throws {
        let appex = try ExampleBundles.testHelper(mode: "allocate-mb 30")
        // RLIMIT_DATA stays at 20 MB too, so whichever trips first, the report is a memory death.
        let (runner, _, _) = try ExampleBundles.runner(appex: appex) {
            $0.memoryLimitOverride = 20 * 1024 * 1024
            $0.deadlineOverrides["status"] = .seconds(5)
        }
        let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        let error = try #require(outcome.result.failureValue, "30 MB must not fit under 20 MB")
        #expect(error.kind == .memoryLimitExceeded)
        #expect(error.message.contains("ActiveHard 20 MB"))
        await runner.stop()
    }
}
