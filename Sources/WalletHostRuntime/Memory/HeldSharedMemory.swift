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
///   the init's descriptor with `pidfd_getfd`).
///
/// Pages of either that a process maps are in its `RssShmem`, which its footprint leaves out, so
/// nothing is counted twice.
final class HeldSharedMemory: Sendable {
    /// The init's view of the sandbox's SysV segments; -1 unsandboxed or where it was not had.
    private let segmentsView: Int32

    /// - Parameter initPIDFD: the sandbox init's pidfd; -1 unsandboxed.
    init(initPIDFD: Int32) {
        segmentsView = initPIDFD >= 0 ? wh_pidfd_getfd(initPIDFD, WH_INIT_SHARED_MEMORY_VIEW_FD) : -1
    }

    deinit {
        if segmentsView >= 0 { close(segmentsView) }
    }

    /// The bytes held now by the memfds of `processes` and the namespace's segments.
    func bytes(processes: [pid_t]) -> Int {
        Self.memfdBytes(processes: processes) + segmentBytes()
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
                close(directory)
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

    /// `rss` + `swap` of every segment of the sandbox's IPC namespace.
    func segmentBytes() -> Int {
        guard segmentsView >= 0, lseek(segmentsView, 0, SEEK_SET) == 0 else { return 0 }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 8192)
        while bytes.count < 1 << 22 {
            let count = SystemCall.retryingInterrupts { read(segmentsView, &chunk, chunk.count) }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return Self.segmentBytes(in: String(decoding: bytes, as: UTF8.self))
    }

    /// The table's `rss` and `swap` columns, summed (found by their names in its header line).
    static func segmentBytes(in table: String) -> Int {
        let lines = table.split(separator: "\n")
        guard let header = lines.first?.split(separator: " "),
              let rss = header.firstIndex(of: "rss") else { return 0 }
        let swap = header.firstIndex(of: "swap")
        return lines.dropFirst().reduce(0) { total, line in
            let fields = line.split(separator: " ")
            let resident = fields.indices.contains(rss) ? Int(fields[rss]) ?? 0 : 0
            let swapped = swap.flatMap { fields.indices.contains($0) ? Int(fields[$0]) : nil } ?? 0
            return total + resident + swapped
        }
    }
}
