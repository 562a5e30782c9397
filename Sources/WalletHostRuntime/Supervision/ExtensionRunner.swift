import Foundation
import Synchronization
import WalletWire

/// Runs one extension under Wallet's rules: launches its process on first use (or ``prewarm()``),
/// keeps it warm across calls, relaunches it after a crash, a memory kill or a hang, and stops
/// it when idle. Every call gets a deadline measured from the ask, launch included.
public actor ExtensionRunner {
    public nonisolated let descriptor: ExtensionDescriptor
    public nonisolated let configuration: HostConfiguration

    /// Where the runner's process is in its life.
    private enum ProcessState {
        /// No process: the next call launches one.
        case stopped
        /// A process is running; its handshake may still be under way.
        case running(Launch)
    }

    private var process = ProcessState.stopped {
        didSet {
            let connection: ExtensionConnection? = if case .running(let launch) = process { launch.connection } else { nil }
            warmConnection.withLock { $0 = connection }
        }
    }
    /// The running process's connection, readable without entering the actor (``callWarm``).
    private nonisolated let warmConnection = Mutex<ExtensionConnection?>(nil)
    /// Calls in flight, and who waits for there to be none (kept outside the actor so that
    /// waiting for them costs no hop into it).
    private nonisolated let activity = Mutex(CallActivity())
    private struct CallActivity {
        var inFlight = 0
        var idleWaiters = TimedWaiters<Bool, Void>()
        /// The runner is stopping its process for want of calls: ``callWarm`` sends none (it would
        /// reach a process being stopped), ``call`` launches another.
        var warmCallsClosed = false
        /// Counts the closings of warm calls: an idle stop reopens them only if no later closing
        /// (a runner being replaced) came meanwhile.
        var closings = 0
        /// When the last call ended (with an idle timeout), read by the idle watcher.
        var lastCallEnded = ContinuousClock.now
        /// The idle watcher's task runs (or is about to): a call that ends starts none.
        var idleWatched = false
    }
    private var callsInFlight: Int { activity.withLock { $0.inFlight } }
    /// The container quota's watch of each running process, by pid.
    private var quotaWatches: [Int32: UInt64] = [:]
    /// Processes launched so far (for reports and tests).
    public private(set) var launchCount = 0

    /// The environment every launch gets, built once (reading the host's environment and
    /// encoding the App Groups cost a launch about 0.15 ms).
    private nonisolated let launchEnvironment: [String: String]
    /// What the process may see, unless the sandbox is off.
    private nonisolated let sandboxPlan: SandboxPlan?

    public init(descriptor: ExtensionDescriptor, configuration: HostConfiguration) {
        self.descriptor = descriptor
        self.configuration = configuration
        launchEnvironment = Self.environment(descriptor: descriptor, configuration: configuration)
        var plan = configuration.sandbox == .off ? nil : SandboxPlan(
            readOnly: [descriptor.bundlePath], writable: Array(descriptor.appGroups.values), environment: launchEnvironment,
            initPath: configuration.sandboxInitPath ?? SandboxPlan.defaultInitPath)
        plan?.reusesRoot = configuration.sandboxReusesRoot
        // Its private /tmp and /dev/shm hold memory: neither outgrows the extension's limit.
        let memoryLimit = configuration.memoryLimit(at: descriptor.point)
        plan?.temporaryBytes = memoryLimit
        plan?.sharedMemoryBytes = memoryLimit
        plan?.network = configuration.network
        // A root host's namespaces start being made now, ahead of the first launch.
        if plan != nil, configuration.network != .host { _ = NetworkNamespacePool.shared }
        sandboxPlan = plan
    }

    /// The warm process's pid, if one is running.
    public nonisolated var pid: Int32? {
        guard let connection = warmConnection.withLock({ $0 }), !connection.hasExited else { return nil }
        return connection.pid
    }

    /// The I/O reactor's turns for the warm process so far (its wake-ups, as tests count them).
    nonisolated var reactorTurns: Int? {
        warmConnection.withLock { $0 }?.supervisor.turns.load(ordering: .relaxed)
    }

    /// The handshake result of the running process, once it completed.
    public func handshakeResult() async -> Result<InitializeResult, ExtensionCallError>? {
        guard case .running(let launch) = process else { return nil }
        return await launch.handshake.value
    }

    /// Launches the process now so that the next call is warm.
    /// - Returns: the handshake result.
    @discardableResult
    public func prewarm() async -> Result<InitializeResult, ExtensionCallError> {
        switch launchIfNeeded() {
        case .failure(let error): return .failure(error)
        case .success(let (launch, _)): return await launch.handshake.value
        }
    }

    /// Calls `method` and decodes its result as `resultType`.
    ///
    /// The deadline is the point's (or the configuration's override), counted from now,
    /// including launch when the process is cold. A result of the wrong shape is a
    /// ``ExtensionCallError/Kind/protocolViolation`` naming the bad key.
    public func call<Params: Encodable & Sendable, Result: Decodable & Sendable>(
        _ method: String, params: Params, resultType: Result.Type
    ) async -> CallOutcome<Result> {
        await call(method, params: params, resultType: resultType,
                   deadline: configuration.deadline(for: method, at: descriptor.point))
    }

    /// Calls `method` with this call's own deadline instead of the configured one.
    ///
    /// For tools that probe an extension (the conformance suite): a deadline of zero cancels
    /// the call as soon as it is sent, a longer one gives a slow method room while other calls
    /// on the same process keep Wallet's deadlines.
    /// - Parameters:
    ///   - deadline: Counted from now, launch included when the process is cold; nil for none.
    /// - Returns: The outcome, as ``call(_:params:resultType:)`` reports it.
    public func call<Params: Encodable & Sendable, Result: Decodable & Sendable>(
        _ method: String, params: Params, resultType: Result.Type, deadline: Duration?
    ) async -> CallOutcome<Result> {
        let askedAt = ContinuousClock.now
        let deadline = deadline.map { askedAt + $0 }
        callStarted()
        defer {
            callEnded()
            scheduleIdleStop()
        }
        let launch: Launch
        let launchedNow: Bool
        switch launchIfNeeded() {
        case .failure(let error):
            return CallOutcome(method: method, result: .failure(error), launchMilliseconds: nil, launchedProcess: true,
                               callMilliseconds: 0, totalMilliseconds: (.now - askedAt).milliseconds,
                               peakFootprintBytes: nil, pid: nil)
        case .success(let (value, launched)):
            launch = value
            launchedNow = launched
        }
        let reply = await launch.connection.call(method: method, params: params, askedAt: askedAt, deadline: deadline)
        return outcome(of: method, reply: reply, resultType: resultType, askedAt: askedAt, connection: launch.connection,
                       launchMilliseconds: launchedNow ? launch.handshakeMilliseconds : nil, launchedNow: launchedNow)
    }

    /// Calls `method` on the warm process without entering the actor and without a task:
    /// `completion` gets the outcome on the thread that settles the call (the process's I/O
    /// thread, for an answer), so a caller that answers from there (the daemon) costs no thread
    /// hop at all.
    ///
    /// Only for a process whose handshake completed and which is not stopping; otherwise it
    /// returns false and never calls `completion`: use ``call(_:params:resultType:deadline:)``,
    /// which launches one.
    /// - Parameter deadline: Counted from now; nil for the configured one.
    public nonisolated func callWarm<Params: Encodable & Sendable, Result: Decodable & Sendable>(
        _ method: String, params: Params, resultType: Result.Type, deadline: Duration? = nil,
        completion: @escaping @Sendable (CallOutcome<Result>) -> Void
    ) -> Bool {
        guard let connection = warmConnection.withLock({ $0 }), !connection.isStoppingOrExited,
              connection.session.handshakeCompleted else { return false }
        // Counted in the same step as the check: an idle stop that saw no call cannot miss this one.
        guard activity.withLock({ activity in
            guard !activity.warmCallsClosed else { return false }
            activity.inFlight += 1
            return true
        }) else { return false }
        let askedAt = ContinuousClock.now
        let deadline = (deadline ?? configuration.deadline(for: method, at: descriptor.point)).map { askedAt + $0 }
        connection.send(method: method, params: params, askedAt: askedAt, deadline: deadline) { [self] reply in
            let outcome = outcome(of: method, reply: reply, resultType: resultType, askedAt: askedAt, connection: connection,
                                  launchMilliseconds: nil, launchedNow: false)
            callEnded()
            completion(outcome)
            // The idle clock restarts here; a task only when no watcher runs (not one per call).
            if noteIdleStart() { Task { await self.watchIdleness() } }
        }
        return true
    }

    /// ``call(_:params:resultType:)`` (the configured deadline), sent from this thread without
    /// entering the actor when the process is warm (``callWarm(_:params:resultType:deadline:completion:)``);
    /// otherwise through the actor, which launches one. For many calls at once (a discovery).
    public nonisolated func callPreferringWarm<Params: Encodable & Sendable, Result: Decodable & Sendable>(
        _ method: String, params: Params, resultType: Result.Type
    ) async -> CallOutcome<Result> {
        let warm = await withCheckedContinuation { (continuation: CheckedContinuation<CallOutcome<Result>?, Never>) in
            if !callWarm(method, params: params, resultType: resultType, completion: { continuation.resume(returning: $0) }) {
                continuation.resume(returning: nil)
            }
        }
        if let warm { return warm }
        return await call(method, params: params, resultType: resultType)
    }

    private nonisolated func callStarted() {
        activity.withLock { $0.inFlight += 1 }
    }

    private nonisolated func callEnded() {
        let idle = activity.withLock { activity in
            activity.inFlight -= 1
            return activity.inFlight == 0 ? activity.idleWaiters.take { true } : []
        }
        for waiter in idle { waiter.resume(returning: true) }
    }

    /// A call's outcome from the session's reply: the result decoded as its type, a method the
    /// extension does not have named as such, the timings.
    private nonisolated func outcome<Result: Decodable & Sendable>(
        of method: String, reply: CallReply, resultType: Result.Type, askedAt: ContinuousClock.Instant,
        connection: ExtensionConnection, launchMilliseconds: Double?, launchedNow: Bool
    ) -> CallOutcome<Result> {
        let decoded: Swift.Result<Result, ExtensionCallError> = reply.outcome.flatMap { line in
            do {
                return .success(try WireCodec().result(resultType, from: line))
            } catch {
                return .failure(.protocolViolation("\(descriptor.executableName) answered \(method) with \(error)"))
            }
        }.mapError { error in
            if error.kind == .extensionError, error.code == RPCErrorCode.methodNotFound {
                return ExtensionCallError(.notImplemented, code: error.code,
                                          message: "\(descriptor.executableName) does not implement \(method): \(error.message)",
                                          diagnostics: error.diagnostics)
            }
            return error
        }
        let callMilliseconds = reply.sentAt.map { (reply.finishedAt - $0).milliseconds } ?? 0
        return CallOutcome(method: method, result: decoded, launchMilliseconds: launchMilliseconds,
                           launchedProcess: launchedNow, callMilliseconds: callMilliseconds,
                           totalMilliseconds: (reply.finishedAt - askedAt).milliseconds,
                           peakFootprintBytes: reply.peakFootprintBytes, pid: connection.pid, sandboxed: connection.sandboxed,
                           unsandboxedReason: connection.sandboxed ? nil : connection.unsandboxedReason ?? "--sandbox off")
    }

    /// Returns once no call is in flight (at once when none is), or after `timeout`.
    public nonisolated func callsEnded(within timeout: Duration) async {
        let id = activity.withLock { $0.idleWaiters.makeID() }
        _ = await TimedWaiters<Bool, Void>.wait(id: id, within: timeout, begin: { continuation in
            let now = activity.withLock { activity in
                activity.inFlight == 0 || !activity.idleWaiters.add(id, condition: (), continuation: continuation)
            }
            if now { continuation.resume(returning: true) }
        }, abandon: { [self] id in
            activity.withLock { $0.idleWaiters.abandon(id) }?.resume(returning: nil)
        })
    }

    /// Stops the process once the calls in flight are over (at most `timeout`); no warm call
    /// starts meanwhile (a caller then goes through ``call(_:params:resultType:)``, which would
    /// launch a process again). For a runner being replaced.
    public func stopAfterCalls(within timeout: Duration, reason: String) async {
        activity.withLock { activity in
            activity.warmCallsClosed = true
            activity.closings += 1
        }
        await callsEnded(within: timeout)
        _ = await stop(reason: reason)
    }

    /// Stops the process (shutdown, exit, SIGTERM, SIGKILL to its group) and waits for it.
    /// - Parameter reason: why, in the caller's words, for the event log and the exit report.
    /// - Returns: how it ended, or nil when nothing was running.
    @discardableResult
    public func stop(reason: String = "host stop") async -> ExtensionExit? {
        await stop(.requested(reason))
    }

    private func stop(_ reason: StopReason) async -> ExtensionExit? {
        guard case .running(let launch) = process else { return nil }
        process = .stopped
        return await launch.connection.stop(reason, teardown: configuration.teardown)
    }

    // MARK: Launch

    /// A process's handshake: under way, or its result. The task is dropped once the result is
    /// in: kept for the process's life, it held about 5 KB of each warm extension's memory.
    private enum Handshake: Sendable {
        case pending(Task<Swift.Result<InitializeResult, ExtensionCallError>, Never>)
        case done(Swift.Result<InitializeResult, ExtensionCallError>)

        var value: Swift.Result<InitializeResult, ExtensionCallError> {
            get async {
                switch self {
                case .pending(let task): await task.value
                case .done(let result): result
                }
            }
        }
    }

    /// A running process and its handshake.
    private struct Launch: Sendable {
        var connection: ExtensionConnection
        var handshake: Handshake

        /// Spawn to `initialize` answer, once the handshake succeeded. The session notes it on
        /// the I/O thread as it opens the gate, so a call queued behind the handshake always
        /// finds it, whichever of the two resumes first.
        var handshakeMilliseconds: Double? {
            connection.session.handshakeCompletedAt.map { ($0 - connection.launchedAt).milliseconds }
        }
    }

    /// The running process, or a new one. A process the host is stopping (hung, beyond repair)
    /// finishes dying on its own; the call gets a fresh one.
    /// - Returns: the launch, and whether this call started it.
    private func launchIfNeeded() -> Swift.Result<(Launch, Bool), ExtensionCallError> {
        if case .running(let launch) = process, !launch.connection.isStoppingOrExited {
            return .success((launch, false))
        }
        process = .stopped
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
                                     bundleIdentifier: descriptor.bundleIdentifier)
        let connection: ExtensionConnection
        do {
            // Each container on its own file system, sized by the quota (a root host; mounted once, then found mounted).
            try ContainerVolume.prepare(descriptor.appGroups.values, quotaBytes: configuration.containerQuotaBytes)
            // Before every launch: a link the last run planted in a container fails this one.
            try AppGroupPreferences.prepare(appGroups: descriptor.appGroups)
            connection = try ExtensionConnection(spawning: spawn, process: processContext, session: sessionContext,
                                                 abandonTeardown: configuration.abandonTeardown) { [weak self] exit in
                guard let self else { return }
                Task { await self.processEnded(pid: exit.pid) }
            }
        } catch {
            let reason = LaunchFailure.explain(error, executablePath: descriptor.executablePath)
            configuration.events.record(HostEvent(.spawnFailed(HostEvent.SpawnFailed(executablePath: descriptor.executablePath,
                                                                                     reason: reason)),
                                                  bundleIdentifier: descriptor.bundleIdentifier))
            return .failure(ExtensionCallError(.launchFailed, code: RPCErrorCode.launchFailed, message: reason))
        }
        launchCount += 1
        configuration.events.record(HostEvent(.spawn(HostEvent.Spawn(executablePath: descriptor.executablePath,
                                                                     milliseconds: (.now - connection.launchedAt).milliseconds,
                                                                     sandboxed: connection.sandboxed,
                                                                     unsandboxedReason: connection.sandboxed ? nil
                                                                         : connection.unsandboxedReason ?? "--sandbox off")),
                                              bundleIdentifier: descriptor.bundleIdentifier, pid: connection.pid))
        watchContainerQuota(of: connection)
        let handshake = Task { await self.performHandshake(connection) }
        let launch = Launch(connection: connection, handshake: .pending(handshake))
        process = .running(launch)
        return .success((launch, true))
    }

    private func performHandshake(_ connection: ExtensionConnection) async -> Swift.Result<InitializeResult, ExtensionCallError> {
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
        let reply = await connection.call(method: WireMethod.initialize, params: params, askedAt: connection.launchedAt,
                                          deadline: connection.launchedAt + configuration.handshakeTimeout, gated: false)
        let result = HandshakeOutcome.interpret(reply.outcome, executable: descriptor.executableName)
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
            if case .running(let launch) = process, launch.connection === connection { process = .stopped }
            _ = await connection.stop(.handshakeFailed, teardown: configuration.teardown)
        }
        if case .running(var launch) = process, launch.connection === connection {
            launch.handshake = .done(result)
            process = .running(launch)
        }
        return result
    }

    private static func environment(descriptor: ExtensionDescriptor, configuration: HostConfiguration) -> [String: String] {
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

    /// Stops the process once its App Group containers hold more than the quota; the watch ends
    /// with the process (``processEnded(pid:)``).
    private func watchContainerQuota(of connection: ExtensionConnection) {
        guard let quota = configuration.containerQuotaBytes, !descriptor.appGroups.isEmpty else { return }
        ContainerQuotaWarning.warnOnce(ContainerVolume.enforcement)
        let root = connection.supervisor.footprint.root
        quotaWatches[connection.pid] = ContainerQuotaWatch.shared.watch(Array(descriptor.appGroups.values), quotaBytes: quota,
                                                                        processes: { ProcessTree.members(root: root) }) { [weak connection] used in
            connection?.abandon(.containerQuota(usedBytes: used, quotaBytes: quota))
        }
    }

    /// The process `pid` was reaped: if it is the runner's, the next call launches a new one.

    private func processEnded(pid: Int32) {
        if let token = quotaWatches.removeValue(forKey: pid) { ContainerQuotaWatch.shared.stopWatching(token) }
        if case .running(let launch) = process, launch.connection.pid == pid { process = .stopped }
    }

    /// Notes the end of a call; one watcher task per runner stops the process once no call
    /// has ended for `idleTimeout` (a task per call would pile up sleeping tasks on a busy host).
    private func scheduleIdleStop() {
        if noteIdleStart() { watchIdleness() }
    }

    /// Restarts the idle clock when no call is in flight (with an idle timeout).
    /// - Returns: true when no watcher runs yet: the caller starts one (``watchIdleness()``).
    private nonisolated func noteIdleStart() -> Bool {
        guard configuration.idleTimeout != nil else { return false }
        return activity.withLock { activity in
            guard activity.inFlight == 0 else { return false }
            activity.lastCallEnded = .now
            guard !activity.idleWatched else { return false }
            activity.idleWatched = true
            return true
        }
    }

    /// The idle watcher: sleeps until the idle timeout after the last call's end, then stops
    /// the process unless a call came meanwhile.
    private func watchIdleness() {
        guard let idleTimeout = configuration.idleTimeout else { return }
        Task {
            var wakeAt = ContinuousClock.now + idleTimeout
            while true {
                try? await Task.sleep(until: wakeAt)
                guard let next = await self.stopIfIdle(idleTimeout: idleTimeout) else { return }
                wakeAt = next
            }
        }
    }

    /// Stops the process if it has been idle long enough; otherwise returns when to look again.
    private func stopIfIdle(idleTimeout: Duration) async -> ContinuousClock.Instant? {
        // No call in flight, and none may start warm until the process is stopped: one step.
        // The watcher ends in the same step, so a call ending after it starts another.
        enum Verdict { case due(ContinuousClock.Instant), stop(closing: Int) }
        let verdict = activity.withLock { activity -> Verdict in
            let due = activity.lastCallEnded + idleTimeout
            if ContinuousClock.now < due { return .due(due) }
            guard activity.inFlight == 0 else { return .due(.now + idleTimeout) }
            activity.warmCallsClosed = true
            activity.closings += 1
            activity.idleWatched = false
            return .stop(closing: activity.closings)
        }
        guard case .stop(let closing) = verdict else {
            if case .due(let next) = verdict { return next }
            return nil
        }
        _ = await stop(.idle)
        // The process is gone (no warm connection): the next call launches one. Unless warm
        // calls were closed again meanwhile (the runner is being replaced): they stay closed.
        activity.withLock { activity in
            if activity.closings == closing { activity.warmCallsClosed = false }
        }
        return nil
    }
}
