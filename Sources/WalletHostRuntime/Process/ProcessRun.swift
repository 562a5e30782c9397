import Foundation
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

    /// Runs `configuration` until it exits or `timeout` passes (then its group is killed). Its
    /// pipes, exit and timers are watched on `loop`; the calling thread waits.
    /// - Parameters:
    ///   - bounds: an issuer's code: its limits replace the configuration's, and it is ended at
    ///     its memory limit or container quota as an extension is.
    ///   - loop: the loop that watches it, whose clock the timeout and the bounds' samples are
    ///     on (nil: the host's shared loop, on the system clock); never the caller's own.
    /// - Throws: ``SpawnError`` when it cannot start; ``HostLoopError`` when there is no loop.
    public static func run(_ configuration: SpawnConfiguration, timeout: Duration, bounds: RunBounds? = nil,
                           loop: HostLoop? = nil) throws -> ProcessRun {
        let loop = try loop ?? HostLoop.shared()
        let started = loop.clock.now()
        let watch = bounds.map { RunBoundsWatch($0, clock: loop.clock) }
        let child: ChildProcess
        do {
            child = try ChildProcess.spawn(watch?.apply(to: configuration) ?? configuration)
        } catch {
            watch?.abandon()
            throw error
        }
        watch?.start(child)
        defer { child.closeDescriptors() }
        let outcome = ProcessRunWatch(child: child, bounds: watch, loop: loop).wait(until: started + timeout)
        let boundsExit = watch?.finish(child, status: outcome.status, stderrTail: outcome.stderrLines)
        return ProcessRun(status: outcome.status, stdoutLines: outcome.stdoutLines, stderrLines: outcome.stderrLines,
                          milliseconds: (loop.clock.now() - started).milliseconds, timedOut: outcome.timedOut,
                          boundsExit: boundsExit)
    }
}
