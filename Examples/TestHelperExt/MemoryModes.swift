import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The memory modes `wallet-host stress` measures: a handler that keeps memory on every call
/// (a leak) and one that uses the same memory and gives it back (no leak).
enum MemoryModes {
    /// Allocates `kilobytes` KB, writes every page so that it counts as footprint, and keeps it
    /// (``Misbehaviour/allocate(megabytes:blockSize:)`` keeps whole megabytes; a leak is smaller).
    static func leak(kilobytes: Int) {
        guard let block = malloc(kilobytes * 1024) else {
            StandardError.writeLine("Fatal error: failed to allocate \(kilobytes * 1024) bytes")
            abort()
        }
        memset(block, 0x5A, kilobytes * 1024)
        // Never freed, on purpose: this is the leak.
        _ = block
    }

    /// Allocates `kilobytes` KB, writes every page, and frees it again.
    static func churn(kilobytes: Int) {
        guard let block = malloc(kilobytes * 1024) else { return }
        memset(block, 0x5A, kilobytes * 1024)
        free(block)
    }
}
