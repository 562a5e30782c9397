import CWalletSpawn
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Memory an extension holds that no process's footprint shows, counted where no control group
/// counts it (a host that is not root, or `--control-groups off`):
///
/// - the memfds its processes hold open: pages written with `write()` and never mapped are in
///   nobody's resident memory (`/proc/PID/fd` links named `/memfd:...`, their blocks counted
///   once per file however many descriptors share it);
/// - the SysV shared memory segments of its IPC namespace, attached or not (`rss` + `swap` of
///   `/proc/sysvipc/shm` as the sandbox's init opened it inside the namespace: the host takes
///   the init's descriptor with `pidfd_getfd`), and the bytes queued in its SysV message queues
///   (`cbytes` of `/proc/sysvipc/msg`, kernel memory).
///
/// - the shared memory its processes map (`RssShmem` of `/proc/PID/status`: `MAP_SHARED`
///   anonymous memory, a memfd mapped and then closed), which their footprint (`RssAnon`) leaves
///   out.
///
/// A page of a memfd or segment that is both held and mapped is counted twice, and so is a
/// mapping two processes share: an extension doing that is charged more than it holds, never
/// less (a Swift extension maps no shared memory of its own).
final class HeldSharedMemory: Sendable {
    /// The init's view of the sandbox's SysV segments; -1 unsandboxed or where it was not had.
    private let segmentsView: Int32
    /// The same for its message queues.
    private let queuesView: Int32

    /// - Parameter initPIDFD: the sandbox init's pidfd; -1 unsandboxed.
    init(initPIDFD: Int32) {
        segmentsView = initPIDFD >= 0 ? wh_pidfd_getfd(initPIDFD, WH_INIT_SHARED_MEMORY_VIEW_FD) : -1
        queuesView = initPIDFD >= 0 ? wh_pidfd_getfd(initPIDFD, WH_INIT_MESSAGE_QUEUES_VIEW_FD) : -1
    }

    deinit {
        if segmentsView >= 0 { SystemCall.close(segmentsView) }
        if queuesView >= 0 { SystemCall.close(queuesView) }
    }

    /// The bytes held now by the memfds of `processes` and the namespace's segments and queues.
    func bytes(processes: [pid_t]) -> Int {
        Self.memfdBytes(processes: processes) + Self.columnsSum(in: Self.table(segmentsView), columns: ["rss", "swap"])
            + Self.columnsSum(in: Self.table(queuesView), columns: ["cbytes"]) + Self.mappedSharedBytes(processes: processes)
    }

    /// `RssShmem` of every one of `processes`, in bytes.
    static func mappedSharedBytes(processes: [pid_t]) -> Int {
        processes.reduce(0) { total, pid in
            guard let status = ProcessTree.readSmallFile("/proc/\(pid)/status"),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("RssShmem:") }) else { return total }
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
            return total + kilobytes * 1024
        }
    }

    /// The blocks of every memfd one of `processes` holds open, each file once.
    static func memfdBytes(processes: [pid_t]) -> Int {
        var seen = Set<[UInt64]>()
        var total = 0
        var target = [CChar](repeating: 0, count: 64)
        for pid in processes {
            let directory = open("/proc/\(pid)/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard directory >= 0 else { continue }
            guard let stream = fdopendir(directory) else {
                SystemCall.close(directory)
                continue
            }
            defer { closedir(stream) }
            while let entry = readdir(stream) {
                let isLink = entry.pointee.d_type == UInt8(DT_LNK)
                guard isLink else { continue }
                let length = withUnsafePointer(to: entry.pointee.d_name) { name in
                    name.withMemoryRebound(to: CChar.self, capacity: 256) { readlinkat(directory, $0, &target, target.count - 1) }
                }
                // "/memfd:NAME (deleted)"
                guard length >= 7, target.prefix(7).elementsEqual("/memfd:".utf8.map { CChar(bitPattern: $0) }) else { continue }
                var status = stat()
                let found = withUnsafePointer(to: entry.pointee.d_name) { name in
                    name.withMemoryRebound(to: CChar.self, capacity: 256) { fstatat(directory, $0, &status, 0) }
                }
                guard found == 0, seen.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted else { continue }
                total += Int(status.st_blocks) * 512
            }
        }
        return total
    }

    /// A `/proc/sysvipc` table read from its start through the init's descriptor ("" without one).
    static func table(_ view: Int32) -> String {
        guard view >= 0, lseek(view, 0, SEEK_SET) == 0 else { return "" }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while bytes.count < 1 << 22 {
            let count = SystemCall.retryingInterrupts { read(view, &chunk, chunk.count) }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The sum over every row of `columns` (found by their names in the table's header line).
    static func columnsSum(in table: String, columns: [String]) -> Int {
        let lines = table.split(separator: "\n")
        guard let header = lines.first?.split(separator: " ") else { return 0 }
        let indices = columns.compactMap { header.firstIndex(of: Substring($0)) }
        return lines.dropFirst().reduce(0) { total, line in
            let fields = line.split(separator: " ")
            return total + indices.reduce(0) { $0 + (fields.indices.contains($1) ? Int(fields[$1]) ?? 0 : 0) }
        }
    }
}
