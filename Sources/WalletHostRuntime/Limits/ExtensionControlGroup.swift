import CWalletSpawn
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One extension launch's control groups (cgroup v1), `HOST/EXECUTABLE-N` in the `memory` and
/// `pids` hierarchies (``ControlGroupHierarchy``): the spawned child moves itself into both
/// before it runs anything, so every process it starts, every thread, and every page of shared
/// memory and tmpfs it writes is counted there.
///
/// - `pids.max` is ``ProcessLimits/tasksPerExtension``: a fork bomb stops there, and other
///   extensions, which run as the same user, are not affected.
/// - `memory.limit_in_bytes` is the memory limit plus ``hardLimitHeadroomBytes``: a backstop for
///   the kernel. The host's sampling (``ExtensionFootprint``) kills at exactly the limit; the
///   group's usage also holds kernel memory and page cache, which a legitimate extension must not
///   be killed for. When the kernel's OOM killer ends a process at the backstop, the host kills
///   the rest and reports a memory death.
/// - Where the host has a `cpu` hierarchy (``ControlGroupHierarchy/cpuDirectory``), a `cpu` group
///   too: `cpu.shares` 1024 for every extension (equal shares, however many processes each runs),
///   and `cpu.cfs_quota_us` ``idleQuotaMicroseconds`` while no call is in flight (Wallet suspends
///   an extension that answered), lifted before the next request is written.
final class ExtensionControlGroup: Sendable {
    /// Above the memory limit, for what the group's usage counts and footprint does not: page
    /// tables, kernel stacks (16 KB for each of up to 256 tasks), pipe buffers (up to 1 MB on
    /// fd 4), slab; page cache is reclaimed before the kernel kills. Measured with the test
    /// helper (Swift, Foundation): usage is its footprint plus about 0.4 MB of kernel memory,
    /// plus up to 1.7 MB of page cache on a cold start.
    static let hardLimitHeadroomBytes = 16 << 20

    /// `HOST/EXECUTABLE-N` in each hierarchy.
    let memoryPath: String
    let pidsPath: String
    /// Nil where the host has no `cpu` hierarchy.
    let cpuPath: String?
    /// `cpu.shares` of every extension's group: equal, the kernel's default weight.
    static let cpuShares = 1024
    /// `cpu.cfs_quota_us` while no call is in flight: 5 ms of each 100 ms period, 5% of one CPU
    /// for everything the extension runs.
    static let idleQuotaMicroseconds = 5_000
    /// How long after the last request written (and no call in flight) the idle quota comes:
    /// calls that follow each other closely cost no write.
    static let idleQuotaGrace: Duration = .milliseconds(20)
    /// `cpu.cfs_quota_us` while calls are in flight (``ControlGroupHierarchy/busyQuotaMicroseconds``).
    let busyQuotaMicroseconds: Int
    /// `cpu.cfs_quota_us`, kept open for writing; -1 without a `cpu` group.
    let cpuQuota: Int32
    /// Whether the idle quota holds; changed with its write under ``quotaLock``, so that the
    /// last write is always the state recorded (a lift and an imposition may race).
    let idleQuotaImposed = Atomic<Bool>(false)
    let quotaLock = Mutex(())
    /// `memory.limit_in_bytes`.
    let hardLimitBytes: Int
    /// The `tasks` files the child writes itself into (closed once it was spawned). `tasks`, not
    /// `cgroup.procs`: moving a whole process takes the kernel's global threadgroup lock for
    /// writing, which waits for an RCU grace period (1-24 ms measured here for a fresh host);
    /// moving one thread does not, and the child is one thread when it moves (a clone that has
    /// not yet exec'd), so everything it starts afterwards is born in the groups.
    let procsDescriptors: [Int32]
    /// `memory.stat` and `memory.oom_control`, kept open: a sample is one `pread` each.
    let memoryStat: Int32
    let oomControl: Int32
    /// `memory.usage_in_bytes`, kept open: the threshold event's file, read when it fires.
    let memoryUsage: Int32
    /// An eventfd the kernel signals when its OOM killer acts and, once ``usageWatched``, when the
    /// group's usage crosses ``memoryWatchThresholdBytes`` (either way); -1 when the kernel refused
    /// the events. While usage stays below the threshold, the footprint (`rss` + `shmem`, which
    /// usage counts) is too: an idle extension needs no sampling, and its I/O thread no waking,
    /// until it fires.
    let memoryEvents: Int32
    /// 90% of the memory limit: above it, the host samples an idle extension again.
    let memoryWatchThresholdBytes: Int
    private let procsClosed = Atomic<Bool>(false)
    let descriptorsClosed = Atomic<Bool>(false)
    /// The usage threshold is registered on ``memoryEvents`` (``watchUsage(then:)``).
    let usageWatchRegistered = Atomic<Bool>(false)
    /// Held while the threshold is registered: the descriptors it names are not closed meanwhile.
    let usageWatchLock = Mutex(())

    private static let launches = Atomic<Int>(0)

