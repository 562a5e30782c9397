import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A process and its descendants, from `/proc/PID/task/TID/children` (each thread lists the
/// children it forked). In the sandbox the init's tree is the whole PID namespace: orphans are
/// reparented to the init. Unsandboxed, an orphan goes to the host's init and leaves the tree.
enum ProcessTree {
    /// `root` (first) and every descendant alive now; empty when `root` is gone. At most `limit`.
    static func members(root: pid_t, limit: Int = 4096) -> [pid_t] {
        var found: [pid_t] = []
        var queue: [pid_t] = [root]
        var seen = Set<pid_t>()
        while let pid = queue.popLast(), found.count < limit {
            guard seen.insert(pid).inserted, kill(pid, 0) == 0 || errno == EPERM else { continue }
            found.append(pid)
            queue.append(contentsOf: children(of: pid))
        }
        return found
    }

    /// The children of every thread of `pid`.
    static func children(of pid: pid_t) -> [pid_t] {
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return [] }
        return threads.flatMap { thread in
            (readSmallFile("/proc/\(pid)/task/\(thread)/children") ?? "").split(separator: " ").compactMap { pid_t($0) }
        }
    }

    /// `/proc/PID/comm`, or `?` when the process is gone.
    static func name(of pid: pid_t) -> String {
        readSmallFile("/proc/\(pid)/comm")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
    }

    /// A short `/proc` file's text (their reported size is zero, so read until the end).
    static func readSmallFile(_ path: String, capacity: Int = 4096) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { SystemCall.close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: capacity)
        while true {
            let count = SystemCall.retryingInterrupts { read(fd, &chunk, chunk.count) }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
