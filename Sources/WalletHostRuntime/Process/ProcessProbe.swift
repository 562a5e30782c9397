import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Measurements of bare processes, for benchmarks and baselines: how long a program takes from
/// spawn to its first line of output, spawned exactly as the host spawns extensions.
public enum ProcessProbe {
    /// Spawns `executablePath` (no rlimits beyond the host's defaults) and returns the time until
    /// its first stdout line, then reaps it.
    /// - Throws: ``SpawnError`` when it cannot start; ``ConfigurationError`` when it printed nothing.
    public static func spawnToFirstLine(executablePath: String, arguments: [String] = [],
                                        environment: [String: String] = [:]) throws -> Duration {
        let started = ContinuousClock.now
        let child = try ChildProcess.spawn(SpawnConfiguration(executablePath: executablePath, arguments: arguments,
                                                              environment: environment, workingDirectory: nil,
                                                              limits: ProcessLimits(dataBytes: nil)))
        defer {
            child.signalGroup(SIGKILL)
            var status: Int32 = 0
            _ = waitpid(child.groupLeader, &status, 0)
            child.closeDescriptors()
        }
        var byte: UInt8 = 0
        var fds = [pollfd(fd: child.stdoutReader, events: Int16(POLLIN), revents: 0)]
        while true {
            _ = SystemCall.poll(&fds, timeoutMilliseconds: 5_000)
            let count: Int?  // nil: nothing to read yet
            do {
                count = try withUnsafeMutableBytes(of: &byte) { try SystemCall.read(child.stdoutReader, into: $0) }
            } catch {
                throw ConfigurationError("\(executablePath): reading stdout failed (errno \((error as? SystemCallError)?.errno ?? 0))")
            }
            if count == 1, byte == UInt8(ascii: "\n") { return ContinuousClock.now - started }
            if count == 0 { throw ConfigurationError("\(executablePath) exited without printing a line") }
            if ContinuousClock.now - started > .seconds(5) {
                throw ConfigurationError("\(executablePath) printed no line within 5 s")
            }
        }
    }

    /// The current footprint (resident anonymous memory) of a process, in bytes.
    public static func footprintBytes(pid: Int32) -> Int? {
        FootprintReader.footprintBytes(of: pid)
    }
}
