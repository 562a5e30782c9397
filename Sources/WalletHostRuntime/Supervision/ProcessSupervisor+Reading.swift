import Foundation
import WalletWire

// Reading a supervised process's fd 4, stdout and stderr in its reactor turns: a bounded
// amount of bytes per read, and a bounded time per turn (frames read and not handled wait in
// a backlog), so that one process's flood costs the others a fraction of a millisecond.

/// Bytes one read in a turn takes at most: 16 KiB holds a hundred answers, and a flood of empty
/// lines is framed in a bounded time.
let turnReadBytes = 16 * 1024
/// Reads of fd 4 in one turn, at most.
let responseReadsPerTurn = 4
/// A line of fd 4 longer than this is handled on a thread of its own (decoding 16 MiB of JSON
/// takes a quarter of a second), the process's other I/O paused meanwhile.
let largeFrameBytes = 256 * 1024

/// How far a turn got through fd 4.
enum ResponseProgress {
    /// Every frame read was handled.
    case handledAll
    /// The turn's allowance ran out: frames wait in the backlog.
    case framesLeft
    /// A large frame, for a thread of its own (the rest waits in the backlog).
    case large(LineFramer.Frame)
}

/// Frames read from one stream and not yet handled: what a turn had no time for.
struct FrameBacklog {
    private var frames: [LineFramer.Frame] = []
    private var next = 0

    var isEmpty: Bool { next >= frames.count }

    /// Frames just read; the backlog must be empty.
    mutating func refill(_ read: [LineFramer.Frame]) {
        frames = read
        next = 0
    }

    /// Hands frames to `handle`, in order, until none is left (true) or `allowanceEnds` has
    /// passed (false; looked at every 16 frames, and never before the first), or `handle` took a
    /// frame without handling it (returned false: false).
    mutating func drain(allowanceEnds: ContinuousClock.Instant?, _ handle: (LineFramer.Frame) -> Bool) -> Bool {
        var handled = 0
        while next < frames.count {
            if let allowanceEnds, handled > 0, handled % 16 == 0, ContinuousClock.now >= allowanceEnds { return false }
            let goesOn = handle(frames[next])
            next += 1
            handled += 1
            if !goesOn { return false }
        }
        frames = []
        next = 0
        return true
    }
}

/// One stream a process writes (fd 4, stdout or stderr) as its reader keeps it.
struct StreamState {
    var framer: LineFramer
    /// Frames read and not yet handled (a turn's allowance ran out): the next turn's first.
    var backlog = FrameBacklog()
    /// False once the stream reached its end (its backlog is empty then).
    var open = true
}

extension ProcessSupervisor {
    enum OutputStream: String {
        case stdout, stderr
    }

    /// How a read of one stream ended.
    private enum StreamProgress {
        case handledAll
        /// `handle` stopped, or the allowance ran out: frames wait in the backlog.
        case stopped
        /// The stream ended, with this many bytes after its last newline.
        case ended(partialLineBytes: Int)
    }

