import CWalletSpawn
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension ExtensionControlGroup {
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
}
