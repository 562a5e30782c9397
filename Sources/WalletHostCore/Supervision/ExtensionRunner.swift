import Foundation
import WalletWire

/// Runs one extension under Wallet's rules: launches its process on first use (or ``prewarm()``),
/// keeps it warm across calls, relaunches it after a crash, a memory kill or a hang, and stops
/// it when idle. Every call gets a deadline measured from the ask, launch included.
public actor ExtensionRunner {
    public nonisolated let descriptor: ExtensionDescriptor
    public nonisolated let configuration: HostConfiguration
    private var connection: ExtensionConnection?
    private var handshake: Task<Result<InitializeResult, ExtensionCallError>, Never>?
    private var launchMilliseconds: Double?
    private var callsInFlight = 0
    private var lastCallEnded = ContinuousClock.now
    private var idleWatcher: Task<Void, Never>?
    /// Processes launched so far (for reports and tests).
    public private(set) var launchCount = 0

    public init(descriptor: ExtensionDescriptor, configuration: HostConfiguration) {
        self.descriptor = descriptor
        self.configuration = configuration
    }

    /// The warm process's pid, if one is running.
    public var pid: Int32? {
        guard let connection, !connection.hasExited else { return nil }
        return connection.pid
    }

    /// The handshake result of the running process, once it completed.
    public func handshakeResult() async -> Result<InitializeResult, ExtensionCallError>? {
        await handshake?.value
    }

    /// Launches the process now so that the next call is warm.
    /// - Returns: the handshake result.
    @discardableResult
    public func prewarm() async -> Result<InitializeResult, ExtensionCallError> {
        switch launchIfNeeded(askedAt: .now) {
        case .failure(let error): return .failure(error)
        case .success(let launch): return await launch.handshake.value
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
        callsInFlight += 1
        defer {
            callsInFlight -= 1
            scheduleIdleStop()
        }
        let launched: Launch
        switch launchIfNeeded(askedAt: askedAt) {
        case .failure(let error):
            return CallOutcome(method: method, result: .failure(error), launchMilliseconds: nil, launchedProcess: true,
                               callMilliseconds: 0,
                               totalMilliseconds: (.now - askedAt).milliseconds, peakFootprintBytes: nil, pid: nil)
        case .success(let value):
            launched = value
        }
        let connection = launched.connection
        let wasCold = launched.launchedNow
        let reply = await connection.call(method: method, params: params, askedAt: askedAt, deadline: deadline)
        let launch = wasCold ? launchMilliseconds : nil
        let decoded: Swift.Result<Result, ExtensionCallError> = reply.outcome.flatMap { line in
            do {
                return .success(try WireCodec().result(resultType, from: line))
            } catch {
                return .failure(.protocolViolation("\(descriptor.executableName) answered \(method) with \(error)"))
            }
        }.mapError { error in
            if error.kind == .extensionError, error.code == RPCErrorCode.methodNotFound {
                return ExtensionCallError(.notImplemented, code: error.code,
                                          message: "\(descriptor.executableName) does not implement \(method): \(error.message)")
            }
            return error
        }
        let callMilliseconds = reply.sentAt.map { (reply.finishedAt - $0).milliseconds } ?? 0
        return CallOutcome(method: method, result: decoded, launchMilliseconds: launch, launchedProcess: wasCold,
                           callMilliseconds: callMilliseconds,
                           totalMilliseconds: (reply.finishedAt - askedAt).milliseconds,
                           peakFootprintBytes: reply.peakFootprintBytes, pid: connection.pid)
    }

    /// Stops the process (shutdown, exit, SIGTERM, SIGKILL to its group) and waits for it.
    /// - Returns: how it ended, or nil when nothing was running.
    @discardableResult
    public func stop(reason: String = "host stop") async -> ExtensionExit? {
        guard let connection else { return nil }
        self.connection = nil
        handshake = nil
        launchMilliseconds = nil
        return await connection.stop(reason: reason, grace: configuration.stopGrace)
    }

    // MARK: Launch

    /// A running (or starting) process and its handshake.
    private struct Launch {
        var connection: ExtensionConnection
        var handshake: Task<Swift.Result<InitializeResult, ExtensionCallError>, Never>
        /// True when this call started the process.
        var launchedNow: Bool
    }

    private func launchIfNeeded(askedAt: ContinuousClock.Instant) -> Swift.Result<Launch, ExtensionCallError> {
        if let connection, let handshake, !connection.isStoppingOrExited {
            return .success(Launch(connection: connection, handshake: handshake, launchedNow: false))
        }
        // A process the host is stopping (hung, beyond repair) finishes dying on its own;
        // the call gets a fresh one.
        connection = nil
        launchMilliseconds = nil
        let point = descriptor.point
        let memoryLimit = configuration.memoryLimit(at: point)
        let context = ConnectionContext(
            bundleIdentifier: descriptor.bundleIdentifier, executableName: descriptor.executableName,
            extensionPoint: point.identifier, role: point.role, memoryLimitBytes: memoryLimit,
            memoryLimitDescription: "\(memoryLimit / (1024 * 1024)) MB", hangGrace: configuration.hangGrace,
            sampleInterval: configuration.sampleInterval, events: configuration.events, services: configuration.services)
        let spawn = SpawnConfiguration(executablePath: descriptor.executablePath, environment: environment(memoryLimit: memoryLimit),
                                       workingDirectory: descriptor.bundlePath, limits: ProcessLimits(dataBytes: memoryLimit))
        let connection: ExtensionConnection
        do {
            connection = try ExtensionConnection(spawning: spawn, context: context) { [weak self] connection, _ in
                Task { await self?.connectionEnded(connection) }
            }
        } catch {
            configuration.events.record(HostEvent(kind: "spawnFailed", bundleIdentifier: descriptor.bundleIdentifier,
                                                  message: "\(error)"))
            return .failure(ExtensionCallError(.launchFailed, code: RPCErrorCode.launchFailed, message: "\(error)"))
        }
        launchCount += 1
        configuration.events.record(HostEvent(kind: "spawn", bundleIdentifier: descriptor.bundleIdentifier, pid: connection.pid,
                                              milliseconds: (.now - connection.launchedAt).milliseconds,
                                              message: descriptor.executablePath))
        self.connection = connection
        let handshake = Task { await self.performHandshake(connection) }
        self.handshake = handshake
        return .success(Launch(connection: connection, handshake: handshake, launchedNow: true))
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
        let result: Swift.Result<InitializeResult, ExtensionCallError> = reply.outcome.flatMap { line in
            do {
                let result = try WireCodec().result(InitializeResult.self, from: line)
                guard result.protocolVersion == WireProtocol.version else {
                    return .failure(ExtensionCallError(.launchFailed, code: RPCErrorCode.unsupportedProtocolVersion,
                                                       message: "\(descriptor.executableName) speaks protocol \(result.protocolVersion), the host speaks \(WireProtocol.version)"))
                }
                return .success(result)
            } catch {
                return .failure(.protocolViolation("\(descriptor.executableName) answered initialize with \(error)"))
            }
        }.mapError { error in
            if error.code == RPCErrorCode.unsupportedProtocolVersion, case .array(let versions)? = error.data?["supported"] {
                let supported = versions.map { value -> String in
                    if case .integer(let version) = value { return String(version) }
                    return "?"
                }
                return ExtensionCallError(.launchFailed, code: error.code,
                                          message: "\(descriptor.executableName) speaks protocol \(supported.joined(separator: ", ")), the host speaks \(WireProtocol.version)")
            }
            return ExtensionCallError(error.kind == .extensionTerminated || error.kind == .memoryLimitExceeded ? error.kind : .launchFailed,
                               code: error.code, message: "handshake failed: \(error.message)")
        }
        let elapsed = (reply.finishedAt - connection.launchedAt).milliseconds
        switch result {
        case .success(let initialize):
            launchMilliseconds = elapsed
            configuration.events.record(HostEvent(kind: "handshake", bundleIdentifier: descriptor.bundleIdentifier,
                                                  pid: connection.pid, milliseconds: elapsed,
                                                  message: "\(initialize.runtime.name) \(initialize.runtime.version): \(initialize.methods.joined(separator: ", "))"))
            connection.openGate(implementedMethods: initialize.methods)
        case .failure(let error):
            configuration.events.record(HostEvent(kind: "handshake", bundleIdentifier: descriptor.bundleIdentifier,
                                                  pid: connection.pid, milliseconds: elapsed, message: error.message))
            connection.failAllPending(error)
            _ = await connection.stop(reason: "handshake failed", grace: configuration.stopGrace)
        }
        return result
    }

    private func environment(memoryLimit: Int) -> [String: String] {
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

    private func connectionEnded(_ ended: ExtensionConnection) {
        guard connection === ended else { return }
        connection = nil
        handshake = nil
        launchMilliseconds = nil
    }

    /// Notes the end of a call; one watcher task per runner stops the process once no call
    /// has ended for `idleTimeout` (a task per call would pile up sleeping tasks on a busy host).
    private func scheduleIdleStop() {
        guard let idleTimeout = configuration.idleTimeout, callsInFlight == 0 else { return }
        lastCallEnded = .now
        guard idleWatcher == nil else { return }
        idleWatcher = Task {
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
        let due = lastCallEnded + idleTimeout
        if callsInFlight > 0 || ContinuousClock.now < due {
            return callsInFlight > 0 ? .now + idleTimeout : due
        }
        idleWatcher = nil
        if connection != nil { await stop(reason: "idle") }
        return nil
    }
}
