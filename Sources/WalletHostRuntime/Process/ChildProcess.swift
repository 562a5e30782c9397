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

    private init(pid: pid_t, groupLeader: pid_t, reportReader: Int32, unsandboxedReason: String?, exitDescriptor: Int32,
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

    /// Starts the process. Runs the fork on the long-lived spawn thread (see ``SpawnThread``).
    private static func spawnOnce(_ configuration: SpawnConfiguration, unsandboxedReason: String? = nil) throws -> ChildProcess {
        // The first spawn starts the spawn thread; it gets going while the pipes are made.
        let spawner = SpawnThread.shared
        let requests = try SystemCall.pipe(nonBlockingWrite: true)
        let responses = try SystemCall.pipe(nonBlockingRead: true)
        let stdout = try SystemCall.pipe(nonBlockingRead: true)
        let stderr = try SystemCall.pipe(nonBlockingRead: true)
        // The sandbox init's report pipe: it writes, the host reads.
        let reports = configuration.sandbox == nil ? nil : try SystemCall.pipe()
        let childEnds = [requests.read, responses.write, stdout.write, stderr.write] + (reports.map { [$0.write] } ?? [])
        var childEndsOpen = true
        func closeChildEnds() {
            if childEndsOpen { childEnds.forEach(SystemCall.close) }
            childEndsOpen = false
        }
        defer { closeChildEnds() }
        let devNull = NullDevice.descriptor
        let parentEnds = [requests.write, responses.read, stdout.read, stderr.read] + (reports.map { [$0.read] } ?? [])
        // Room for large pass-entry payloads without blocking either side.
        _ = wh_set_pipe_size(requests.write, 1 << 20)
        _ = wh_set_pipe_size(responses.write, 1 << 20)

        let outcome = spawner.run {
            Self.forkAndExec(configuration, stdin: devNull, stdout: stdout.write, stderr: stderr.write,
                             rpcIn: requests.read, rpcOut: responses.write, reports: reports?.write ?? -1)
        }
        switch outcome {
        case .failure(let error):
            parentEnds.forEach(SystemCall.close)
            throw error
        case .success(let (leader, cloneDescriptor, listener)):
            var pidfd = cloneDescriptor
            if pidfd < 0 {
                // A kernel without CLONE_PIDFD (before 5.2) may still have pidfd_open (5.3), or neither.
                pidfd = wh_pidfd_open(leader)
                if pidfd >= 0 { _ = fcntl(pidfd, F_SETFD, FD_CLOEXEC) }
            }
            var pid = leader
            if let reports {
                // Only the init holds the write end now: its first report, or the end of the pipe if it died.
                closeChildEnds()
                do {
                    pid = try Self.awaitStart(initPID: leader, reports: reports.read, configuration: configuration)
                } catch var error {
                    var status: Int32 = 0
                    // The init may still be on its way out (its namespace empties first): wait for it.
                    let endedAlready = error.stage == .sandboxInit
                    if !endedAlready { _ = kill(-leader, SIGKILL) }
                    _ = wh_waitpid(leader, &status, 0)
                    if endedAlready {
                        // What it said on stderr (the dynamic loader names a missing library there).
                        var bytes = [UInt8](repeating: 0, count: 512)
                        let count = (try? bytes.withUnsafeMutableBytes { try SystemCall.read(stderr.read, into: $0) }) ?? 0
                        let said = count > 0 ? String(decoding: bytes[..<count], as: UTF8.self)
                            .split(separator: "\n").first.map { ": \($0)" } ?? "" : ""
                        error.explanation = "the sandbox init \(TerminationStatus(waitStatus: status)) before it started the extension\(said)"
                    }
                    (parentEnds + [pidfd, listener]).filter { $0 >= 0 }.forEach(SystemCall.close)
                    throw error
                }
                SystemCall.setNonBlocking(reports.read)
            }
            if listener >= 0 {
                if let proxy = EgressProxy.shared {
                    proxy.serve(listener: listener, session: configuration.egress ?? EgressSession(), pid: pid)
                } else {
                    SystemCall.close(listener)
                }
            }
            return ChildProcess(pid: pid, groupLeader: leader, reportReader: reports?.read ?? -1,
                                unsandboxedReason: unsandboxedReason, exitDescriptor: pidfd,
                                requestWriter: requests.write, responseReader: responses.read,
                                stdoutReader: stdout.read, stderrReader: stderr.read,
                                proxyListener: listener >= 0 && EgressProxy.shared != nil ? listener : -1)
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

    private static func forkAndExec(_ configuration: SpawnConfiguration, stdin: Int32, stdout: Int32, stderr: Int32,
                                    rpcIn: Int32, rpcOut: Int32, reports: Int32) -> Result<(pid: pid_t, pidfd: Int32, listener: Int32), SpawnError> {
        guard let plan = configuration.sandbox else {
            return forkAndExec(configuration, sandbox: nil, stdin: stdin, stdout: stdout, stderr: stderr, rpcIn: rpcIn, rpcOut: rpcOut)
                .map { ($0.pid, $0.pidfd, -1) }
        }
        // The init runs first, with the extension's executable and arguments after its own name.
        var initConfiguration = configuration
        initConfiguration.executablePath = plan.initPath
        initConfiguration.arguments = [configuration.executablePath] + configuration.arguments
        // The host's temporary directory is not in the sandbox; its private one is /tmp.
        if initConfiguration.environment["TMPDIR"] != nil { initConfiguration.environment["TMPDIR"] = "/tmp" }
        // Its own network namespace unless --network host: one made ahead (a root host's pool),
        // or one made at clone. With the proxy, a Unix socket pair brings its listener back.
        let ownNetwork = plan.network != .host
        let networkNamespace = ownNetwork && plan.runAs != nil ? NetworkNamespacePool.shared?.take() ?? -1 : -1
        var channel: [Int32] = [-1, -1]
        if plan.network == .proxy {
            guard socketpair(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &channel) == 0 else {
                if networkNamespace >= 0 { SystemCall.close(networkNamespace) }
                return .failure(SpawnError(executablePath: configuration.executablePath, errno: errno, stage: .sandboxNetwork,
                                           inSandboxSetup: true))
            }
            initConfiguration.environment.merge(NetworkMode.proxyEnvironment) { _, proxy in proxy }
        }
        defer { (channel + [networkNamespace]).filter { $0 >= 0 }.forEach(SystemCall.close) }
        // C strings for every grant, freed when the spawn is over (the child has exec'd or failed by then).
        var strings: [UnsafeMutablePointer<CChar>] = []
        defer { strings.forEach { free($0) } }
        func cString(_ text: String?) -> UnsafePointer<CChar>? {
            guard let text, let copy = strdup(text) else { return nil }
            strings.append(copy)
            return UnsafePointer(copy)
        }
        let entries = plan.grants.map { grant in
            wh_sandbox_path(path: cString(grant.path)!, writable: grant.writable ? 1 : 0,
                            anchor: cString(grant.anchor), name: cString(grant.name), alone: grant.alone ? 1 : 0)
        }
        var failedPathIndex: Int32 = -1
        let result = entries.withUnsafeBufferPointer { buffer in
            withUnsafeMutablePointer(to: &failedPathIndex) { failedPath in
                var sandbox = wh_sandbox_config(
                    paths: buffer.baseAddress!, path_count: Int32(buffer.count),
                    user_namespace: plan.runAs == nil ? 1 : 0, outer_uid: geteuid(), outer_gid: getegid(),
                    run_as_uid: plan.runAs.map { Int64($0.uid) } ?? -1, run_as_gid: plan.runAs.map { Int64($0.gid) } ?? -1,
                    tmp_bytes: Int64(plan.temporaryBytes), status_fd: reports, failed_path_index: failedPath, template_fd: -1,
                    tmp_inodes: Int64(plan.temporaryInodes), shm_bytes: Int64(plan.sharedMemoryBytes),
                    shm_inodes: Int64(plan.sharedMemoryInodes),
                    own_network: ownNetwork ? 1 : 0, network_namespace_fd: networkNamespace, proxy_channel_fd: channel[1],
                    proxy_port: Int32(NetworkMode.proxyPort))
                sandbox.template_fd = withUnsafePointer(to: sandbox) { SandboxTemplates.descriptor(for: plan, config: $0) }
                failedPath.pointee = -1
                return forkAndExec(initConfiguration, sandbox: &sandbox, stdin: stdin, stdout: stdout, stderr: stderr,
                                   rpcIn: rpcIn, rpcOut: rpcOut)
            }
        }
        return result.map { started in
            (started.pid, started.pidfd, channel[0] >= 0 ? wh_receive_descriptor(channel[0]) : -1)
        }.mapError { error in
            // The extension's path in messages, not the init's; every failure here is the sandbox's.
            var failure = SpawnError(executablePath: configuration.executablePath, errno: error.errno,
                                     stage: error.stage == .execve ? .sandboxInitExecution(path: plan.initPath) : error.stage,
                                     inSandboxSetup: true)
            if plan.grants.indices.contains(Int(failedPathIndex)) {
                let grant = plan.grants[Int(failedPathIndex)]
                if error.stage == .sandboxContainerPath {
                    failure.explanation = ContainerDirectory.Refusal(path: grant.path, errno: error.errno).description
                } else if error.stage == .sandboxMounts {
                    failure.explanation = "sandbox mounts failed at \(grant.path): \(String(cString: strerror(error.errno))) (errno \(error.errno))"
                }
            }
            return failure
        }
    }

    private static func forkAndExec(_ configuration: SpawnConfiguration, sandbox: UnsafePointer<wh_sandbox_config>?,
                                    stdin: Int32, stdout: Int32, stderr: Int32,
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
        let ownUserNamespace = sandbox.map { $0.pointee.user_namespace != 0 } ?? false
        // The child reads the control groups' descriptors between clone and exec, from storage that stays put until then.
        let controlGroups = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(1, configuration.controlGroupDescriptors.count))
        defer { controlGroups.deallocate() }
        _ = controlGroups.initialize(from: configuration.controlGroupDescriptors)
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
                            rlimit_nproc: Int64(limits.processLimit(ownUserNamespace: ownUserNamespace) ?? -1),
                            rlimit_fsize: Int64(limits.fileBytes ?? -1),
                            new_process_group: 1,
                            death_signal: SIGKILL,
                            sandbox: sandbox,
                            cgroup_procs_fds: controlGroups.baseAddress,
                            cgroup_procs_count: Int32(configuration.controlGroupDescriptors.count),
                            nice_increment: Int32(limits.niceIncrement ?? 0))
                        return wh_spawn(&spawnConfig, &pid, &pidfd, &error, &stage)
                    }
                }
            }
        }
        if result == 0 { return .success((pid, pidfd)) }
        return .failure(SpawnError(executablePath: configuration.executablePath, errno: error, stage: SpawnStage(code: stage)))
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
