import Foundation
import Synchronization
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// `studio.processes`: the extension processes the daemon knows of (the pool's and a flow's
/// UI extension, from the event hub's process table), each with its footprint now and its CPU
/// share since the page last asked, read from `/proc`.
final class StudioProcesses: Sendable {
    /// One process as the page's panel shows it.
    struct Listing: Encodable, Sendable {
        var bundleIdentifier: String
        var pid: Int32?
        var calls: Int
        var footprintBytes: Int?
        var peakFootprintBytes: Int?
        /// Percent of one core since the previous sample of this process (nil on the first).
        var cpuPercent: Double?
    }

    struct Answer: Encodable, Sendable {
        var processes: [Listing]
    }

    /// CPU ticks and when they were read, by pid.
    private let samples = Mutex<[Int32: (ticks: Int, at: ContinuousClock.Instant)]>([:])
    private static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// The listing now, from `table`'s rows.
    func list(_ table: ProcessTable) -> Answer {
        let now = ContinuousClock.now
        var seen: Set<Int32> = []
        let listings = table.rows.values.sorted { $0.bundleIdentifier < $1.bundleIdentifier }.map { row -> Listing in
            var listing = Listing(bundleIdentifier: row.bundleIdentifier, pid: row.pid, calls: row.calls,
                                  peakFootprintBytes: row.peakFootprintBytes)
            guard let pid = row.pid else { return listing }
            seen.insert(pid)
            listing.footprintBytes = ProcessProbe.footprintBytes(pid: pid)
            if let ticks = Self.cpuTicks(pid: pid) {
                let previous = samples.withLock { samples in
                    defer { samples[pid] = (ticks, now) }
                    return samples[pid]
                }
                if let previous, now > previous.at {
                    let seconds = Double((now - previous.at).components.attoseconds) / 1e18 + Double((now - previous.at).components.seconds)
                    listing.cpuPercent = 100 * Double(ticks - previous.ticks) / Self.ticksPerSecond / seconds
                }
            }
            return listing
        }
        samples.withLock { samples in samples = samples.filter { seen.contains($0.key) } }
        return Answer(processes: listings)
    }

    /// utime + stime of `pid` in clock ticks (`/proc/PID/stat` fields 14 and 15).
    static func cpuTicks(pid: Int32) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // Fields after the command name (which may hold spaces): state is field 3.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }
}
