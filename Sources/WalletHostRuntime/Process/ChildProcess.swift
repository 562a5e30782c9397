import CWalletSpawn
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A spawned child with its end of every pipe, led in its own process group.
///
/// The child sees fd 3 (reads host messages) and fd 4 (writes its messages); stdout and
/// stderr come back on two more pipes. This type owns the parent's descriptors; `closeDescriptors()`
/// releases them exactly once.
///
/// A sandboxed child is two processes: the sandbox init (PID 1 of the namespace, the group
/// leader, the one the host waits for) and the extension it started (``pid``). The init reports
/// the extension's exact wait status on a pipe of its own before it exits.
final class ChildProcess: Sendable {
    /// The extension's process (as this host's PID namespace numbers it).
    let pid: pid_t
    /// The process the host waits for and whose group it signals: the sandbox init, or the
    /// extension itself when unsandboxed.
    let groupLeader: pid_t
    /// The sandbox init's reports (non-blocking); -1 when unsandboxed.
    let reportReader: Int32
    var sandboxed: Bool { reportReader >= 0 }
    /// Why a process that was to be sandboxed is not (what the kernel refused, a missing init).
    let unsandboxedReason: String?
    /// Readable when the child exits; -1 when pidfd_open is unavailable.
    let exitDescriptor: Int32
    /// Host -> extension (non-blocking write end).
    let requestWriter: Int32
    /// Extension -> host (non-blocking read end).
    let responseReader: Int32
    let stdoutReader: Int32
    let stderrReader: Int32
    /// The egress proxy's listener in the process's network namespace (the proxy owns it); -1: none.
    let proxyListener: Int32
    private let closed = Atomic<Bool>(false)

    init(pid: pid_t, groupLeader: pid_t, reportReader: Int32, unsandboxedReason: String?, exitDescriptor: Int32,
                 requestWriter: Int32, responseReader: Int32, stdoutReader: Int32, stderrReader: Int32, proxyListener: Int32 = -1) {
        self.pid = pid
        self.proxyListener = proxyListener
        self.unsandboxedReason = unsandboxedReason
        self.groupLeader = groupLeader
        self.reportReader = reportReader
        self.exitDescriptor = exitDescriptor
        self.requestWriter = requestWriter
        self.responseReader = responseReader
        self.stdoutReader = stdoutReader
        self.stderrReader = stderrReader
    }

    /// Starts the process, in its sandbox when the configuration has one. Only where the kernel
    /// refuses the sandbox's namespaces (``SandboxStatus/refusal``, a probe) does a sandbox that
    /// is not ``SpawnConfiguration/sandboxRequired`` run without it; any other failure to set
    /// the sandbox up fails this launch, naming the step (fail closed).
    static func spawn(_ configuration: SpawnConfiguration) throws -> ChildProcess {
        guard let plan = configuration.sandbox else { return try spawnOnce(configuration) }
        // A probe that could not tell (a transient clone error, every try): neither way, this launch fails.
        if case .undetermined(let reason) = SandboxStatus.answer {
            throw SpawnError.sandboxUndetermined(configuration.executablePath, reason)
        }
        if let refusal = SandboxStatus.refusal {
            if configuration.sandboxRequired { throw SpawnError.sandboxRequired(configuration.executablePath, refusal) }
            SandboxStatus.warnOnce(refusal)
            var unsandboxed = configuration
            unsandboxed.sandbox = nil
            return try spawnOnce(unsandboxed, unsandboxedReason: refusal)
        }
        guard access(plan.initPath, X_OK) == 0 else {
            var error = SpawnError(executablePath: configuration.executablePath, errno: ENOENT, stage: .sandboxInit,
                                   inSandboxSetup: true)
            error.explanation = "the sandbox init \(plan.initPath) is missing or not executable (it is built beside "
                + "wallet-host: swift build builds it; scripts/install installs both)"
            throw error
        }
        return try spawnOnce(configuration)
    }
    /// Sends `signal` to the child's whole process group (grandchildren included; a sandboxed
    /// one's init ignores all but SIGKILL, and its death ends everything in its namespace).
    func signalGroup(_ signal: Int32) {
        // The leader's pid is the group id. ESRCH (all gone) is fine.
        _ = kill(-groupLeader, signal)
    }

    /// Reaps the child if it has exited; nil while it runs. For a sandboxed child: the
    /// extension's own status as the init reported it, else (the init was killed) the init's.
    func reapIfExited() -> TerminationStatus? {
        var status: Int32 = 0
        let result = wh_waitpid(groupLeader, &status, wh_wnohang())
        guard result == groupLeader else { return nil }
        return TerminationStatus(waitStatus: reportedExitStatus() ?? status)
    }

    /// The extension's wait status from the init's reports, if it sent it.
    private func reportedExitStatus() -> Int32? {
        guard reportReader >= 0 else { return nil }
        var record: (Int32, Int32) = (0, 0)
        while (try? withUnsafeMutableBytes(of: &record, { try SystemCall.read(reportReader, into: $0) })) == MemoryLayout<(Int32, Int32)>.size {
            if record.0 == Int32(wh_init_report_exited.rawValue) { return record.1 }
        }
        return nil
    }

    /// Releases the parent's descriptors (idempotent).
    func closeDescriptors() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        [requestWriter, responseReader, stdoutReader, stderrReader, exitDescriptor, reportReader].filter { $0 >= 0 }
            .forEach(SystemCall.close)
        if proxyListener >= 0 { EgressProxy.shared?.close(listener: proxyListener) }
    }
}
