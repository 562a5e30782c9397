import Foundation
import Synchronization
import WalletWire

/// Launching the runner's process and its handshake.
extension ExtensionRunner {
    /// A process's handshake: its result once the `initialize` answer (or failure) is in, and
    /// whoever waits for it until then.
    final class Handshake: Sendable {
        private struct State {
            var result: Swift.Result<InitializeResult, ExtensionCallError>?
            var waiters: [CheckedContinuation<Swift.Result<InitializeResult, ExtensionCallError>, Never>] = []
        }

        private let state = Mutex(State())

        /// The result, once it is in (waiting for it until then).
        var value: Swift.Result<InitializeResult, ExtensionCallError> {
            get async {
                await withCheckedContinuation { continuation in
                    let result = state.withLock { state in
                        if state.result == nil { state.waiters.append(continuation) }
                        return state.result
                    }
                    if let result { continuation.resume(returning: result) }
                }
            }
        }

        func finish(_ result: Swift.Result<InitializeResult, ExtensionCallError>) {
            let waiters = state.withLock { state in
                state.result = result
                defer { state.waiters.removeAll() }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: result) }
        }
    }

    /// A running process and its handshake.
    struct Launch: Sendable {
        var connection: ExtensionConnection
        var handshake: Handshake

        /// Spawn to `initialize` answer, once the handshake succeeded. The session notes it on
        /// the I/O thread as it opens the gate, so a call queued behind the handshake always
        /// finds it, whichever of the two resumes first.
        var handshakeMilliseconds: Double? {
            connection.session.handshakeCompletedAt.map { ($0 - connection.launchedAt).milliseconds }
        }
    }

    /// The running process, or a new one (inside the state's lock: two callers never launch
    /// two). Whoever launched it sends the handshake next (``beginHandshake(_:)``), after the lock. A process the host is stopping (hung, beyond repair) finishes dying on its own;
    /// the call gets a fresh one.
    /// - Returns: the launch, and whether this call started it.
    func launchIfNeeded(_ state: inout State) -> Swift.Result<(Launch, Bool), ExtensionCallError> {
        if let launch = state.phase.launch, !launch.connection.isStoppingOrExited {
            return .success((launch, false))
        }
        state.phase = .idle
        let connection: ExtensionConnection
        switch spawn() {
        case .failure(let error): return .failure(error)
        case .success(let spawned): connection = spawned
        }
        state.launchCount += 1
        configuration.events.record(HostEvent(.spawn(HostEvent.Spawn(executablePath: descriptor.executablePath,
                                                                     milliseconds: (connection.supervisor.clock.now() - connection.launchedAt).milliseconds,
                                                                     sandboxed: connection.sandboxed,
                                                                     unsandboxedReason: connection.sandboxed ? nil
                                                                         : connection.unsandboxedReason ?? "--sandbox off")),
                                              bundleIdentifier: descriptor.bundleIdentifier, pid: connection.pid))
        watchContainerQuota(of: connection, in: &state)
        let launch = Launch(connection: connection, handshake: Handshake())
        state.phase = .launching(launch)
        return .success((launch, true))
    }

    /// Makes the App Group containers' file systems if they are not there yet (idempotent: a
    /// mounted one is found in microseconds). A failure is left for the launch to report.
    func prepareContainers() {
        _ = try? ContainerVolume.prepare(descriptor.appGroups.values, quotaBytes: configuration.containerQuotaBytes)
    }

    /// Spawns the process and hands it to the I/O reactor.
    private func spawn() -> Swift.Result<ExtensionConnection, ExtensionCallError> {
        let point = descriptor.point
        let memoryLimit = configuration.memoryLimit(at: point)
        // Before the spawn: the child moves itself into the groups before it runs anything.
        let controlGroup = ExtensionControlGroup.make(executableName: descriptor.executableName, memoryLimitBytes: memoryLimit,
                                                      mode: configuration.controlGroups)
        let processContext = ProcessSupervisor.Context(
            bundleIdentifier: descriptor.bundleIdentifier, executableName: descriptor.executableName,
            memoryLimitBytes: memoryLimit, sampleInterval: configuration.sampleInterval,
            outputLimit: configuration.outputLimit, events: configuration.events, controlGroup: controlGroup)
        let sessionContext = RPCSession.Context(
            bundleIdentifier: descriptor.bundleIdentifier,
            containingAppBundleIdentifier: descriptor.containingAppBundleIdentifier.isEmpty ? nil : descriptor.containingAppBundleIdentifier,
            keychainAccessGroups: descriptor.keychainAccessGroups, team: descriptor.team,
            executableName: descriptor.executableName,
            point: point, hangGrace: configuration.hangGrace,
            violationBudget: configuration.violationBudget, closedChannelGrace: configuration.closedChannelGrace,
            events: configuration.events, services: configuration.services)
        let limits = ProcessLimits.issuerCode(memoryLimitBytes: memoryLimit, containerQuotaBytes: configuration.containerQuotaBytes,
                                              hasControlGroup: controlGroup != nil,
                                              hasCPUGroup: controlGroup?.cpuPath != nil,
                                              processLimitOverride: configuration.processLimitOverride)
        var spawn = SpawnConfiguration(executablePath: descriptor.executablePath, environment: launchEnvironment,
                                       workingDirectory: descriptor.bundlePath, limits: limits, sandbox: sandboxPlan)
        spawn.controlGroupDescriptors = controlGroup?.procsDescriptors ?? []
        spawn.sandboxRequired = configuration.sandbox == .required
        spawn.egress = EgressSession(policy: configuration.networkPolicy, events: configuration.events,
                                     bundleIdentifier: descriptor.bundleIdentifier, loop: configuration.loop)
        do {
            // Each container on its own file system, sized by the quota (a root host; mounted once, then found mounted).
            try ContainerVolume.prepare(descriptor.appGroups.values, quotaBytes: configuration.containerQuotaBytes)
            // Before every launch: a link the last run planted in a container fails this one.
            try AppGroupPreferences.prepare(appGroups: descriptor.appGroups)
            // Called on the process's teardown thread, never inside this lock.
            return .success(try ExtensionConnection(spawning: spawn, process: processContext, session: sessionContext,
                                                    loop: configuration.loop, abandonTeardown: configuration.abandonTeardown) { [weak self] exit in
                self?.processEnded(pid: exit.pid)
            })
        } catch {
            let reason = LaunchFailure.explain(error, executablePath: descriptor.executablePath)
            configuration.events.record(HostEvent(.spawnFailed(HostEvent.SpawnFailed(executablePath: descriptor.executablePath,
                                                                                     reason: reason)),
                                                  bundleIdentifier: descriptor.bundleIdentifier))
            return .failure(ExtensionCallError(.launchFailed, code: RPCErrorCode.launchFailed, message: reason))
        }
    }

    /// Sends `initialize` (outside the state's lock: a send that fails at once settles the
    /// handshake on this thread); its answer, on the I/O thread, settles the handshake (a failed
    /// one fails the queued calls and stops the process).
    func beginHandshake(_ launch: Launch) {
        let connection = launch.connection
        let point = descriptor.point
        var deadlines: [String: Int] = [:]
        for method in point.methods {
            if let deadline = configuration.deadline(for: method.name, at: point) {
                deadlines[method.name] = Int(deadline.milliseconds.rounded())
            }
        }
        let params = InitializeParams(extensionPoint: point.identifier, principalClass: descriptor.principalClass,
                                      bundleIdentifier: descriptor.bundleIdentifier,
                                      containingAppBundleIdentifier: descriptor.containingAppBundleIdentifier,
                                      appGroups: descriptor.appGroups, memoryLimitBytes: configuration.memoryLimit(at: point),
                                      deadlines: deadlines)
        connection.session.send(method: WireMethod.initialize, params: params, askedAt: connection.launchedAt,
                                deadline: connection.launchedAt + configuration.handshakeTimeout, gated: false) { [weak self] reply in
            self?.finishHandshake(launch, reply: reply)
        }
    }

    private func finishHandshake(_ launch: Launch, reply: CallReply) {
        let connection = launch.connection
        let result = HandshakeOutcome.interpret(reply, executable: descriptor.executableName)
        let elapsed = (reply.finishedAt - connection.launchedAt).milliseconds
        let bundleIdentifier = descriptor.bundleIdentifier
        switch result {
        case .success(let initialize):
            configuration.events.record(HostEvent(.handshake(HostEvent.Handshake(
                milliseconds: elapsed, runtime: "\(initialize.runtime.name) \(initialize.runtime.version)",
                methods: initialize.methods)), bundleIdentifier: bundleIdentifier, pid: connection.pid))
            // The session opened the gate when the answer arrived (see RPCSession.finish).
        case .failure(let error):
            configuration.events.record(HostEvent(.handshakeFailed(HostEvent.HandshakeFailed(
                milliseconds: elapsed, reason: HandshakeOutcome.reason(error))),
                                                  bundleIdentifier: bundleIdentifier, pid: connection.pid))
            connection.session.failAll(error)
        }
        state.withLock { state in
            guard let current = state.phase.launch, current.connection === connection else { return }
            state.phase = result.isFailure ? .idle : .warm(launch)
        }
        guard result.isFailure else { return launch.handshake.finish(result) }
        // A failed handshake settles once the process is gone, so that whoever waits for it
        // (prewarm, discovery) finds its exit report (an OOM kill, a crash) already recorded.
        let teardown = configuration.teardown
        Task {
            _ = await connection.stop(.handshakeFailed, teardown: teardown)
            launch.handshake.finish(result)
        }
    }

    /// Stops the process once its App Group containers hold more than the quota; the watch ends
    /// with the process (``processEnded(pid:)``).
    private func watchContainerQuota(of connection: ExtensionConnection, in state: inout State) {
        guard let quota = configuration.containerQuotaBytes, !descriptor.appGroups.isEmpty else { return }
        ContainerQuotaWarning.warnOnce(ContainerVolume.enforcement)
        let root = connection.supervisor.footprint.root
        state.quotaWatches[connection.pid] = ContainerQuotaWatch.shared.watch(
            Array(descriptor.appGroups.values), quotaBytes: quota,
            processes: { ProcessTree.members(root: root) }) { [weak connection] used in
            connection?.abandon(.containerQuota(usedBytes: used, quotaBytes: quota))
        }
    }

    /// The process `pid` was reaped: if it is the runner's, the next call launches a new one.
    func processEnded(pid: Int32) {
        let token = state.withLock { state -> UInt64? in
            if let launch = state.phase.launch, launch.connection.pid == pid {
                state.phase = .idle
                state.idleTimer?.cancel()
                state.idleTimer = nil
            }
            return state.quotaWatches.removeValue(forKey: pid)
        }
        if let token { ContainerQuotaWatch.shared.stopWatching(token) }
    }

    static func sandboxPlan(descriptor: ExtensionDescriptor, configuration: HostConfiguration,
                            environment: [String: String]) -> SandboxPlan? {
        guard configuration.sandbox != .off else { return nil }
        var plan = SandboxPlan(readOnly: [descriptor.bundlePath], writable: Array(descriptor.appGroups.values), environment: environment,
                               initPath: configuration.sandboxInitPath ?? SandboxPlan.defaultInitPath)
        plan.reusesRoot = configuration.sandboxReusesRoot
        // Its private /tmp and /dev/shm hold memory: neither outgrows the extension's limit.
        let memoryLimit = configuration.memoryLimit(at: descriptor.point)
        plan.temporaryBytes = memoryLimit
        plan.sharedMemoryBytes = memoryLimit
        plan.network = configuration.network
        // A root host's namespaces start being made now, ahead of the first launch.
        if configuration.network != .host { _ = NetworkNamespacePool.shared }
        // And the sandbox probe and its root (a root host's template) get under way.
        plan.prepareLaunches()
        return plan
    }

    static func environment(descriptor: ExtensionDescriptor, configuration: HostConfiguration) -> [String: String] {
        let memoryLimit = configuration.memoryLimit(at: descriptor.point)
        var environment = configuration.baseEnvironment(appGroups: descriptor.appGroups)
        // iOS kills a crashing extension at once; Swift's backtracer would first spend a
        // noticeable fraction of a second symbolicating. Set SWIFT_BACKTRACE in the host's
        // environment (it is passed through) to get backtraces in the extension log.
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        environment[WireEnvironment.protocolVersion] = String(WireProtocol.version)
        environment[WireEnvironment.extensionPoint] = descriptor.point.identifier
        environment[WireEnvironment.bundleIdentifier] = descriptor.bundleIdentifier
        environment[WireEnvironment.containingAppBundleIdentifier] = descriptor.containingAppBundleIdentifier
        environment[WireEnvironment.memoryLimitBytes] = String(memoryLimit)
        return environment
    }
}

private extension Result {
    var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
