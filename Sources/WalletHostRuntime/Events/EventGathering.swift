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
    /// What an event queued unencoded counts for against ``maximumBytes``: more than the JSON of
    /// any event ``canWaitUnencoded(_:)`` lets wait (about 250 bytes for a status call's `result`).
    static let bytesPerQueuedEvent = 1024
    /// The longest string an event waiting unencoded may hold.
    private static let longestStringOfQueuedEvent = 128

    /// Whether an event may wait unencoded: the kinds every call records (`call`, `result`,
    /// `service`), with short strings, whose JSON ``bytesPerQueuedEvent`` bounds. Any other
    /// (an error's reason is the extension's, up to a protocol line long) is encoded at once and
    /// counted in bytes.
    static func canWaitUnencoded(_ event: HostEvent) -> Bool {
        func short(_ text: String?) -> Bool { (text?.utf8.count ?? 0) <= longestStringOfQueuedEvent }
        guard short(event.bundleIdentifier) else { return false }
        switch event.payload {
        case .call(let request), .service(let request): return short(request.method) && short(request.requestID)
        case .result(let completion): return short(completion.method) && short(completion.requestID)
        default: return false
        }
    }

    /// One file's queue, in the order things were added: bytes, or events the writer encodes.
    private enum Piece {
        case bytes(Data)
        case event(HostEvent)
    }

    private struct Queue {
        /// Each file's pieces, by descriptor.
        var pieces: [Int32: [Piece]] = [:]
        var bytes = 0

        /// Appends to a file's queue: bytes join the bytes before them, so a file of output
        /// lines stays one piece.
        mutating func add(_ piece: Piece, to descriptor: Int32) {
            if case .bytes(let line) = piece, case .bytes(var text)? = pieces[descriptor]?.last {
                pieces[descriptor]!.removeLast()
                text.append(line)
                pieces[descriptor]!.append(.bytes(text))
            } else {
                pieces[descriptor, default: []].append(piece)
            }
        }
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
        add(.bytes(line), to: descriptor)
    }

    /// Queues an event ``canWaitUnencoded(_:)`` lets wait for the file open as `descriptor`, to
    /// be encoded when it is written: off the thread that records it, which may be one a client
    /// waits on. - Returns: as ``add(_:to:)``.
    func add(_ event: HostEvent, to descriptor: Int32) -> Bool {
        add(.event(event), to: descriptor)
    }

    private func add(_ piece: Piece, to descriptor: Int32) -> Bool {
        let (first, full) = queue.withLock { queued -> (Bool, Bool) in
            let first = queued.bytes == 0
            queued.add(piece, to: descriptor)
            switch piece {
            case .bytes(let line): queued.bytes += line.count
            case .event: queued.bytes += Self.bytesPerQueuedEvent
            }
            return (first, queued.bytes >= Self.maximumBytes)
        }
        guard writerRunning.load(ordering: .acquiring) else { return true }
        if first { wakeWriter.signal() }
        return full
    }

    /// Takes everything queued and passes each file's to `write` in one piece, under the write
    /// lock, its events encoded by `encode` as lines (an event it cannot encode is left out).
    func takeAndWrite(encode: (HostEvent) -> Data?, _ write: (Int32, Data) -> Void) {
        writing.withLock { _ in
            let pieces = queue.withLock { queued -> [Int32: [Piece]] in
                defer { queued = Queue() }
                return queued.pieces
            }
            for (descriptor, filePieces) in pieces {
                var text = Data()
                for piece in filePieces {
                    switch piece {
                    case .bytes(let line):
                        text.append(line)
                    case .event(let event):
                        guard let json = encode(event) else { continue }
                        text.append(json)
                        text.append(UInt8(ascii: "\n"))
                    }
                }
                if !text.isEmpty { write(descriptor, text) }
            }
        }
    }
}
