import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Where this host makes its extensions' control groups: for each cgroup v1 controller it
/// needs (`memory`, `pids`), the directory `wallet-host/HOST-PID` under the host's own group in
/// that hierarchy. Nesting under the host's own group keeps every limit above the host's
/// (a container's, a CI job's) in force for its extensions.
///
/// Found and made on first use. Directories left by hosts that are gone (killed before they
/// could remove them) are removed then; this host's own goes when it exits.
struct ControlGroupHierarchy: Sendable {
    /// The controllers, in the order of ``directories``.
    static let controllers = ["memory", "pids"]
    /// This host's directory in each controller's hierarchy.
    let directories: [String]
    /// This host's directory in the `cpu` hierarchy, where each extension gets equal shares and a
    /// quota while idle (``ExtensionControlGroup``); nil where it cannot be had (not mounted, not
    /// writable): extensions are niced instead (``ProcessLimits/niceWithoutCPUGroup``).
    let cpuDirectory: String?
    /// Why there is no ``cpuDirectory``.
    let cpuUnavailableReason: String?
    /// `cpu.cfs_quota_us` of an extension's group while calls are in flight: the quota of all
    /// the CPUs this host may use (never binding). Bandwidth control stays on between the two
    /// quotas: switching it off and on costs the kernel about 57 µs a write (a static key),
    /// switching between two quotas about 0.7 µs (measured here).
    let busyQuotaMicroseconds: Int

    var memoryDirectory: String { directories[0] }
    var pidsDirectory: String { directories[1] }

    /// `cpu.cfs_period_us` of every group the host makes (the kernel's default).
    static let cpuPeriodMicroseconds = 100_000

    /// The name of the directory under the host's own group that holds every host's directory.
    static let containerName = "wallet-host"

    private static let found = Mutex<Result<ControlGroupHierarchy, ControlGroupError>?>(nil)

    /// This host's hierarchy, made on first use; the same failure every time when it cannot be.
    static func shared() -> Result<ControlGroupHierarchy, ControlGroupError> {
        found.withLock { found in
            if let found { return found }
            let result = Result { () throws(ControlGroupError) in try make() }
            found = result
            if case .success = result { atexit { ControlGroupHierarchy.removeOwnDirectories() } }
            return result
        }
    }

    private static func make() throws(ControlGroupError) -> ControlGroupHierarchy {
        let mounts = try ControlGroupMounts.current()
        var directories: [String] = []
        for controller in controllers {
            let own = try mounts.ownGroup(controller: controller)
            let container = own + "/" + containerName
            try makeDirectory(container)
            removeStaleHostDirectories(in: container)
            let directory = container + "/\(getpid())"
            try makeDirectory(directory)
            directories.append(directory)
        }
        do throws(ControlGroupError) {
            let (cpu, busy) = try makeCPUDirectory(mounts: mounts)
            return ControlGroupHierarchy(directories: directories, cpuDirectory: cpu, cpuUnavailableReason: nil,
                                         busyQuotaMicroseconds: busy)
        } catch {
            return ControlGroupHierarchy(directories: directories, cpuDirectory: nil, cpuUnavailableReason: error.description,
                                         busyQuotaMicroseconds: 0)
        }
    }

    /// This host's directory in the `cpu` hierarchy, with bandwidth control on at a quota that
    /// never binds (the CPUs this host may use: the machine's, or less where a group above it
    /// has a quota), which its extensions' groups use while busy.
    private static func makeCPUDirectory(mounts: ControlGroupMounts) throws(ControlGroupError) -> (String, Int) {
        let own = try mounts.ownGroup(controller: "cpu")
        let processors = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        var busy = processors * cpuPeriodMicroseconds
        // A group above with a quota: a child's may not be larger (in the same proportion of its period).
        var ancestor = own
        while true {
            if let quota = readNumber(ancestor + "/cpu.cfs_quota_us"), quota > 0,
               let period = readNumber(ancestor + "/cpu.cfs_period_us"), period > 0 {
                busy = min(busy, quota * cpuPeriodMicroseconds / period)
            }
            guard let slash = ancestor.lastIndex(of: "/"), slash != ancestor.startIndex,
                  access(String(ancestor[..<slash]) + "/cpu.cfs_quota_us", F_OK) == 0 else { break }
            ancestor = String(ancestor[..<slash])
        }
        let container = own + "/" + containerName
        try makeDirectory(container)
        removeStaleHostDirectories(in: container)
        let directory = container + "/\(getpid())"
        try makeDirectory(directory)
        try ExtensionControlGroup.write("\(busy)", to: directory + "/cpu.cfs_quota_us")
        return (directory, busy)
    }

