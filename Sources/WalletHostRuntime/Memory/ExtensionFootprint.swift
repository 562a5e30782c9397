import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The footprint of one extension, everything it runs counted (``MemoryUsage``): what the host
/// samples and compares with the memory limit.
///
/// With a control group (``ExtensionControlGroup``) a sample reads its `memory.stat` (about
/// 20 µs of the kernel's time). Without one it walks the extension's processes from `root` (the
/// sandbox init, whose tree is the PID namespace, or the unsandboxed extension) and adds the
/// sandbox's private `/tmp` and `/dev/shm`: about 100 µs of the host's I/O thread for a Swift extension's
/// processes and threads. ``quickSample(maxAge:)``, taken at the end of every call, costs one
/// `pread` of the extension's own `statm` and adds what the rest held at the last full sample;
/// so do the periodic samples without a control group between full counts
/// (``periodicSample(fullCountAge:limitBytes:)``).
final class ExtensionFootprint: Sendable {
    /// Without a control group: the oldest full count a sample during calls builds on. Growth in
    /// the extension's own process is seen at the sampling rate; in its other processes and its
    /// `/tmp`, within this.
    static let fullCountAgeDuringCalls: Duration = .milliseconds(100)

    /// The same while no call is in flight (an idle extension is sampled every 100 ms): 100 idle
    /// extensions counted in full at every sample cost the daemon a tenth of a core. A second,
    /// and up to half a second more by the pid: idle samples fall on a grid shared by every
    /// process, and the full counts (about 100 µs each) are spread over its ticks rather than
    /// made all in one.
    var fullCountAgeIdle: Duration { .seconds(1) + .milliseconds(50) * Int(pid % 10) }

    /// A sample's total, and whether it is an estimate: the extension's own footprint now plus
    /// the rest as the last full count found it.
    struct Sample {
        var bytes: Int
        var estimated: Bool
    }

    /// The last full sample: when, the total, and the extension's own part of it.
    private struct FullSample {
        var at: ContinuousClock.Instant
        var total: Int
        var own: Int
    }

    /// The extension's own process: its footprint reader stays open (one `pread` a sample).
    let pid: pid_t
    /// Where the process tree starts.
    let root: pid_t
    let controlGroup: ExtensionControlGroup?
    private let ownFootprint: FootprintReader
    /// The sandbox's private `/tmp` and `/dev/shm` (their tmpfs roots, opened through
    /// `/proc/INIT/root`); none unsandboxed.
    private let temporaryDirectories: [Int32]
    /// Without a control group: memfds and SysV segments, which no process's footprint shows.
    private let heldShared: HeldSharedMemory?
    private let lastFull = Mutex<FullSample?>(nil)
    /// What a full count's age is measured on: the host loop's clock, so that a test advances it.
    private let clock: any HostClock

    /// - Parameters:
    ///   - rootDescriptor: the sandbox init's pidfd (-1 unsandboxed), through which the SysV
    ///     segments of its IPC namespace are counted.
    ///   - clock: the clock a full count's age is read on.
    init(pid: pid_t, root: pid_t, sandboxed: Bool, controlGroup: ExtensionControlGroup?, rootDescriptor: Int32 = -1,
         clock: any HostClock = SystemHostClock()) {
        self.pid = pid
        self.clock = clock
        self.root = root
        self.controlGroup = controlGroup
        ownFootprint = FootprintReader(pid: pid)
        temporaryDirectories = sandboxed && controlGroup == nil
            ? ["tmp", "dev/shm"].map { open("/proc/\(root)/root/\($0)", O_RDONLY | O_DIRECTORY | O_CLOEXEC) }.filter { $0 >= 0 }
            : []
        heldShared = controlGroup == nil ? HeldSharedMemory(initPIDFD: sandboxed ? rootDescriptor : -1) : nil
    }

    deinit {
        temporaryDirectories.forEach { SystemCall.close($0) }
    }

    /// The total now, in bytes; nil when nothing of the extension is left to count.
    func sample() -> Int? {
        let own = ownFootprint.sample()
        let total: Int?
        if let controlGroup {
            total = controlGroup.residentAndShared().map { $0.resident + $0.shared }
        } else if let own {
            let members = ProcessTree.members(root: root)
            let others = members.filter { $0 != pid }
            total = others.reduce(own) { $0 + (FootprintReader.footprintBytes(of: $1) ?? 0) } + temporaryBytes()
                + (heldShared?.bytes(processes: members) ?? 0)
        } else {
            total = nil
        }
        if let total { lastFull.withLock { $0 = FullSample(at: clock.now(), total: total, own: own ?? 0) } }
        return total
    }

    /// The total, cheaply: the extension's own footprint now plus what everything else held at
    /// the last full sample, when that is at most `maxAge` old; else a full ``sample()``.
    func quickSample(maxAge: Duration) -> Int? {
        estimate(maxAge: maxAge)?.bytes
    }

    /// A sample on the sampling timer: with a control group a full one (the group's count is one
    /// read); without one, ``quickSample(maxAge:)`` on a full count at most `fullCountAge` old.
    /// An estimate over `limitBytes` is counted again in full: the other processes may have
    /// shrunk or gone since, and what the host kills for is never an estimate.
    func periodicSample(fullCountAge: Duration, limitBytes: Int) -> Sample? {
        let sampled = controlGroup == nil ? estimate(maxAge: fullCountAge) : fullSample()
        guard let sampled, sampled.estimated && sampled.bytes > limitBytes else { return sampled }
        return fullSample()
    }

    private func fullSample() -> Sample? {
        sample().map { Sample(bytes: $0, estimated: false) }
    }

    private func estimate(maxAge: Duration) -> Sample? {
        guard let last = lastFull.withLock({ $0 }), clock.now() - last.at <= maxAge,
              let own = ownFootprint.sample() else { return fullSample() }
        return Sample(bytes: own + max(0, last.total - last.own), estimated: true)
    }

    /// What the total is made of now: every process and its footprint, and shared memory.
    func usage() -> MemoryUsage {
        let members = controlGroup?.processes() ?? ProcessTree.members(root: root)
        let processes = members.compactMap { member -> MemoryUsage.Process? in
            guard let bytes = FootprintReader.footprintBytes(of: member) else { return nil }
            return MemoryUsage.Process(name: ProcessTree.name(of: member), pid: member, footprintBytes: bytes)
        }
        if let controlGroup, let counted = controlGroup.residentAndShared() {
            return MemoryUsage(totalBytes: counted.resident + counted.shared, processes: processes,
                               sharedBytes: counted.shared, accounting: .controlGroup)
        }
        let shared = temporaryBytes() + (heldShared?.bytes(processes: members) ?? 0)
        return MemoryUsage(totalBytes: processes.reduce(shared) { $0 + $1.footprintBytes }, processes: processes,
                           sharedBytes: shared, accounting: .processes)
    }

    /// What the files in the sandbox's private `/tmp` and `/dev/shm` hold (tmpfs pages are memory).
    private func temporaryBytes() -> Int {
        temporaryDirectories.reduce(0) { total, directory in
            var status = statvfs()
            guard fstatvfs(directory, &status) == 0 else { return total }
            return total + Int(status.f_blocks - status.f_bfree) * Int(status.f_frsize)
        }
    }
}
