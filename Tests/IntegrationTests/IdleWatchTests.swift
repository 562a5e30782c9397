import Foundation
import Testing
@testable import WalletHostRuntime
import WalletHostTestSupport
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A warm extension with nothing to do costs its host nothing: in a control group, the kernel's
/// memory events watch it and the I/O reactor leaves it alone; without one, the reactor samples it on a timer.
@Suite(.serialized)
struct IdleWatchTests {
    @Test("an idle extension in a control group costs the I/O reactor a turn a second at most; without one the reactor samples it",
          .enabled(if: ExtensionLimitsTests.controlGroupsAvailable, "needs control groups (a root host with cgroup v1 memory and pids)"),
          arguments: [ControlGroupMode.auto, .off])
    func idleWakeups(controlGroups: ControlGroupMode) async throws {
        let (runner, _, _) = try ExampleBundles.runner(appex: ExampleBundles.testHelperAppex) { $0.controlGroups = controlGroups }
        guard case .success = await runner.prewarm() else {
            Issue.record("the test helper did not start")
            return
        }
        defer { Task { await runner.stop() } }
        // Let the launch's own samples pass, then count what 1.5 idle seconds cost: a watched
        // extension gets a turn a second (1 or 2 here), a sampled one ten (about 15).
        try await Task.sleep(for: .milliseconds(500))
        let before = try #require(runner.reactorTurns)
        try await Task.sleep(for: .milliseconds(1500))
        let wakeups = try #require(runner.reactorTurns) - before
        if controlGroups == .auto {
            #expect(wakeups <= 5, "\(wakeups) turns in 1.5 idle seconds")
        } else {
            #expect(wakeups >= 10, "\(wakeups) turns in 1.5 idle seconds: without a control group the reactor samples")
        }
    }

    @Test("idle extensions without a control group are polled together: one wake-up of the reactor serves many turns")
    func idlePollsShareWakeups() async throws {
        let runners = try (0..<20).map { _ in
            try ExampleBundles.runner(appex: ExampleBundles.testHelperAppex) { $0.controlGroups = .off }.0
        }
        defer { Task { for runner in runners { await runner.stop() } } }
        for runner in runners {
            guard case .success = await runner.prewarm() else {
                Issue.record("the test helper did not start")
                return
            }
        }
        let reactor = try #require(SupervisorReactor.existing)
        try await Task.sleep(for: .milliseconds(500))
        let turnsBefore = runners.compactMap(\.reactorTurns).reduce(0, +)
        let wakeupsBefore = reactor.wakeups.load(ordering: .relaxed)
        try await Task.sleep(for: .seconds(1))
        let turns = runners.compactMap(\.reactorTurns).reduce(0, +) - turnsBefore
        let wakeups = reactor.wakeups.load(ordering: .relaxed) - wakeupsBefore
        // Each polled every 50 ms: about 400 turns, in about 20 wake-ups. Apart, each turn was a
        // wake-up of its own; the bound leaves room for other tests' calls in the same process.
        #expect(turns >= 200, "\(turns) turns of 20 idle extensions in 1 s")
        #expect(wakeups * 2 <= turns, "\(wakeups) wake-ups for \(turns) turns: the idle polls did not fall together")
    }
}