    private static func readNumber(_ path: String) -> Int? {
        ProcessTree.readSmallFile(path).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    private static func makeDirectory(_ path: String) throws(ControlGroupError) {
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
            throw ControlGroupError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Removes the directories of hosts that are no longer running, and the extensions' groups in
    /// them (empty: their processes died with the host, or were killed by it).
    private static func removeStaleHostDirectories(in container: String) {
        guard let hosts = try? FileManager.default.contentsOfDirectory(atPath: container) else { return }
        for host in hosts {
            guard let pid = pid_t(host), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            removeTree(container + "/" + host)
        }
    }

    /// Removes `directory` and the groups under it, deepest first (a group's files go with it).
    static func removeTree(_ directory: String) {
        let children = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        for child in children {
            var status = stat()
            let path = directory + "/" + child
            if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { removeTree(path) }
        }
        _ = rmdir(directory)
    }

    /// At exit: this host's directories, once its extensions' groups are gone.
    private static func removeOwnDirectories() {
        guard case .success(let hierarchy)? = found.withLock({ $0 }) else { return }
        (hierarchy.directories + [hierarchy.cpuDirectory].compactMap { $0 }).forEach { _ = rmdir($0) }
    }
}

/// Why control groups cannot be used, as a sentence naming the file or directory.
struct ControlGroupError: Error, Sendable, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Whether this host gives its extensions control groups of their own, for diagnostics and tests.
public enum ControlGroups {
    private static let lastLaunchFailure = Mutex<String?>(nil)

    /// This host's directories in the `memory` and `pids` hierarchies, under which each launch
    /// gets its groups (made on first use); nil where control groups cannot be had.
    public static var hostDirectories: [String]? {
        try? ControlGroupHierarchy.shared().get().directories
    }

    /// This host's directory in the `cpu` hierarchy, under which each launch gets equal CPU shares
    /// and an idle quota; nil where it cannot be had (extensions are niced instead).
    public static var cpuDirectory: String? {
        try? ControlGroupHierarchy.shared().get().cpuDirectory
    }

    /// Why extensions get no `cpu` group: control groups cannot be had at all, or the `cpu`
    /// hierarchy cannot be used; nil while they get one.
    public static var cpuUnavailableReason: String? {
        switch ControlGroupHierarchy.shared() {
        case .failure(let error): return error.description
        case .success(let hierarchy): return hierarchy.cpuUnavailableReason
        }
    }

    /// Why extensions get no control groups: the hierarchy could not be found or made, or the last
    /// launch's groups could not be; nil while they can.
    public static var unavailableReason: String? {
        switch ControlGroupHierarchy.shared() {
        case .failure(let error): return error.description
        case .success: return lastLaunchFailure.withLock { $0 }
        }
    }

    static func noteLaunchFailure(_ error: ControlGroupError) {
        lastLaunchFailure.withLock { $0 = error.description }
    }
}

/// The figures of an extension's `cpu` group, for diagnostics (`wallet-host doctor`).
public enum ExtensionControlGroupFacts {
    /// `cpu.shares` of every extension's group.
    public static var shares: Int { ExtensionControlGroup.cpuShares }
    /// The idle quota, as a percentage of one CPU.
    public static var idleQuotaPercent: Int {
        ExtensionControlGroup.idleQuotaMicroseconds * 100 / ControlGroupHierarchy.cpuPeriodMicroseconds
    }
}
