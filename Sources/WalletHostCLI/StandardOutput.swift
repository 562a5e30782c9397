import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Standard output as `print` writes it (C's buffered `stdout`), checked before `wallet-host`
/// exits: a report that never reached its reader (stdout to `/dev/full`, a full disk) is a
/// failure, not exit 0.
enum StandardOutput {
    /// C's `stdout`. Swift 6 refuses the global `stdout` (shared mutable state); its value is
    /// looked up once instead. Only the stream's own (locked) functions use it.
    nonisolated(unsafe) static let stream: UnsafeMutablePointer<FILE> = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "stdout") else {
            fatalError("the C library has no stdout")
        }
        return symbol.load(as: UnsafeMutablePointer<FILE>.self)
    }()

    /// The `errno` of the first flush that failed in ``line(_:)``, for ``finish()``'s sentence.
    private static let firstFailure = Mutex<Int32?>(nil)

    /// Prints `line` (control characters escaped: ``TerminalText``) and flushes it now (a
    /// transcript is read as it is written).
    static func line(_ line: String) {
        print(line)
        if fflush(stream) != 0 {
            let reason = errno
            firstFailure.withLock { $0 = $0 ?? reason }
        }
    }

    /// Whether a flush of ``line(_:)`` failed: the reader left (`logs -f | head`) or the disk is full.
    static var hasFailed: Bool { firstFailure.withLock { $0 != nil } }

    /// Flushes what is buffered and says whether every write reached standard output. A pipe
    /// whose reader left (EPIPE, as after `| head`) is not a failure worth a sentence.
    /// - Returns: nil when all of it was written; otherwise the sentence to print, naming where
    ///   standard output goes (`standard output (/dev/full): No space left on device`).
    static func finish() -> String? {
        let flushed = fflush(stream) == 0
        let reason: Int32? = flushed ? firstFailure.withLock { $0 } : errno
        guard !flushed || ferror(stream) != 0 else { return nil }
        // The reader stopped reading (`wallet-host ... | head`): it has what it wanted.
        guard reason != EPIPE else { return nil }
        // The file it goes to, when it is one (not "pipe:[1234]").
        let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(STDOUT_FILENO)"))
            .flatMap { $0.hasPrefix("/") ? " (\($0))" : nil } ?? ""
        let problem = reason.map { String(cString: strerror($0)) } ?? "an earlier write failed"
        return "cannot write to standard output\(destination): \(problem)"
    }
}
