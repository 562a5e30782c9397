import CWalletSpawn
import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    /// The pipes of one spawn: the child's ends, which the host closes once the child has them,
    /// and the host's, which the spawned ``ChildProcess`` owns.
    struct SpawnPipes {
        let requests: (read: Int32, write: Int32)
        let responses: (read: Int32, write: Int32)
        let stdout: (read: Int32, write: Int32)
        let stderr: (read: Int32, write: Int32)
        /// The sandbox init's report pipe (it writes, the host reads); nil unsandboxed.
        let reports: (read: Int32, write: Int32)?
        private var childEndsOpen = true

        /// Makes every pipe; those made before one that fails are closed.
        init(sandboxed: Bool) throws {
            var made: [Int32] = []
            func pipe(nonBlockingRead: Bool = false, nonBlockingWrite: Bool = false) throws -> (read: Int32, write: Int32) {
                let ends = try SystemCall.pipe(nonBlockingRead: nonBlockingRead, nonBlockingWrite: nonBlockingWrite)
                made += [ends.read, ends.write]
                return ends
            }
            do {
                requests = try pipe(nonBlockingWrite: true)
                responses = try pipe(nonBlockingRead: true)
                stdout = try pipe(nonBlockingRead: true)
                stderr = try pipe(nonBlockingRead: true)
                reports = sandboxed ? try pipe() : nil
            } catch {
                made.forEach(SystemCall.close)
                throw error
            }
            // Room for large pass-entry payloads without blocking either side.
            _ = wh_set_pipe_size(requests.write, 1 << 20)
            _ = wh_set_pipe_size(responses.write, 1 << 20)
        }

        var childEnds: [Int32] { [requests.read, responses.write, stdout.write, stderr.write] + (reports.map { [$0.write] } ?? []) }
        var parentEnds: [Int32] { [requests.write, responses.read, stdout.read, stderr.read] + (reports.map { [$0.read] } ?? []) }

        /// Closes the child's ends (idempotent).
        mutating func closeChildEnds() {
            if childEndsOpen { childEnds.forEach(SystemCall.close) }
            childEndsOpen = false
        }
    }

    /// Starts the process. Runs the fork on the long-lived spawn thread (see ``SpawnThread``).
    static func spawnOnce(_ configuration: SpawnConfiguration, unsandboxedReason: String? = nil) throws -> ChildProcess {
        // The first spawn starts the spawn thread; it gets going while the pipes are made.
        let spawner = SpawnThread.shared
        var pipes = try SpawnPipes(sandboxed: configuration.sandbox != nil)
        defer { pipes.closeChildEnds() }
        let devNull = NullDevice.descriptor
        let outcome = spawner.run { [pipes] in
            Self.forkAndExec(configuration, stdin: devNull, stdout: pipes.stdout.write, stderr: pipes.stderr.write,
                             rpcIn: pipes.requests.read, rpcOut: pipes.responses.write, reports: pipes.reports?.write ?? -1)
        }
        switch outcome {
        case .failure(let error):
            pipes.parentEnds.forEach(SystemCall.close)
            throw error
        case .success(let (leader, cloneDescriptor, listener)):
            let pidfd = cloneDescriptor >= 0 ? cloneDescriptor : openExitDescriptor(leader)
            var pid = leader
            if let reports = pipes.reports {
                // Only the init holds the write end now: its first report, or the end of the pipe if it died.
                pipes.closeChildEnds()
                pid = try awaitSandboxedStart(initPID: leader, reports: reports.read, stderr: pipes.stderr.read,
                                              configuration: configuration,
                                              closingOnFailure: pipes.parentEnds + [pidfd, listener])
            }
            let proxyListener = hand(listener: listener, of: pid, configuration: configuration)
            return ChildProcess(pid: pid, groupLeader: leader, reportReader: pipes.reports?.read ?? -1,
                                unsandboxedReason: unsandboxedReason, exitDescriptor: pidfd,
                                requestWriter: pipes.requests.write, responseReader: pipes.responses.read,
                                stdoutReader: pipes.stdout.read, stderrReader: pipes.stderr.read, proxyListener: proxyListener)
        }
    }

    /// A pidfd for `leader` when the clone gave none: a kernel without CLONE_PIDFD (before 5.2)
    /// may still have pidfd_open (5.3), or neither (-1).
    private static func openExitDescriptor(_ leader: pid_t) -> Int32 {
        let pidfd = wh_pidfd_open(leader)
        if pidfd >= 0 { _ = fcntl(pidfd, F_SETFD, FD_CLOEXEC) }
        return pidfd
    }

    /// Gives the egress proxy the listener a sandboxed process's namespace sent back.
    /// - Returns: the listener the child keeps for its proxy, or -1 (none, or no proxy: closed).
    private static func hand(listener: Int32, of pid: pid_t, configuration: SpawnConfiguration) -> Int32 {
        guard listener >= 0 else { return -1 }
        guard let proxy = EgressProxy.shared else {
            SystemCall.close(listener)
            return -1
        }
        proxy.serve(listener: listener, session: configuration.egress ?? EgressSession(), pid: pid)
        return listener
    }

    /// Waits for the sandbox init to start the extension. When it does not, the init is killed
    /// (unless it ended already) and reaped, `closingOnFailure` is closed, and the error says
    /// what the init said on stderr.
    /// - Returns: the extension's pid.
    private static func awaitSandboxedStart(initPID leader: pid_t, reports: Int32, stderr: Int32, configuration: SpawnConfiguration,
                                            closingOnFailure descriptors: [Int32]) throws(SpawnError) -> pid_t {
        do {
            let pid = try awaitStart(initPID: leader, reports: reports, configuration: configuration)
            SystemCall.setNonBlocking(reports)
            return pid
        } catch var error {
            var status: Int32 = 0
            // The init may still be on its way out (its namespace empties first): wait for it.
            let endedAlready = error.stage == .sandboxInit
            if !endedAlready { _ = kill(-leader, SIGKILL) }
            _ = wh_waitpid(leader, &status, 0)
            if endedAlready {
                // What it said on stderr (the dynamic loader names a missing library there).
                var bytes = [UInt8](repeating: 0, count: 512)
                let count = (try? bytes.withUnsafeMutableBytes { try SystemCall.read(stderr, into: $0) }) ?? 0
                let said = count > 0 ? String(decoding: bytes[..<count], as: UTF8.self)
                    .split(separator: "\n").first.map { ": \($0)" } ?? "" : ""
                error.explanation = "the sandbox init \(TerminationStatus(waitStatus: status)) before it started the extension\(said)"
            }
            descriptors.filter { $0 >= 0 }.forEach(SystemCall.close)
            throw error
        }
    }

    /// Reads the sandbox init's first report: the extension started (its pid in this namespace,
    /// from the init's list of children), or could not be executed.
    private static func awaitStart(initPID: pid_t, reports: Int32, configuration: SpawnConfiguration) throws(SpawnError) -> pid_t {
        var record: (Int32, Int32) = (0, 0)
        let count = withUnsafeMutableBytes(of: &record) { buffer in
            SystemCall.retryingInterrupts { read(reports, buffer.baseAddress, buffer.count) }
        }
        guard count == MemoryLayout<(Int32, Int32)>.size else {
            // The init ended without a word (a library it needs is not in the sandbox, say): the sandbox's failure.
            throw SpawnError(executablePath: configuration.executablePath, errno: count < 0 ? errno : ESRCH,
                             stage: .sandboxInit, inSandboxSetup: true)
        }
        switch record.0 {
        case Int32(wh_init_report_started.rawValue):
            // The init forks once, so its first child is the extension (orphans it adopts come after).
            let extensionPID = wh_first_child(initPID)
            return extensionPID > 0 ? extensionPID : initPID
        case Int32(wh_init_report_exec_failed.rawValue):
            throw SpawnError(executablePath: configuration.executablePath, errno: record.1, stage: .execve)
        case Int32(wh_init_report_setup_failed.rawValue):
            throw SpawnError(executablePath: configuration.executablePath, errno: record.1,
                             stage: .sandboxInitSetup, inSandboxSetup: true)
        default:
            throw SpawnError(executablePath: configuration.executablePath, errno: EPROTO, stage: .sandboxInit)
        }
    }
}
