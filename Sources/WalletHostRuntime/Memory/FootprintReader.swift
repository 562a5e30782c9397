#if canImport(Glibc)
import Glibc
#endif

/// Reads a process's footprint: its resident anonymous memory, which is what Jetsam counts
/// (dirty, not file-backed). File-backed pages of the Swift runtime (~17 MB) are not footprint.
///
/// It keeps `/proc/PID/statm` open and re-reads it with `pread`, so a sample is one system
/// call: the host takes one at the end of every call, warm round trips included.
final class FootprintReader: Sendable {
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
    private let descriptor: Int32

    /// Opens the process's statm; samples are nil if it cannot be opened.
    init(pid: Int32) {
        descriptor = open("/proc/\(pid)/statm", O_RDONLY | O_CLOEXEC)
    }

    deinit {
        if descriptor >= 0 { SystemCall.close(descriptor) }
    }

    /// RssAnon in bytes (resident minus shared pages), or nil when the process is gone.
    func sample() -> Int? {
        guard descriptor >= 0 else { return nil }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer in
            let count = pread(descriptor, buffer.baseAddress, buffer.count, 0)
            guard count > 0 else { return nil }
            return Self.parse(UnsafeBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// A one-off sample of any process.
    static func footprintBytes(of pid: Int32) -> Int? {
        FootprintReader(pid: pid).sample()
    }

    /// statm's fields: size resident shared text lib data dt (pages).
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var fields: [Int] = []
        fields.reserveCapacity(3)
        var current = 0
        var inNumber = false
        for byte in bytes {
            if byte >= 48 && byte <= 57 {
                current = current * 10 + Int(byte - 48)
                inNumber = true
            } else if inNumber {
                fields.append(current)
                current = 0
                inNumber = false
                if fields.count == 3 { break }
            }
        }
        guard fields.count >= 3 else { return nil }
        return max(0, fields[1] - fields[2]) * pageSize
    }
}
