#if canImport(Glibc)
import Glibc
#endif

/// Reads a process's footprint: its resident anonymous memory, which is what Jetsam counts
/// (dirty, not file-backed). File-backed pages of the Swift runtime (~17 MB) are not footprint.
enum FootprintReader {
    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// RssAnon in bytes from `/proc/PID/statm` (resident minus shared pages), or nil when
    /// the process is gone. One open/read/close: cheap enough to sample every few milliseconds.
    static func footprintBytes(of pid: Int32) -> Int? {
        let fd = open("/proc/\(pid)/statm", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        // Fields: size resident shared text lib data dt (pages).
        var fields: [Int] = []
        var current = 0
        var inNumber = false
        for byte in buffer[0..<count] {
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
