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
///
/// The extensions run on a loop of the test's own, on a ``TestClock``: the idle seconds are the
/// clock advanced in the reactor's 50 ms steps, not waited for.
@Suite(.serialized)
struct IdleWatchTests {
    @Test("an idle extension in a control group costs the I/O reactor a turn a second at most; without one the reactor samples it",
          .enabled(if: ExtensionLimitsTests.controlGroupsAvailable, "needs control groups (a root host with cgroup v1 memory and pids)"),
          arguments: [ControlGroupMode.auto, .off])
    func idleWakeups(controlGroups: ControlGroupMode) async throws {
        let clock = TestClock()
        let loop = try HostLoop(clock: clock, threadName: "wh-idle-test")
        let (runner, _, _) = try ExampleBundles.runner(appex: ExampleBundles.testHelperAppex) {
            $0.controlGroups = controlGroups
            $0.loop = loop
            $0.clock = clock
        }
        guard case .success = await runner.prewarm() else {
            Issue.record("the test helper did not start")
            return
        }
        // The usage watch is set up on a thread of its own after the launch (the kernel takes an
        // RCU grace for it): real time, so waited for.
        if controlGroups == .auto {
            let giveUp = ContinuousClock.now + .seconds(5)
            while runner.controlGroupUsageWatched == false, ContinuousClock.now < giveUp {
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        // Let the launch's own samples pass, then count what 1.5 idle seconds cost: a watched
        // extension gets a turn a second (1 or 2 here), a sampled one twenty (one a poll).
        await Self.advance(clock, loop, by: .milliseconds(500))
        let before = try #require(runner.reactorTurns)
        await Self.advance(clock, loop, by: .milliseconds(1500))
        let wakeups = try #require(runner.reactorTurns) - before
        if controlGroups == .auto {
            #expect(wakeups <= 5, "\(wakeups) turns in 1.5 idle seconds")
        } else {
            #expect(wakeups >= 20, "\(wakeups) turns in 1.5 idle seconds: without a control group the reactor samples")
        }
        await runner.stop()
        await loop.shutdown()
    }

    @Test("idle extensions without a control group are polled together: one wake-up of the reactor serves many turns")
    func idlePollsShareWakeups() async throws {
        let clock = TestClock()
        let loop = try HostLoop(clock: clock, threadName: "wh-idle-test")
        let runners = try (0..<20).map { _ in
            try ExampleBundles.runner(appex: ExampleBundles.testHelperAppex) {
                $0.controlGroups = .off
                $0.loop = loop
                $0.clock = clock
            }.0
        }
        for runner in runners {
            guard case .success = await runner.prewarm() else {
                Issue.record("the test helper did not start")
                return
            }
        }
        let reactor = try SupervisorReactor.on(loop, for: "")
        await Self.advance(clock, loop, by: .milliseconds(500))
        let turnsBefore = runners.compactMap(\.reactorTurns).reduce(0, +)
        let wakeupsBefore = reactor.wakeups.load(ordering: .relaxed)
        await Self.advance(clock, loop, by: .seconds(1))
        let turns = runners.compactMap(\.reactorTurns).reduce(0, +) - turnsBefore
        let wakeups = reactor.wakeups.load(ordering: .relaxed) - wakeupsBefore
        // Each polled every 50 ms: 400 turns, in 20 wake-ups (one a step of the clock). Apart,
        // each turn was a wake-up of its own.
        #expect(turns >= 300, "\(turns) turns of 20 idle extensions in 1 s")
        #expect(wakeups * 5 <= turns, "\(wakeups) wake-ups for \(turns) turns: the idle polls did not fall together")
        for runner in runners { await runner.stop() }
        await loop.shutdown()
    }

    /// Moves `clock` forward by `duration` in the reactor's 50 ms steps, each step's timers and
    /// turns done on `loop` before the next.
    static func advance(_ clock: TestClock, _ loop: HostLoop, by duration: Duration) async {
        var left = duration
        while left > .zero {
            let step = min(left, .milliseconds(50))
            clock.advance(by: step)
            await settle(loop)
            left -= step
        }
    }

    /// Returns once `loop` has run what the clock's last move made due: its timers run in the
    /// first wake-up that reads the new time, the turns they ask for in that wake-up's posted
    /// work; work posted three wake-ups in a row ends after both.
    static func settle(_ loop: HostLoop) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            loop.execute { loop.execute { loop.execute { done.resume() } } }
        }
    }
}
