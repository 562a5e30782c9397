import Foundation

/// Everything read from a pipe so far, read on a thread of its own as it comes: for tests that
/// check what a command printed while it still runs.
public final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var collected = ""

    /// The text read so far.
    public var text: String { lock.withLock { collected } }

    /// Starts reading `handle` until its end.
    public init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                if data.isEmpty { return }
                lock.withLock { collected += String(decoding: data, as: UTF8.self) }
            }
        }
    }
}
