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
            var fds = [
                pollfd(fd: child.stdoutReader, events: Int16(POLLIN), revents: 0),
                pollfd(fd: child.stderrReader, events: Int16(POLLIN), revents: 0),
                pollfd(fd: child.exitDescriptor, events: Int16(POLLIN), revents: 0),
            ]
            _ = SystemCall.poll(&fds, timeoutMilliseconds: 20)
            stdout.drain(child.stdoutReader, buffer)
            stderr.drain(child.stderrReader, buffer)
            status = child.reapIfExited()
            if status == nil, let watch, watch.check(child) { continue }
            if status == nil, ContinuousClock.now - started > timeout {
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

/// Splits a non-blocking pipe's bytes into lines with the protocol's ``LineFramer``, capped
/// as the host caps an extension's output: a line over 64 KiB is logged as its size only.
private struct LineCollector {
    private var framer = LineFramer(maximumLineBytes: 64 * 1024)
    private var lines: [String] = []

    mutating func drain(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) {
        while let count = try? SystemCall.read(fd, into: buffer), count > 0 {
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
