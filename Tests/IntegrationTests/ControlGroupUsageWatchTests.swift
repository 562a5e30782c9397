import Foundation
import Testing
@testable import WalletHostRuntime

/// A launch's memory group is made without waiting for its usage watch: the kernel answers the
/// threshold's registration only after an RCU grace period (8-17 ms here, most of what control
/// groups added to a launch), so it is registered after, on a thread of its own.
@Suite(.serialized)
struct ControlGroupUsageWatchTests {
    @Test("a new group has the OOM event but not yet the usage watch; the watch comes after, on its own thread",
          .enabled(if: ExtensionLimitsTests.controlGroupsAvailable, "needs control groups (a root host with cgroup v1 memory and pids)"))
    func usageWatchComesAfterTheGroup() async throws {
        let group = try #require(ExtensionControlGroup.make(executableName: "UsageWatchTest", memoryLimitBytes: 55 << 20, mode: .auto))
        defer { group.remove() }
        #expect(group.memoryEvents >= 0, "the OOM event is registered with the group")
        #expect(!group.usageWatched, "the usage watch was registered while the group was made")
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            group.watchUsage { continuation.resume() }
        }
        #expect(group.usageWatched)
    }

    @Test("a group removed while its usage watch is being registered closes its descriptors only after",
          .enabled(if: ExtensionLimitsTests.controlGroupsAvailable, "needs control groups (a root host with cgroup v1 memory and pids)"))
    func removalWaitsForTheRegistration() throws {
        for _ in 0..<5 {
            let group = try #require(ExtensionControlGroup.make(executableName: "UsageWatchTest", memoryLimitBytes: 55 << 20, mode: .auto))
            group.watchUsage {}
            #expect(group.remove(), "the group's directories were not removed")
        }
    }
}
