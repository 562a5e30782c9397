import CWalletSpawn
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    /// Clones and execs the configuration's program (through the sandbox init when it has a
    /// sandbox), on the spawn thread; returns the group leader, its pidfd (-1: none from the
    /// clone) and the egress proxy's listener brought back from its namespace (-1: none).
    static func forkAndExec(_ configuration: SpawnConfiguration, stdin: Int32, stdout: Int32, stderr: Int32,
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
        var failedPathIndex: Int32 = -1
        // The root as a template is built from (its C strings live until the spawn is over: the
        // child has exec'd or failed by then), with this launch's descriptors.
        let result = plan.withRootConfiguration { root in
            withUnsafeMutablePointer(to: &failedPathIndex) { failedPath in
                var sandbox = root.pointee
                sandbox.status_fd = reports
                sandbox.failed_path_index = failedPath
                sandbox.own_network = ownNetwork ? 1 : 0
                sandbox.network_namespace_fd = networkNamespace
                sandbox.proxy_channel_fd = channel[1]
                sandbox.proxy_port = Int32(NetworkMode.proxyPort)
                sandbox.template_fd = withUnsafePointer(to: sandbox) { SandboxTemplates.descriptor(for: plan, config: $0) }
                failedPath.pointee = -1
                return forkAndExec(initConfiguration, sandbox: &sandbox, stdin: stdin, stdout: stdout, stderr: stderr,
                                   rpcIn: rpcIn, rpcOut: rpcOut)
            }
        }
        return result.map { started in
            (started.pid, started.pidfd, channel[0] >= 0 ? wh_receive_descriptor(channel[0]) : -1)
        }.mapError { error in
            sandboxFailure(error, configuration: configuration, plan: plan, failedPathIndex: Int(failedPathIndex))
        }
    }

    /// A failure to start the sandbox init, in the extension's words: its path in messages, not
    /// the init's; the grant a mount or container check failed at, when the init named one.
    private static func sandboxFailure(_ error: SpawnError, configuration: SpawnConfiguration, plan: SandboxPlan,
                                       failedPathIndex: Int) -> SpawnError {
        var failure = SpawnError(executablePath: configuration.executablePath, errno: error.errno,
                                 stage: error.stage == .execve ? .sandboxInitExecution(path: plan.initPath) : error.stage,
                                 inSandboxSetup: true)
        if plan.grants.indices.contains(failedPathIndex) {
            let grant = plan.grants[failedPathIndex]
            if error.stage == .sandboxContainerPath {
                failure.explanation = ContainerDirectory.Refusal(path: grant.path, errno: error.errno).description
            } else if error.stage == .sandboxMounts {
                failure.explanation = "sandbox mounts failed at \(grant.path): \(String(cString: strerror(error.errno))) (errno \(error.errno))"
            }
        }
        return failure
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
}
