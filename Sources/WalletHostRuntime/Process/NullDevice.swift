import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// `/dev/null` for every child's stdin: opened once, read-only and close-on-exec, and kept for
/// the life of the host, instead of one open per launch. An open that failed (out of
/// descriptors) is tried again on the next launch.
enum NullDevice {
    private static let opened = Mutex<Int32>(-1)

    static var descriptor: Int32 {
        opened.withLock { descriptor in
            if descriptor < 0 { descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC) }
            return descriptor
        }
    }
}
