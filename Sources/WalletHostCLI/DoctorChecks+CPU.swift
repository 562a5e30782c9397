import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

extension DoctorChecks {
    /// Whether extensions get `cpu` control groups (equal shares, and a quota while idle between
    /// calls), or only a higher nice value.
    static func cpu() -> DoctorFinding {
        guard let reason = ControlGroups.cpuUnavailableReason else {
            return DoctorFinding("cpu", .ok, "a cgroup v1 cpu group for each extension: equal CPU shares "
                                 + "(cpu.shares \(ExtensionControlGroupFacts.shares)), and "
                                 + "\(ExtensionControlGroupFacts.idleQuotaPercent)% of one CPU while no call is in flight "
                                 + "(cpu.cfs_quota_us), lifted before the next request")
        }
        let root = geteuid() == 0
        let fix = root
            ? "mount the cgroup v1 cpu hierarchy (mount -t cgroup -o cpu none /sys/fs/cgroup/cpu) and make it writable"
            : "run the host as root with the cgroup v1 cpu hierarchy mounted"
        return DoctorFinding("cpu", .warning, "\(reason): extensions run at nice +\(ProcessLimits.niceWithoutCPUGroup) only: "
                             + "the host comes first, but issuers share the CPU by their processes' count, and an idle "
                             + "extension's processes are not bounded", fix: fix)
    }
}
