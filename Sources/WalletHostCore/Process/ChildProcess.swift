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
final class ChildProcess: Sendable {
    let pid: pid_t
    /// Readable when the child exits; -1 when pidfd_open is unavailable.
    let exitDescriptor: Int32
    /// Host -> extension (non-blocking write end).
    let requestWriter: Int32
    /// Extension -> host (non-blocking read end).
    let responseReader: Int32
    let stdoutReader: Int32
    let stderrReader: Int32
    private let closed = Atomic<Bool>(false)

    private init(pid: pid_t, exitDescriptor: Int32, requestWriter: Int32, responseReader: Int32,
                 stdoutReader: Int32, stderrReader: Int32) {
        self.pid = pid
        self.exitDescriptor = exitDescriptor
        self.requestWriter = requestWriter
        self.responseReader = responseReader
        self.stdoutReader = stdoutReader
        self.stderrReader = stderrReader
    }

    /// Starts the process. Runs the fork on the long-lived spawn thread (see ``SpawnThread``).
    static func spawn(_ configuration: SpawnConfiguration) throws -> ChildProcess {
        // The first spawn starts the spawn thread; it gets going while the pipes are made.
        let spawner = SpawnThread.shared
        let requests = try SystemCall.pipe(nonBlockingWrite: true)
        let responses = try SystemCall.pipe(nonBlockingRead: true)
        let stdout = try SystemCall.pipe(nonBlockingRead: true)
        let stderr = try SystemCall.pipe(nonBlockingRead: true)
        let childEnds = [requests.read, responses.write, stdout.write, stderr.write]
        defer { childEnds.forEach(SystemCall.close) }
        let devNull = NullDevice.descriptor
        let parentEnds = [requests.write, responses.read, stdout.read, stderr.read]
        // Room for large pass-entry payloads without blocking either side.
        _ = wh_set_pipe_size(requests.write, 1 << 20)
        _ = wh_set_pipe_size(responses.write, 1 << 20)

        let outcome = spawner.run {
            Self.forkAndExec(configuration, stdin: devNull, stdout: stdout.write, stderr: stderr.write,
                             rpcIn: requests.read, rpcOut: responses.write)
        }
        switch outcome {
        case .failure(let error):
            parentEnds.forEach(SystemCall.close)
            throw error
        case .success(let (pid, cloneDescriptor)):
            var pidfd = cloneDescriptor
            if pidfd < 0 {
                // A kernel without CLONE_PIDFD (before 5.2) may still have pidfd_open (5.3), or neither.
                pidfd = wh_pidfd_open(pid)
                if pidfd >= 0 { _ = fcntl(pidfd, F_SETFD, FD_CLOEXEC) }
            }
            return ChildProcess(pid: pid, exitDescriptor: pidfd, requestWriter: requests.write,
                                responseReader: responses.read, stdoutReader: stdout.read, stderrReader: stderr.read)
        }
    }

    private static func forkAndExec(_ configuration: SpawnConfiguration, stdin: Int32, stdout: Int32, stderr: Int32,
                                    rpcIn: Int32, rpcOut: Int32) -> Result<(pid: pid_t, pidfd: Int32), SpawnError> {
        let argumentStrings = [configuration.executablePath] + configuration.arguments
        let environmentStrings = configuration.environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        var argv: [UnsafeMutablePointer<CChar>?] = argumentStrings.map { strdup($0) } + [nil]
        var envp: [UnsafeMutablePointer<CChar>?] = environmentStrings.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = -1
        var pidfd: Int32 = -1
        var error: Int32 = 0
        var stage: Int32 = 0
        let limits = configuration.limits
        let result: Int32 = configuration.executablePath.withCString { path in
            (configuration.workingDirectory ?? "").withCString { directory in
                argv.withUnsafeMutableBufferPointer { argvBuffer in
                    envp.withUnsafeMutableBufferPointer { envpBuffer in
                        var spawnConfig = wh_spawn_config(
                            path: path,
                            argv: UnsafePointer(argvBuffer.baseAddress!),
                            envp: UnsafePointer(envpBuffer.baseAddress!),
                            working_directory: configuration.workingDirectory == nil ? nil : directory,
                            stdin_fd: stdin, stdout_fd: stdout, stderr_fd: stderr,
                            rpc_in_fd: rpcIn, rpc_out_fd: rpcOut,
                            rlimit_data: Int64(limits.dataBytes ?? -1),
                            rlimit_stack: Int64(limits.stackBytes ?? -1),
                            rlimit_core: Int64(limits.coreBytes ?? -1),
                            rlimit_nofile: Int64(limits.openFiles ?? -1),
                            rlimit_nproc: Int64(limits.processes ?? -1),
                            new_process_group: 1,
                            death_signal: SIGKILL)
                        return wh_spawn(&spawnConfig, &pid, &pidfd, &error, &stage)
                    }
                }
            }
        }
        if result == 0 { return .success((pid, pidfd)) }
        return .failure(SpawnError(executablePath: configuration.executablePath, errno: error, stage: Self.stageName(stage)))
    }

    private static func stageName(_ stage: Int32) -> String {
        switch stage {
        case 1: return "pipe"
        case 2: return "clone"
        case 3: return "setpgid"
        case 4: return "prctl(PR_SET_PDEATHSIG)"
        case 5: return "parent check"
        case 6: return "setrlimit"
        case 7: return "dup2"
        case 8: return "chdir"
        case 9: return "execve"
        default: return "spawn"
        }
    }

    /// Sends `signal` to the child's whole process group (grandchildren included).
    func signalGroup(_ signal: Int32) {
        // The child leads its group, so the group id is its pid. ESRCH (all gone) is fine.
        _ = kill(-pid, signal)
    }

    /// Reaps the child if it has exited; nil while it runs.
    func reapIfExited() -> TerminationStatus? {
        var status: Int32 = 0
        let result = wh_waitpid(pid, &status, wh_wnohang())
        guard result == pid else { return nil }
        return TerminationStatus(waitStatus: status)
    }

    /// Releases the parent's descriptors (idempotent).
    func closeDescriptors() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        [requestWriter, responseReader, stdoutReader, stderrReader, exitDescriptor].forEach(SystemCall.close)
    }
}

/// `/dev/null` for every child's stdin: opened once, read-only and close-on-exec, and kept for
/// the life of the host, instead of one open per launch. An open that failed (out of
/// descriptors) is tried again on the next launch.
enum NullDevice {
    private static let opened = Mutex<Int32>(-1)

    static var descriptor: Int32 {
        opened.withLock { descriptor in
            if descriptor < 0 { descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC) }
            return descriptor
        }
    }
}