    /// Reads `fd` at most `reads` times, the backlog first, handing frames to `handle` until the
    /// turn's allowance is spent (or `handle` returns false). A read shorter than asked for
    /// emptied the pipe and ends the reads (epoll reports what comes next): a warm call's answer
    /// costs one read.
    /// - Parameters:
    ///   - allowanceEnds: when the turn must leave the rest for its next (nil: no bound).
    ///   - untilEnd: read on after short reads, 64 KiB at a time (the drain after the exit).
    private func read(_ fd: Int32, _ stream: inout StreamState, buffer: UnsafeMutableRawBufferPointer,
                      allowanceEnds: ContinuousClock.Instant?, reads: Int, untilEnd: Bool,
                      handle: (LineFramer.Frame) -> Bool) -> StreamProgress {
        guard stream.backlog.drain(allowanceEnds: allowanceEnds, handle) else { return .stopped }
        let readBytes = untilEnd ? buffer.count : min(buffer.count, turnReadBytes)
        for _ in 0..<reads {
            let count: Int?
            do {
                count = try SystemCall.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<readBytes]))
            } catch {
                count = 0
            }
            guard let count else { return .handledAll }
            if count == 0 {
                stream.open = false
                return .ended(partialLineBytes: stream.framer.finish())
            }
            stream.backlog.refill(stream.framer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count])))
            guard stream.backlog.drain(allowanceEnds: allowanceEnds, handle) else { return .stopped }
            if count < readBytes && !untilEnd { return .handledAll }
        }
        return .handledAll
    }

    /// Reads fd 4 and hands its frames to the delegate (``read(_:_:buffer:allowanceEnds:reads:untilEnd:handle:)``).
    /// - Parameter largeFramesApart: hand a large frame back (``ResponseProgress/large(_:)``)
    ///   instead of decoding it here.
    func readResponses(_ buffer: UnsafeMutableRawBufferPointer, loop: inout IOLoopState, allowanceEnds: ContinuousClock.Instant?,
                       reads: Int = responseReadsPerTurn, untilEnd: Bool = false, largeFramesApart: Bool = true) -> ResponseProgress {
        let delegate = loop.delegate
        var large: LineFramer.Frame?
        let progress = read(child.responseReader, &loop.responses, buffer: buffer, allowanceEnds: allowanceEnds, reads: reads,
                            untilEnd: untilEnd) { frame in
            if largeFramesApart, case .line(let line) = frame, line.count > largeFrameBytes {
                large = frame
                return false
            }
            delegate.supervisor(self, received: frame)
            return true
        }
        switch progress {
        case .handledAll: return .handledAll
        case .stopped: return large.map { .large($0) } ?? .framesLeft
        case .ended(let partialLineBytes):
            delegate.supervisorResponseChannelClosed(self, partialLineBytes: partialLineBytes)
            return .handledAll
        }
    }

    /// Reads stdout or stderr and logs its lines (``read(_:_:buffer:allowanceEnds:reads:untilEnd:handle:)``).
    /// - Returns: false when lines were left in the backlog (the process needs another turn).
    func readOutput(_ buffer: UnsafeMutableRawBufferPointer, stream: OutputStream, loop: inout IOLoopState,
                    allowanceEnds: ContinuousClock.Instant?, reads: Int = 1, untilEnd: Bool = false) -> Bool {
        var sawAllocationFailure = loop.sawAllocationFailure
        defer { loop.sawAllocationFailure = sawAllocationFailure }
        let fd = stream == .stdout ? child.stdoutReader : child.stderrReader
        let handle = { (frame: LineFramer.Frame) -> Bool in
            self.handleOutput(frame, stream: stream, sawAllocationFailure: &sawAllocationFailure)
            return true
        }
        let progress = stream == .stdout
            ? read(fd, &loop.stdout, buffer: buffer, allowanceEnds: allowanceEnds, reads: reads, untilEnd: untilEnd, handle: handle)
            : read(fd, &loop.stderr, buffer: buffer, allowanceEnds: allowanceEnds, reads: reads, untilEnd: untilEnd, handle: handle)
        switch progress {
        case .handledAll: return true
        case .stopped: return false
        case .ended(let tail):
            if tail > 0 { recordOutput("(\(tail) bytes without a final newline)", stream: stream.rawValue) }
            return true
        }
    }

    /// One line of output: logged within the cap (stdout past the cap is only counted, without
    /// making a string of it); stderr also feeds the tail and the allocation-failure check.
    private func handleOutput(_ frame: LineFramer.Frame, stream: OutputStream, sawAllocationFailure: inout Bool) {
        if stream == .stdout, case .line(let data) = frame,
           outputLog.withLock({ $0.dropIfPastCap(bytes: data.count + 1) }) { return }
        let line: String
        switch frame {
        case .line(let data): line = String(decoding: data, as: UTF8.self)
        case .oversized(let count): line = "(a line of \(count) bytes, not shown)"
        }
        if stream == .stderr, !sawAllocationFailure, Self.looksLikeAllocationFailure(line) {
            sawAllocationFailure = true
        }
        recordOutput(line, stream: stream.rawValue)
    }

    /// Swift's "failed to allocate", C's ENOMEM text, C++'s bad_alloc, Python's MemoryError
    /// (looked for in lines of at most 1 KiB: the runtime's messages are short).
    static func looksLikeAllocationFailure(_ line: String) -> Bool {
        guard line.utf8.count <= 1024 else { return false }
        let markers = ["failed to allocate", "cannot allocate memory", "out of memory", "bad_alloc", "memoryerror",
                       "malloc returned null"]
        let lowered = line.lowercased()
        return markers.contains { lowered.contains($0) }
    }
}
