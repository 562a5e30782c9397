import CWalletSpawn
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension ExtensionControlGroup {
    /// The eventfd with the OOM killer's event registered (a few microseconds), or -1 when the
    /// kernel refuses it (the host then samples idle extensions on a timer, as without control
    /// groups, and reads `memory.oom_control` itself).
    static func registerOutOfMemoryEvents(group: String, oomControl: Int32) -> Int32 {
        let control = open(group + "/cgroup.event_control", O_WRONLY | O_CLOEXEC)
        guard control >= 0 else { return -1 }
        defer { SystemCall.close(control) }
        return wh_cgroup_event(control, oomControl, nil, -1)
    }

    /// Whether the kernel signals ``memoryEvents`` when usage crosses the watch threshold: until
    /// then an idle extension is sampled on a timer.
    var usageWatched: Bool { usageWatchRegistered.load(ordering: .acquiring) }

    /// Registers the usage threshold on ``memoryEvents`` on a thread of its own, and runs
    /// `registered` there once it is. The kernel returns from that write only after an RCU grace
    /// period (8-17 ms measured here, most of what control groups added to a launch), which no
    /// launch waits for now; until it returns the reactor samples on a timer. Nothing happens
    /// without the events, or when no thread can be had (sampling goes on).
    func watchUsage(then registered: @escaping @Sendable () -> Void) {
        guard memoryEvents >= 0 else { return }
        _ = DetachedThread.start(name: "wh-mem-watch", stackBytes: 128 << 10) { [self] in
            let done = usageWatchLock.withLock { _ -> Bool in
                guard !descriptorsClosed.load(ordering: .acquiring) else { return false }
                let control = open(memoryPath + "/cgroup.event_control", O_WRONLY | O_CLOEXEC)
                guard control >= 0 else { return false }
                defer { SystemCall.close(control) }
                return wh_cgroup_event(control, memoryUsage, String(memoryWatchThresholdBytes), memoryEvents) >= 0
            }
            guard done else { return }
            usageWatchRegistered.store(true, ordering: .releasing)
            registered()
        }
    }
}
