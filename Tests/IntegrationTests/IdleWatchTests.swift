import Foundation
import Testing
import WalletHostRuntime
import WalletHostTestSupport
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A warm extension with nothing to do costs its host nothing: in a control group, the kernel's
/// memory events watch it and its I/O thread sleeps; without one, the thread samples it on a timer.
@Suite(.serialized)
struct IdleWatchTests {
    @Test("an idle extension in a control group leaves its I/O thread asleep; without one the thread samples it",
          .enabled(if: ExtensionLimitsTests.controlGroupsAvailable, "needs control groups (a root host with cgroup v1 memory and pids)"),
          arguments: [ControlGroupMode.auto, .off])
    func idleWakeups(controlGroups: ControlGroupMode) async throws {
        let (runner, _, _) = try ExampleBundles.runner(appex: ExampleBundles.testHelperAppex) { $0.controlGroups = controlGroups }
        guard case .success = await runner.prewarm() else {
            Issue.record("the test helper did not start")
            return
        }
        defer { Task { await runner.stop() } }
        let pid = try #require(runner.pid)
        let thread = try #require(Self.thread(named: "wh-io.\(pid)"), "no I/O thread for \(pid)")
        // Let the launch's own samples pass, then count what three idle seconds cost.
        try await Task.sleep(for: .milliseconds(500))
        let before = try #require(Self.voluntarySwitches(thread))
        try await Task.sleep(for: .seconds(3))
        let wakeups = try #require(Self.voluntarySwitches(thread)) - before
        if controlGroups == .auto {
            #expect(wakeups <= 10, "\(wakeups) wake-ups in 3 idle seconds")
        } else {
            #expect(wakeups >= 20, "\(wakeups) wake-ups in 3 idle seconds: without a control group the thread samples")
        }
    }

    /// The id of this process's thread called `name` (`/proc/self/task/TID/comm`).
    static func thread(named name: String) -> String? {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.first { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines) == name
        }
    }

    /// How often the thread gave up the processor of its own accord: once per sleep it woke from.
    static func voluntarySwitches(_ thread: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/task/\(thread)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") })
        else { return nil }
        return Int(line.split(separator: "\t").last ?? "")
    }
}
