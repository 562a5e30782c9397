import Foundation
import Testing
import WalletHostRuntime
import WalletHostTestSupport
import WalletTestSupport
import WalletWire

@Suite("Deadlines, late and double completions", .serialized, .timeLimit(.minutes(2)))
struct DeadlineTests {
    /// Wallet's own status deadline, which ExampleBundles relaxes for tests about other things.
    static let walletStatus: @Sendable (inout HostConfiguration) -> Void = { $0.deadlineOverrides[WireMethod.status] = nil }

    @Test("a status that takes 150 ms misses the 100 ms deadline at once; the late answer is dropped and logged")
    func slowStatusMisses() async throws {
        let (runner, events, outcome) = try await Self.slowStatus()
        let error = try #require(outcome.result.failureValue, "a 150 ms status must miss the 100 ms deadline")
        #expect(error.kind == .deadlineExceeded)
        #expect(error.message.contains("100 ms"))
        #expect(error.message.contains("Wallet would not list the app"))
        // The caller hears at the deadline, not when the extension finally answers.
        #expect(outcome.totalMilliseconds < 180)
        await events.waitForEvent("a late completion or an acknowledged cancel") { $0.kind == .lateCompletion || $0.kind == .cancelAcknowledged }
        await runner.stop()
    }

    @Test("a missed deadline names the consequence of the point the runner was given, not Wallet's")
    func consequenceComesFromTheGivenPoint() async throws {
        let status = ExtensionMethod(name: WireMethod.status, deadline: .milliseconds(100),
                                     consequence: DeadlineConsequence("the other host would hide the card"))
        let point = ExtensionPoint(identifier: WalletExtensionPoint.nonUI, role: .nonUI, methods: [status], memoryLimitBytes: 55 << 20)
        let (runner, _, outcome) = try await Self.slowStatus(point: point)
        let error = try #require(outcome.result.failureValue, "a 150 ms status must miss the 100 ms deadline")
        #expect(error.message.contains("the other host would hide the card"), "\(error.message)")
        #expect(!error.message.contains("Wallet would"), "\(error.message)")
        await runner.stop()
    }

    /// The helper's runner, warmed up, then asked for a status it answers in 150 ms.
    /// - Parameter point: The extension point to run it as; the bundle's (Wallet's) when nil.
    private static func slowStatus(point: ExtensionPoint? = nil) async throws
        -> (ExtensionRunner, EventCollector, CallOutcome<StatusResult>) {
        let appex = try ExampleBundles.testHelper(mode: "normal")
        let (runner, events, _) = try ExampleBundles.runner(appex: appex, point: point, configure: walletStatus)
        await runner.prewarm()
        try ExampleBundles.setMode("slow-status 150", appex: appex)
        return (runner, events, await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self))
    }

    @Test("a status that takes 50 ms passes")
    func fiftyMillisecondStatusPasses() async throws {
        let appex = try ExampleBundles.testHelper(mode: "normal")
        let (runner, _, _) = try ExampleBundles.runner(appex: appex, configure: Self.walletStatus)
        await runner.prewarm()
        try ExampleBundles.setMode("slow-status 50", appex: appex)
        let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        let status = try outcome.result.get()
        #expect(status.passEntriesAvailable)
        #expect(outcome.totalMilliseconds >= 50)
        await runner.stop()
    }

    @Test("a cold status counts the launch against the deadline")
    func slowLaunchMissesStatus() async throws {
        let appex = try ExampleBundles.testHelper(mode: "slow-launch 200")
        let (runner, _, _) = try ExampleBundles.runner(appex: appex, configure: Self.walletStatus)
        let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        let error = try #require(outcome.result.failureValue, "a 200 ms launch must miss the 100 ms status deadline")
        #expect(error.kind == .deadlineExceeded)
        #expect(error.message.contains("launch"))
        #expect(outcome.launchedProcess)
        await runner.stop()
    }

    @Test("a late completion is dropped and logged; the process stays warm")
    func lateCompletionDropped() async throws {
        let appex = try ExampleBundles.testHelper(mode: "normal")
        let (runner, events, _) = try ExampleBundles.runner(appex: appex) {
            $0.hangGrace = .seconds(2)
            $0.deadlineOverrides[WireMethod.status] = nil
        }
        await runner.prewarm()
        let pid = runner.pid
        try ExampleBundles.setMode("late-complete 200", appex: appex)
        let late = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        #expect((try? late.result.get()) == nil)
        await events.waitForEvent("a late completion") { $0.kind == .lateCompletion }
        let event = try #require(events.events.first { $0.kind == .lateCompletion })
        #expect(event.message.contains("dropped"))

        try ExampleBundles.setMode("normal", appex: appex)
        let next = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        #expect((try? next.result.get()) != nil)
        #expect(runner.pid == pid)
        await runner.stop()
    }

    @Test("a second completion of one request is dropped and logged")
    func doubleCompletionDropped() async throws {
        let appex = try ExampleBundles.testHelper(mode: "double-complete")
        let (runner, events, _) = try ExampleBundles.runner(appex: appex)
        let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        #expect((try? outcome.result.get()) != nil)
        await events.waitForEvent("a double completion") { $0.kind == .doubleCompletion }
        #expect(events.events.filter { $0.kind == .result && $0.method == WireMethod.status }.count == 1)
        await runner.stop()
    }

    @Test("a hung extension is stopped after the grace and relaunched on next use")
    func hungExtensionIsStoppedAndRelaunched() async throws {
        let appex = try ExampleBundles.testHelper(mode: "normal")
        let (runner, events, _) = try ExampleBundles.runner(appex: appex) {
            $0.hangGrace = .milliseconds(300)
            $0.deadlineOverrides[WireMethod.status] = nil
        }
        await runner.prewarm()
        let firstPID = runner.pid
        try ExampleBundles.setMode("hang", appex: appex)
        let hung = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        #expect((try? hung.result.get()) == nil)
        await events.waitForEvent("the exit") { $0.kind == .exit }
        #expect(events.events.contains { $0.kind == .hung })

        try ExampleBundles.setMode("normal", appex: appex)
        let next = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        #expect((try? next.result.get()) != nil)
        #expect(next.launchedProcess)
        #expect(runner.pid != firstPID)
        #expect(runner.launchCount == 2)
        await runner.stop()
    }

    @Test("deadline overrides replace Wallet's defaults")
    func deadlineOverride() async throws {
        let appex = try ExampleBundles.testHelper(mode: "normal")
        let (runner, _, _) = try ExampleBundles.runner(appex: appex) { $0.deadlineOverrides["status"] = .milliseconds(400) }
        await runner.prewarm()
        try ExampleBundles.setMode("slow-status 150", appex: appex)
        let outcome = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        #expect((try? outcome.result.get()) != nil)
        await runner.stop()
    }
}
