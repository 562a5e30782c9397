import Foundation
import Synchronization

// The output a supervised process writes: logged within its cap in lines and bytes, and its
// last stderr lines kept for the messages of failed calls.

extension ProcessSupervisor {
    /// Logs one line of the extension's output (stdout, stderr, `$/log`), within the process's
    /// cap in lines and bytes: a flood must not fill the disk. Past the cap, one notice, then
    /// only a count of what was dropped (reported when the process exits).
    func recordOutput(_ line: String, stream: String) {
        if stream == "stderr" { stderrTail.withLock { $0.append(line) } }
        let verdict = outputLog.withLock { $0.admit(bytes: line.utf8.count + 1, limit: context.outputLimit) }
        switch verdict {
        case .log:
            context.events.recordOutput(bundleIdentifier: context.bundleIdentifier, pid: child.pid, stream: stream, line: line)
        case .logWithNotice:
            context.events.recordOutput(bundleIdentifier: context.bundleIdentifier, pid: child.pid, stream: "host",
                                        line: "(output past \(context.outputLimit.description) is not logged)")
        case .drop:
            break
        }
    }

    /// After the exit: how much output the cap dropped, as one line in the log.
    func recordDroppedOutput() {
        let dropped = outputLog.withLock { $0.dropped }
        guard dropped.lines > 0 else { return }
        context.events.recordOutput(bundleIdentifier: context.bundleIdentifier, pid: child.pid, stream: "host",
                                    line: "(\(HumanReadable.counted(dropped.lines, "line")), \(dropped.bytes) bytes of output were not logged)")
    }

    /// How many stderr lines the process has written so far.
    var stderrMark: Int { stderrTail.withLock { $0.written } }

    /// Stderr lines written since `mark`: all of them when they fit in `limit`, else the first
    /// and the last few (a crash's message comes first, its backtrace after).
    func stderrLines(since mark: Int, limit: Int = 6) -> [String] {
        stderrTail.withLock { $0.lines(since: mark, limit: limit) }
    }
}

/// The last stderr lines of a process, numbered so that a call can ask for those written during it.
struct StderrTail {
    static let capacity = 64
    private(set) var written = 0
    private var lines: [String] = []

    mutating func append(_ line: String) {
        written += 1
        lines.append(line)
        if lines.count > Self.capacity { lines.removeFirst() }
    }

    /// Every kept line, oldest first.
    var all: [String] { lines }

    /// The kept lines written after the first `mark`; past `limit`, the first half and the
    /// last half of them with a note of how many were left out between.
    func lines(since mark: Int, limit: Int) -> [String] {
        let since = Array(lines.suffix(min(max(0, written - mark), lines.count)))
        guard since.count > limit else { return since }
        let head = limit / 2
        let tail = limit - head
        return Array(since.prefix(head)) + ["(\(since.count - limit) more lines)"] + Array(since.suffix(tail))
    }
}

/// How much of one process's output is logged.
public struct OutputLimit: Sendable, Equatable, CustomStringConvertible {
    public var lines: Int
    public var bytes: Int

    public init(lines: Int = 100_000, bytes: Int = 16 << 20) {
        self.lines = lines
        self.bytes = bytes
    }

    public var description: String {
        "\(HumanReadable.counted(lines, "line")) or \(HumanReadable.megabytes(bytes))"
    }
}

/// What one process has logged so far, and what its cap dropped.
struct OutputLog {
    enum Verdict {
        case log
        /// The first line over the cap: log a notice instead.
        case logWithNotice
        case drop
    }

    private(set) var lines = 0
    private(set) var bytes = 0
    private(set) var dropped = (lines: 0, bytes: 0)

    /// Counts a line as dropped when the cap was already reached (the caller then need not
    /// make a string of it). - Returns: whether it was dropped.
    mutating func dropIfPastCap(bytes count: Int) -> Bool {
        guard dropped.lines > 0 else { return false }
        dropped.lines += 1
        dropped.bytes += count
        return true
    }

    mutating func admit(bytes count: Int, limit: OutputLimit) -> Verdict {
        guard dropped.lines == 0, lines < limit.lines, bytes + count <= limit.bytes else {
            let first = dropped.lines == 0
            dropped.lines += 1
            dropped.bytes += count
            return first ? .logWithNotice : .drop
        }
        lines += 1
        bytes += count
        return .log
    }
}
