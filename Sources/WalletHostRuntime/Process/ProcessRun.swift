import Foundation
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// A program run to completion the way the host runs extensions (process group, pdeathsig,
/// rlimits, allow-listed environment), with its output captured line by line. The host uses it
/// to "open" a containing app, which logs in and writes its cards into its App Group.
public struct ProcessRun: Sendable {
    /// How the program ended.
    public var status: TerminationStatus
    public var stdoutLines: [String]
    public var stderrLines: [String]
    public var milliseconds: Double
    /// True when the host killed it for running past the timeout.
    public var timedOut: Bool
    /// Set when the host ended it at one of its ``RunBounds`` (memory, container quota): how, in
    /// the words an extension's end is reported in (`EXC_RESOURCE -> ...`, `over its container quota`).
    public var boundsExit: ExtensionExit?

    /// Runs `configuration` until it exits or `timeout` passes (then its group is killed).
    /// - Parameter bounds: an issuer's code: its limits replace the configuration's, and it is
    ///   ended at its memory limit or container quota as an extension is.
    /// - Throws: ``SpawnError`` when it cannot start.
    public static func run(_ configuration: SpawnConfiguration, timeout: Duration, bounds: RunBounds? = nil) throws -> ProcessRun {
        let started = ContinuousClock.now
        let watch = bounds.map(RunBoundsWatch.init)
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(watch?.apply(to: configuration) ?? configuration)
        } catch {
            watch?.abandon()
            throw error
        }
        watch?.start(child)
        defer { child.closeDescriptors() }
        var stdout = LineCollector()
        var stderr = LineCollector()
        var timedOut = false
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var status: TerminationStatus?
        while status == nil {
            // Woken by output, by the exit (the pidfd), or when a check is due: no periodic
            // wake-up for a program that runs quietly.
            var fds = [
                pollfd(fd: stdout.ended ? -1 : child.stdoutReader, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stderr.ended ? -1 : child.stderrReader, events: Int16(POLLIN), revents: 0),
                pollfd(fd: child.exitDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            _ = SystemCall.poll(&fds, timeoutMilliseconds: Self.waitMilliseconds(child, watch: watch, until: started + timeout))
            stdout.drain(child.stdoutReader, buffer)
            stderr.drain(child.stderrReader, buffer)
            status = child.reapIfExited()
            if status == nil, let watch, watch.check(child) { continue }
            if status == nil, !timedOut, ContinuousClock.now - started > timeout {
                timedOut = true
                child.signalGroup(SIGKILL)
            }
        }
        child.signalGroup(SIGKILL)
        stdout.drain(child.stdoutReader, buffer)
        stderr.drain(child.stderrReader, buffer)
        let stderrLines = stderr.finish()
        let boundsExit = watch?.finish(child, status: status!, stderrTail: stderrLines)
        return ProcessRun(status: status!, stdoutLines: stdout.finish(), stderrLines: stderrLines,
                          milliseconds: (.now - started).milliseconds, timedOut: timedOut, boundsExit: boundsExit)
    }
}

extension ProcessRun {
    /// How long a run's wait may last: until its timeout, or its bounds' next check; 20 ms
    /// without a pidfd (the exit is then looked for), and past the timeout (the group was
    /// killed) until it is reaped.
    fileprivate static func waitMilliseconds(_ child: ChildProcess, watch: RunBoundsWatch?,
                                             until deadline: ContinuousClock.Instant) -> Int32 {
        var wait = max(deadline - .now, .milliseconds(1))
        if let watch { wait = min(wait, watch.sampleInterval) }
        if child.exitDescriptor < 0 { wait = min(wait, .milliseconds(20)) }
        return Int32(min(wait.milliseconds.rounded(.up), 60_000))
    }
}

/// Splits a non-blocking pipe's bytes into lines with the protocol's ``LineFramer``, capped
/// as the host caps an extension's output: a line over 64 KiB is logged as its size only.
private struct LineCollector {
    private var framer = LineFramer(maximumLineBytes: 64 * 1024)
    private var lines: [String] = []
    /// The pipe reached its end (or failed): nothing more to wait for on it.
    private(set) var ended = false

    mutating func drain(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) {
        while !ended {
            let count: Int?
            do {
                count = try SystemCall.read(fd, into: buffer)
            } catch {
                count = 0
            }
            guard let count else { return }
            guard count > 0 else {
                ended = true
                return
            }
            collect(framer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count])))
        }
    }

    /// The lines, the last one included even without its newline: unlike a protocol
    /// message, an app's last words count when it exits mid-line.
    mutating func finish() -> [String] {
        if framer.bufferedByteCount > 0 { collect(framer.append(Data([UInt8(ascii: "\n")]))) }
        let tail = framer.finish()
        if tail > 0 { lines.append("(\(tail) bytes without a final newline, not shown)") }
        return lines
    }

    private mutating func collect(_ frames: [LineFramer.Frame]) {
        for frame in frames {
            switch frame {
            case .line(let data): lines.append(String(decoding: data, as: UTF8.self))
            case .oversized(let byteCount): lines.append("(a line of \(byteCount) bytes, not shown)")
            }
        }
    }
}
