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
    private let cpuQuota: Int32
    /// Whether the idle quota holds; changed with its write under ``quotaLock``, so that the
    /// last write is always the state recorded (a lift and an imposition may race).
    private let idleQuotaImposed = Atomic<Bool>(false)
    private let quotaLock = Mutex(())
    /// `memory.limit_in_bytes`.
    let hardLimitBytes: Int
    /// The `tasks` files the child writes itself into (closed once it was spawned). `tasks`, not
    /// `cgroup.procs`: moving a whole process takes the kernel's global threadgroup lock for
    /// writing, which waits for an RCU grace period (1-24 ms measured here for a fresh host);
    /// moving one thread does not, and the child is one thread when it moves (a clone that has
    /// not yet exec'd), so everything it starts afterwards is born in the groups.
    let procsDescriptors: [Int32]
    /// `memory.stat` and `memory.oom_control`, kept open: a sample is one `pread` each.
    private let memoryStat: Int32
    private let oomControl: Int32
    /// `memory.usage_in_bytes`, kept open: the threshold event's file, read when it fires.
    private let memoryUsage: Int32
    /// An eventfd the kernel signals when its OOM killer acts and, once ``usageWatched``, when the
    /// group's usage crosses ``memoryWatchThresholdBytes`` (either way); -1 when the kernel refused
    /// the events. While usage stays below the threshold, the footprint (`rss` + `shmem`, which
    /// usage counts) is too: an idle extension needs no sampling, and its I/O thread no waking,
    /// until it fires.
    let memoryEvents: Int32
    /// 90% of the memory limit: above it, the host samples an idle extension again.
    let memoryWatchThresholdBytes: Int
    private let procsClosed = Atomic<Bool>(false)
    private let descriptorsClosed = Atomic<Bool>(false)
    /// The usage threshold is registered on ``memoryEvents`` (``watchUsage(then:)``).
    private let usageWatchRegistered = Atomic<Bool>(false)
    /// Held while the threshold is registered: the descriptors it names are not closed meanwhile.
    private let usageWatchLock = Mutex(())

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

    /// The eventfd with the OOM killer's event registered (a few microseconds), or -1 when the
    /// kernel refuses it (the host then samples idle extensions on a timer, as without control
    /// groups, and reads `memory.oom_control` itself).
    private static func registerOutOfMemoryEvents(group: String, oomControl: Int32) -> Int32 {
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

    private func closeDescriptors() {
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

    // MARK: CPU

    /// Whether the idle quota holds now.
    var idleQuotaIsImposed: Bool { idleQuotaImposed.load(ordering: .relaxed) }

    /// Bounds everything the extension runs to ``idleQuotaMicroseconds`` of each period (one
    /// write, about 0.7 µs; none when it holds already or there is no `cpu` group). The caller
    /// serializes it with ``liftIdleQuota()``.
    func imposeIdleQuota() {
        guard cpuQuota >= 0 else { return }
        quotaLock.withLock { _ in
            guard !idleQuotaImposed.load(ordering: .relaxed), !descriptorsClosed.load(ordering: .acquiring) else { return }
            idleQuotaImposed.store(true, ordering: .relaxed)
            _ = Self.writeNumber(Self.idleQuotaMicroseconds, to: cpuQuota)
        }
    }

    /// Lifts the idle quota (no lock and no write when it does not hold: a warm call's cost).
    func liftIdleQuota() {
        guard cpuQuota >= 0, idleQuotaImposed.load(ordering: .relaxed) else { return }
        quotaLock.withLock { _ in
            guard idleQuotaImposed.load(ordering: .relaxed), !descriptorsClosed.load(ordering: .acquiring) else { return }
            idleQuotaImposed.store(false, ordering: .relaxed)
            _ = Self.writeNumber(busyQuotaMicroseconds, to: cpuQuota)
        }
    }

    private static func writeNumber(_ value: Int, to fd: Int32) -> Bool {
        let text = String(value)
        return text.withCString { pwrite(fd, $0, strlen($0), 0) } == text.utf8.count
    }

    // MARK: Reading

    /// The group's memory usage now (`memory.usage_in_bytes`).
    func usageBytes() -> Int? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer -> Int? in
            let count = pread(memoryUsage, buffer.baseAddress, buffer.count, 0)
            guard count > 0 else { return nil }
            var value = 0
            for digit in buffer[0..<count] where digit >= 48 && digit <= 57 { value = value * 10 + Int(digit - 48) }
            return value
        }
    }

    /// Resets the memory events' counter (after they woke the I/O thread).
    func drainMemoryEvents() {
        if memoryEvents >= 0 { _ = wh_eventfd_drain(memoryEvents) }
    }

    /// Resident anonymous and shared memory (`rss`, `shmem` of `memory.stat`: the group has no
    /// children, so its `total_` lines say the same).
    func residentAndShared() -> (resident: Int, shared: Int)? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4096) { buffer -> (Int, Int)? in
            let count = pread(memoryStat, buffer.baseAddress, buffer.count, 0)
            guard count > 0 else { return nil }
            return Self.residentAndShared(in: UnsafeBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// The values of the `rss` and `shmem` lines, which come first in `memory.stat`.
    static func residentAndShared(in text: UnsafeBufferPointer<UInt8>) -> (resident: Int, shared: Int)? {
        var resident: Int?
        var shared: Int?
        var lineStart = 0
        while lineStart < text.count, resident == nil || shared == nil {
            var end = lineStart
            while end < text.count && text[end] != UInt8(ascii: "\n") { end += 1 }
            let line = UnsafeBufferPointer(rebasing: text[lineStart..<end])
            if let space = line.firstIndex(of: UInt8(ascii: " ")) {
                let key = line[..<space]
                var value = 0
                for digit in line[(space + 1)...] where digit >= 48 && digit <= 57 { value = value * 10 + Int(digit - 48) }
                if key.elementsEqual("rss".utf8) { resident = value }
                if key.elementsEqual("shmem".utf8) { shared = value }
            }
            lineStart = end + 1
        }
        guard let resident else { return nil }
        return (resident, shared ?? 0)
    }

    /// How many processes the kernel's OOM killer has ended in the group (`oom_kill` of
    /// `memory.oom_control`).
    func outOfMemoryKills() -> Int {
        Self.fields(of: oomControl, capacity: 256)?["oom_kill"] ?? 0
    }

    /// The processes in the group now (the host's pids).
    func processes() -> [pid_t] {
        (ProcessTree.readSmallFile(pidsPath + "/cgroup.procs") ?? "").split(separator: "\n").compactMap { pid_t($0) }
    }

    /// `KEY VALUE` lines of a control file read from its start.
    private static func fields(of fd: Int32, capacity: Int) -> [Substring: Int]? {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer -> [Substring: Int]? in
            let count = pread(fd, buffer.baseAddress, buffer.count, 0)
            guard count > 0 else { return nil }
            let text = String(decoding: UnsafeBufferPointer(rebasing: buffer[0..<count]), as: UTF8.self)
            var fields: [Substring: Int] = [:]
            for line in text.split(separator: "\n") {
                guard let space = line.firstIndex(of: " "), let value = Int(line[line.index(after: space)...]) else { continue }
                fields[line[..<space]] = value
            }
            return fields
        }
    }

    // MARK: Ending

    /// Sends `SIGKILL` to every process in the group until none is left (a process may fork
    /// while the others die; `pids.max` bounds how many there can be), at most `timeout`.
    /// - Returns: whether the group is empty.
    @discardableResult
    func killEveryProcess(timeout: Duration = .seconds(2)) -> Bool {
        // A throttled process dies only when it runs: at 5% of a CPU, 100 of them took seconds.
        liftIdleQuota()
        let giveUp = ContinuousClock.now + timeout
        while true {
            let members = processes()
            if members.isEmpty { return true }
            members.forEach { _ = kill($0, SIGKILL) }
            if ContinuousClock.now >= giveUp { return false }
            usleep(1000)
        }
    }

    /// Removes both groups once their processes are gone, retrying while the kernel finishes
    /// their exits (at most `timeout`).
    /// - Returns: whether both directories are gone.
    @discardableResult
    func remove(timeout: Duration = .seconds(2)) -> Bool {
        closeProcsDescriptors()
        closeDescriptors()
        let giveUp = ContinuousClock.now + timeout
        var remaining = [memoryPath, pidsPath] + [cpuPath].compactMap { $0 }
        while true {
            remaining.removeAll { rmdir($0) == 0 || errno == ENOENT }
            if remaining.isEmpty { return true }
            if ContinuousClock.now >= giveUp { return false }
            usleep(1000)
        }
    }
}
