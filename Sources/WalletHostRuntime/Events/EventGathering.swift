import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Log lines waiting to be written together (``EventLogFile/init(directory:gatheringFor:)``),
/// each file's in one piece: the events, and each extension's output. The first line into an
/// empty queue wakes the writer, which lets more gather for `delay`, then writes them all. Lines
/// leave the queue and reach their files under one lock, so two writers (the thread, a
/// ``EventLogFile/flush()``) never swap their order.
final class EventGathering: Sendable {
    /// Queued bytes past which the recording thread writes them itself.
    static let maximumBytes = 256 << 10

    private struct Queue {
        /// Each file's lines, by descriptor.
        var lines: [Int32: Data] = [:]
        var bytes = 0
    }

    let delay: Duration
    private let queue = Mutex(Queue())
    /// Held from taking the queue to the end of its write.
    private let writing = Mutex(())
    private let wakeWriter = DispatchSemaphore(value: 0)
    /// The writer thread runs: without it (the system would not start one), every line is
    /// written as it comes.
    private let writerRunning = Atomic<Bool>(false)

    init(delay: Duration) {
        self.delay = delay
    }

    /// Starts the writer thread, which calls `flush` once lines have gathered for ``delay``.
    func startWriter(flush: @escaping @Sendable () -> Void) {
        let delay = delay
        let started = DetachedThread.start(name: "wh-events", stackBytes: 128 << 10) { [wakeWriter] in
            while true {
                wakeWriter.wait()
                let microseconds = delay.components.seconds * 1_000_000 + delay.components.attoseconds / 1_000_000_000_000
                if microseconds > 0 { usleep(UInt32(clamping: microseconds)) }
                flush()
            }
        }
        writerRunning.store(started == 0, ordering: .releasing)
    }

    /// Queues a line for the file open as `descriptor`. - Returns: whether to write the queue
    /// now: it is past ``maximumBytes``, or no writer thread runs.
    func add(_ line: Data, to descriptor: Int32) -> Bool {
        let (first, full) = queue.withLock { queued -> (Bool, Bool) in
            let first = queued.bytes == 0
            queued.lines[descriptor, default: Data()].append(line)
            queued.bytes += line.count
            return (first, queued.bytes >= Self.maximumBytes)
        }
        guard writerRunning.load(ordering: .acquiring) else { return true }
        if first { wakeWriter.signal() }
        return full
    }

    /// Takes every queued line and passes each file's to `write` in one piece, under the write lock.
    func takeAndWrite(_ write: (Int32, Data) -> Void) {
        writing.withLock { _ in
            let lines = queue.withLock { queued -> [Int32: Data] in
                defer { queued = Queue() }
                return queued.lines
            }
            for (descriptor, text) in lines where !text.isEmpty { write(descriptor, text) }
        }
    }
}
