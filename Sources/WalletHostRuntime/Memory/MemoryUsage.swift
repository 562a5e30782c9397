/// The memory one extension holds, everything it runs counted: the total the host compares with
/// the memory limit, and what it is made of, for the kill report.
///
/// With control groups the total is the group's resident anonymous and shared memory
/// (`memory.stat`: `total_rss` + `total_shmem`); without them, the footprint of every process
/// of the extension (the sandbox's PID namespace, or the extension and its descendants) plus
/// its private `/tmp`.
public struct MemoryUsage: Sendable, Equatable, Codable {
    /// How the total was counted.
    public enum Accounting: String, Sendable, Codable {
        /// From the extension's memory control group.
        case controlGroup
        /// Process by process, from `/proc`, plus the private `/tmp` (no control groups).
        case processes
    }

    /// One process counted, by the host's numbering.
    public struct Process: Sendable, Equatable, Codable {
        /// Its command name (`/proc/PID/comm`).
        public var name: String
        public var pid: Int32
        /// Its footprint: resident anonymous memory.
        public var footprintBytes: Int

        public init(name: String, pid: Int32, footprintBytes: Int) {
            self.name = name
            self.pid = pid
            self.footprintBytes = footprintBytes
        }
    }

    /// Everything counted, in bytes.
    public var totalBytes: Int
    /// Every process counted, the largest first.
    public var processes: [Process]
    /// Shared memory and tmpfs pages (`/tmp`, `/dev/shm`; without control groups also the memfds
    /// its processes hold and its IPC namespace's SysV segments), which no process's footprint shows.
    public var sharedBytes: Int
    public var accounting: Accounting

    public init(totalBytes: Int, processes: [Process], sharedBytes: Int, accounting: Accounting) {
        self.totalBytes = totalBytes
        self.processes = processes.sorted { ($0.footprintBytes, $1.pid) > ($1.footprintBytes, $0.pid) }
        self.sharedBytes = sharedBytes
        self.accounting = accounting
    }

    /// How many processes are named in ``description`` before the rest are summed up.
    static let processesNamed = 8

    /// `55.3 MB across 13 processes: hostile[2] 12.1 MB, python3[5] 4.1 MB, ... (5 more, 9.0 MB),
    /// shared memory and /tmp 0 MB`.
    public var description: String {
        var parts = processes.prefix(Self.processesNamed).map { "\($0.name)[\($0.pid)] \(HumanReadable.megabytes($0.footprintBytes))" }
        let rest = processes.dropFirst(Self.processesNamed)
        if !rest.isEmpty {
            parts.append("(\(rest.count) more, \(HumanReadable.megabytes(rest.reduce(0) { $0 + $1.footprintBytes })))")
        }
        parts.append("shared memory and /tmp \(HumanReadable.megabytes(sharedBytes))")
        return "\(HumanReadable.megabytes(totalBytes)) across \(HumanReadable.counted(processes.count, "process", plural: "processes")): "
            + parts.joined(separator: ", ")
    }
}