    /// Makes the groups for one launch of `executableName`, with its limits.
    /// - Throws: ``ControlGroupError`` naming the file that could not be made or written.
    init(executableName: String, memoryLimitBytes: Int, hierarchy: ControlGroupHierarchy) throws(ControlGroupError) {
        let safeName = String(executableName.unicodeScalars.map { scalar -> Character in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "." || scalar == "-" ? Character(scalar) : "_"
        }.prefix(64))
        let name = "\(safeName)-\(Self.launches.wrappingAdd(1, ordering: .relaxed).newValue)"
        memoryPath = hierarchy.memoryDirectory + "/" + name
        pidsPath = hierarchy.pidsDirectory + "/" + name
        cpuPath = hierarchy.cpuDirectory.map { $0 + "/" + name }
        busyQuotaMicroseconds = hierarchy.busyQuotaMicroseconds
        hardLimitBytes = memoryLimitBytes + Self.hardLimitHeadroomBytes
        var opened: [Int32] = []
        var made: [String] = []
        do throws(ControlGroupError) {
            for path in [memoryPath, pidsPath] + [cpuPath].compactMap({ $0 }) {
                guard mkdir(path, 0o755) == 0 else { throw ControlGroupError("cannot create \(path): \(String(cString: strerror(errno)))") }
                made.append(path)
            }
            try Self.write("\(hardLimitBytes)", to: memoryPath + "/memory.limit_in_bytes")
            try Self.write("\(ProcessLimits.tasksPerExtension)", to: pidsPath + "/pids.max")
            if let cpuPath {
                try Self.write("\(Self.cpuShares)", to: cpuPath + "/cpu.shares")
                try Self.write("\(busyQuotaMicroseconds)", to: cpuPath + "/cpu.cfs_quota_us")
            }
            let cpuFiles = cpuPath.map { [$0 + "/tasks", $0 + "/cpu.cfs_quota_us"] } ?? []
            for path in [memoryPath + "/tasks", pidsPath + "/tasks", memoryPath + "/memory.stat",
                         memoryPath + "/memory.oom_control", memoryPath + "/memory.usage_in_bytes"] + cpuFiles {
                let writes = path.hasSuffix("/tasks") || path.hasSuffix("/cpu.cfs_quota_us")
                let fd = open(path, (writes ? O_WRONLY : O_RDONLY) | O_CLOEXEC)
                guard fd >= 0 else { throw ControlGroupError("cannot open \(path): \(String(cString: strerror(errno)))") }
                opened.append(fd)
            }
        } catch {
            opened.forEach { SystemCall.close($0) }
            made.forEach { _ = rmdir($0) }
            throw error
        }
        procsDescriptors = Array(opened[0..<2]) + (cpuPath == nil ? [] : [opened[5]])
        memoryStat = opened[2]
        oomControl = opened[3]
        memoryUsage = opened[4]
        cpuQuota = cpuPath == nil ? -1 : opened[6]
        memoryWatchThresholdBytes = memoryLimitBytes / 10 * 9
        memoryEvents = Self.registerOutOfMemoryEvents(group: memoryPath, oomControl: oomControl)
    }

    deinit {
        closeProcsDescriptors()
        closeDescriptors()
    }

    /// The group for one launch, or nil where control groups cannot be had (``ControlGroups/unavailableReason`` says why).
    static func make(executableName: String, memoryLimitBytes: Int, mode: ControlGroupMode) -> ExtensionControlGroup? {
        guard mode == .auto, case .success(let hierarchy) = ControlGroupHierarchy.shared() else { return nil }
        do {
            return try ExtensionControlGroup(executableName: executableName, memoryLimitBytes: memoryLimitBytes,
                                             hierarchy: hierarchy)
        } catch {
            ControlGroups.noteLaunchFailure(error)
            return nil
        }
    }

    static func write(_ text: String, to path: String) throws(ControlGroupError) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        var failure = errno
        var written = -1
        if fd >= 0 {
            do {
                written = try text.withCString { try SystemCall.write(fd, UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
            } catch {
                failure = (error as? SystemCallError)?.errno ?? EIO
            }
            SystemCall.close(fd)
        }
        guard written == text.utf8.count else {
            throw ControlGroupError("cannot write \(text) to \(path): \(String(cString: strerror(failure)))")
        }
    }

    /// Once the child has moved in: the host needs the `cgroup.procs` descriptors no more (idempotent).
    func closeProcsDescriptors() {
        guard !procsClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        procsDescriptors.forEach { SystemCall.close($0) }
    }

    /// Closes the control files the host keeps open (idempotent); the quota is written no more.
    func closeDescriptors() {
        guard !descriptorsClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        SystemCall.close(memoryStat)
        SystemCall.close(oomControl)
        // Not while the threshold is being registered: it names both descriptors.
        usageWatchLock.withLock { _ in
            SystemCall.close(memoryUsage)
            if memoryEvents >= 0 { SystemCall.close(memoryEvents) }
        }
        // Under the quota's lock: no write may reach a descriptor number reused since.
        if cpuQuota >= 0 { quotaLock.withLock { _ in SystemCall.close(cpuQuota) } }
    }
}
