import Foundation
import Synchronization
import WalletHostRuntime
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// One socket carrying JSON-RPC lines both ways: a reader thread hands each line to a handler,
/// a writer thread drains a bounded queue, so a peer that reads slowly never blocks whoever
/// sends to it (the daemon's other clients, the extensions' I/O threads that publish events).
///
/// The queue is bounded in bytes: past ``Limits/droppableBytes`` a droppable line (an event
/// notification) is dropped and counted; past ``Limits/maximumBytes`` the peer is too slow to
/// serve and the channel closes, which cancels whatever it had in flight.
public final class LineChannel: Sendable {
    /// How much may wait in the outgoing queue.
    public struct Limits: Sendable {
        /// Queued bytes past which droppable lines are dropped.
        public var droppableBytes = 1 << 20
        /// Queued bytes past which the channel closes.
        public var maximumBytes = 64 << 20
        /// The longest line read (the extension protocol's limit).
        public var maximumLineBytes = WireProtocol.maximumLineBytes

        public init() {}
    }

    private struct Outgoing {
        var lines: [Data] = []
        var queuedBytes = 0
        var dropped = 0
        var closed = false
        /// A thread is writing to the socket (the writer, or a sender writing directly).
        var writing = false
        var onClose: [@Sendable () -> Void] = []
    }

    public let fd: Int32
    private let limits: Limits
    private let outgoing = Mutex(Outgoing())
    private let wake = DispatchSemaphore(value: 0)
    private let writerDone = DispatchSemaphore(value: 0)

    /// A channel on a connected socket; ``start(name:onLine:)`` starts its threads.
    public init(fd: Int32, limits: Limits = Limits()) {
        self.fd = fd
        self.limits = limits
    }

    /// Starts the reader and writer threads; call once, after whatever `onLine` needs is ready.
    /// - Parameter onLine: called on the reader thread for each complete line (`nil` for a line
    ///   over the limit). The channel closes the socket when both threads are done.
    public func start(name: String, onLine: @escaping @Sendable (Data?) -> Void) {
        let writer = Thread { [self] in writeLoop() }
        writer.name = "\(name).writer"
        writer.stackSize = 256 << 10
        writer.start()
        let reader = Thread { [self] in readLoop(onLine) }
        reader.name = "\(name).reader"
        reader.stackSize = 512 << 10
        reader.start()
    }

    /// Whether the channel has closed (peer gone, too slow, or ``close()``).
    public var isClosed: Bool { outgoing.withLock { $0.closed } }

    /// Lines dropped so far because the peer read too slowly.
    public var droppedLines: Int { outgoing.withLock { $0.dropped } }

    /// Queues a line (with its newline). Never blocks.
    /// - Parameter droppable: true for lines a slow peer may miss (event notifications).
    /// - Returns: false when the line was dropped or the channel is closed.
    @discardableResult
    public func send(_ line: Data, droppable: Bool = false) -> Bool {
        // Nothing queued and nobody writing: write at once, without waking the writer thread
        // (a warm call's answer then costs no extra thread hop). Whatever the socket does not
        // take at once is queued for the writer.
        let direct = outgoing.withLock { state -> Bool in
            guard !state.closed, !state.writing, state.lines.isEmpty else { return false }
            state.writing = true
            return true
        }
        if direct { return sendDirectly(line) }
        let (queued, overflow) = outgoing.withLock { state -> (Bool, Bool) in
            guard !state.closed else { return (false, false) }
            if droppable && state.queuedBytes + line.count > limits.droppableBytes {
                state.dropped += 1
                return (false, false)
            }
            if state.queuedBytes + line.count > limits.maximumBytes { return (false, true) }
            state.lines.append(line)
            state.queuedBytes += line.count
            return (true, false)
        }
        if overflow { close() } else if queued { wake.signal() }
        return queued
    }

    private func sendDirectly(_ line: Data) -> Bool {
        var written = 0
        var failed = false
        line.withUnsafeBytes { buffer in
            while written < buffer.count {
                let count = SystemCall.retryingInterrupts {
                    Glibc.send(fd, buffer.baseAddress! + written, buffer.count - written, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if count > 0 { written += count; continue }
                failed = count < 0 && errno != EAGAIN && errno != EWOULDBLOCK
                break
            }
        }
        if failed {
            outgoing.withLock { $0.writing = false }
            close()
            return false
        }
        let wakeWriter = outgoing.withLock { state -> Bool in
            state.writing = false
            if written < line.count {
                let rest = line.subdata(in: written..<line.count)
                state.lines.insert(rest, at: 0)
                state.queuedBytes += rest.count
            }
            return !state.lines.isEmpty
        }
        if wakeWriter { wake.signal() }
        return true
    }

    /// Runs `body` once when the channel closes (at once if it already has).
    public func onClose(_ body: @escaping @Sendable () -> Void) {
        let already = outgoing.withLock { state -> Bool in
            if state.closed { return true }
            state.onClose.append(body)
            return false
        }
        if already { body() }
    }

    /// Closes the channel: the writer stops, the reader sees end of input, the close handlers run.
    public func close() {
        let handlers = outgoing.withLock { state -> [@Sendable () -> Void]? in
            guard !state.closed else { return nil }
            state.closed = true
            state.lines.removeAll()
            defer { state.onClose.removeAll() }
            return state.onClose
        }
        guard let handlers else { return }
        shutdown(fd, Int32(SHUT_RDWR))
        wake.signal()
        for handler in handlers { handler() }
    }

    /// Waits until everything queued so far was written (or the channel closed), up to `timeout`.
    public func flush(timeout: Duration) {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if outgoing.withLock({ $0.closed || $0.lines.isEmpty }) { return }
            usleep(1000)
        }
    }

    private func readLoop(_ onLine: @Sendable (Data?) -> Void) {
        var framer = LineFramer(maximumLineBytes: limits.maximumLineBytes)
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        reading: while true {
            let count = buffer.withUnsafeMutableBytes { bytes in SystemCall.retryingInterrupts { recv(fd, bytes.baseAddress, bytes.count, 0) } }
            if count <= 0 { break }
            let frames = buffer.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            for frame in frames {
                if isClosed { break reading }
                switch frame {
                case .line(let line): onLine(line)
                case .oversized: onLine(nil)
                }
            }
        }
        close()
        writerDone.wait()
        Glibc.close(fd)
    }

    private func writeLoop() {
        while true {
            wake.wait()
            let (lines, closed) = outgoing.withLock { state -> ([Data], Bool) in
                // A sender writing directly signals again when it leaves lines behind.
                guard !state.closed, !state.writing, !state.lines.isEmpty else { return ([], state.closed) }
                defer {
                    state.lines.removeAll(keepingCapacity: true)
                    state.queuedBytes = 0
                    state.writing = true
                }
                return (state.lines, false)
            }
            if closed { break }
            if lines.isEmpty { continue }
            var batch = Data()
            for line in lines { batch.append(line) }
            let written = UnixSocket.writeAll(fd, batch)
            let more = outgoing.withLock { state -> Bool in
                state.writing = false
                return !state.lines.isEmpty
            }
            if !written {
                close()
                break
            }
            if more { wake.signal() }
        }
        writerDone.signal()
    }
}
