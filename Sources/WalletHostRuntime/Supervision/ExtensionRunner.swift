import Foundation
import Synchronization
import WalletWire

/// Runs one extension under Wallet's rules: launches its process on first use (or ``prewarm()``),
/// keeps it warm across calls, relaunches it after a crash, a memory kill or a hang, and stops
/// it when idle. Every call gets a deadline measured from the ask, launch included.
///
/// All of the runner's state is one private ``State`` behind one lock, changed only inside it:
/// every call takes the same path (``start(_:params:resultType:deadline:ticket:completion:)``),
/// which reads the process from that state on the caller's thread and writes the request from
/// there, launching a process first when none runs. The answer comes on the thread that read it
/// (the process's I/O thread). A lock rather than an actor: a warm call then costs no hop to
/// another executor, and there is still one source of truth.
public final class ExtensionRunner: Sendable {
    public let descriptor: ExtensionDescriptor
    public let configuration: HostConfiguration

    /// Where the runner's process is in its life.
    enum Phase {
        /// No process: the next call launches one.
        case idle
        /// A process runs; its handshake is under way (calls queue behind it in its session).
        case launching(Launch)
        /// A process runs and completed its handshake.
        case warm(Launch)

        var launch: Launch? {
            switch self {
            case .idle: nil
            case .launching(let launch), .warm(let launch): launch
            }
        }
    }

    struct State {
        var phase = Phase.idle
        var callsInFlight = 0
        /// Who waits for there to be no call in flight.
        var idleWaiters = TimedWaiters<Bool, Void>()
        /// When the last call ended, read by the idle timer.
        var lastCallEnded: ContinuousClock.Instant
        /// The idle stop's timer, while one is armed (one per runner, not one per call).
        var idleTimer: HostTimer?
        /// The runner was replaced: why, and it stops once its calls in flight are over.
        var retirement: String?
        /// The container quota's watch of each running process, by pid.
        var quotaWatches: [Int32: UInt64] = [:]
        var launchCount = 0
    }

    let state: Mutex<State>
    var clock: any HostClock { configuration.clock }

    /// The environment every launch gets, built once (reading the host's environment and
    /// encoding the App Groups cost a launch about 0.15 ms).
    let launchEnvironment: [String: String]
    /// What the process may see, unless the sandbox is off.
    let sandboxPlan: SandboxPlan?

    public init(descriptor: ExtensionDescriptor, configuration: HostConfiguration) {
        self.descriptor = descriptor
        self.configuration = configuration
        state = Mutex(State(lastCallEnded: configuration.clock.now()))
        launchEnvironment = Self.environment(descriptor: descriptor, configuration: configuration)
        sandboxPlan = Self.sandboxPlan(descriptor: descriptor, configuration: configuration, environment: launchEnvironment)
    }

    /// Processes launched so far (for reports and tests).
    public var launchCount: Int { state.withLock { $0.launchCount } }

    /// The warm process's pid, if one is running.
    public var pid: Int32? {
        guard let connection = state.withLock({ $0.phase.launch?.connection }), !connection.hasExited else { return nil }
        return connection.pid
    }

    /// Whether a process runs that completed its handshake and is not stopping: a call now
    /// neither launches nor waits for a handshake.
    public var isWarm: Bool {
        guard case .warm(let launch) = state.withLock({ $0.phase }) else { return false }
        return !launch.connection.isStoppingOrExited
    }

    /// The I/O reactor's turns for the warm process so far (its wake-ups, as tests count them).
    var reactorTurns: Int? {
        state.withLock { $0.phase.launch?.connection }?.supervisor.turns.load(ordering: .relaxed)
    }

    /// Whether the warm process's control group has its usage watch in place (set up off the
    /// launch's way); nil without a warm process in a control group.
    var controlGroupUsageWatched: Bool? {
        state.withLock { $0.phase.launch?.connection }?.supervisor.context.controlGroup?.usageWatched
    }

    /// The handshake result of the running process, once it completed.
    public func handshakeResult() async -> Result<InitializeResult, ExtensionCallError>? {
        guard let launch = state.withLock({ $0.phase.launch }) else { return nil }
        return await launch.handshake.value
    }

    /// Launches the process now so that the next call is warm.
    /// - Returns: the handshake result.
    @discardableResult
    public func prewarm() async -> Result<InitializeResult, ExtensionCallError> {
        switch state.withLock({ launchIfNeeded(&$0) }) {
        case .failure(let error):
            return .failure(error)
        case .success(let (launch, launchedNow)):
            if launchedNow { beginHandshake(launch) }
            return await launch.handshake.value
        }
    }

    // MARK: Calls

    /// Calls `method` and decodes its result as `resultType`.
    ///
    /// The deadline is the point's (or the configuration's override), counted from now,
    /// including launch when the process is cold. A result of the wrong shape is a
    /// ``ExtensionCallError/Kind/protocolViolation`` naming the bad key. Cancelling the task
    /// cancels the call (``CallTicket/cancel()``).
    public func call<Params: Encodable & Sendable, Result: Decodable & Sendable>(
        _ method: String, params: Params, resultType: Result.Type
    ) async -> CallOutcome<Result> {
        await call(method, params: params, resultType: resultType, deadline: CallDeadline.configured)
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
        await call(method, params: params, resultType: resultType, deadline: deadline.map(CallDeadline.after) ?? .none)
    }

    /// Calls `method` with the deadline `deadline` says; cancelling the task cancels the call.
    public func call<Params: Encodable & Sendable, Result: Decodable & Sendable>(
        _ method: String, params: Params, resultType: Result.Type, deadline: CallDeadline
    ) async -> CallOutcome<Result> {
        let ticket = CallTicket()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                start(method, params: params, resultType: resultType, deadline: deadline, ticket: ticket) {
                    continuation.resume(returning: $0)
                }
            }
        } onCancel: {
            ticket.cancel()
        }
    }

    /// Starts a call: the one path every call takes. The request is written from this thread
    /// when the process is warm; otherwise this thread launches one first (the request then
    /// waits in its session for the handshake). `completion` gets the outcome once, on the
    /// thread that settles the call: the process's I/O thread for an answer, this one for a call
    /// that fails at once, the cancelling one for a cancelled call.
    /// - Parameters:
    ///   - deadline: which deadline, counted from now (launch included).
    ///   - ticket: cancels the call (``CallTicket/cancel()``).
    public func start<Params: Encodable & Sendable, Result: Decodable & Sendable>(
        _ method: String, params: Params, resultType: Result.Type, deadline: CallDeadline = .configured,
        ticket: CallTicket = CallTicket(), completion: @escaping @Sendable (CallOutcome<Result>) -> Void
    ) {
        // A phone has an app's App Group containers from its install, before Wallet asks anything:
        // making them here (an ext4 image each on a root host, tens of milliseconds once) is the
        // simulated device's time, not the extension's, so it happens before the deadline starts.
        if !isWarm { prepareContainers() }
        // The call's times are on the clock the session and the I/O reactor read (the loop's);
        // the configuration's clock drives the runner's own timers (the idle stop).
        let askedAt = configuration.callClock.now()
        let allowed = resolve(deadline, for: method)
        let acquired = state.withLock { state in
            state.callsInFlight += 1
            return launchIfNeeded(&state)
        }
        let launch: Launch
        let launchedNow: Bool
        switch acquired {
        case .failure(let error):
            callEnded()
            guard ticket.claimAnswer() else { return }
            return completion(CallOutcome(method: method, result: .failure(error), launchMilliseconds: nil, launchedProcess: true,
                                          callMilliseconds: 0, totalMilliseconds: (configuration.callClock.now() - askedAt).milliseconds,
                                          peakFootprintBytes: nil, pid: nil, deadline: allowed))
        case .success(let (value, launched)):
            (launch, launchedNow) = (value, launched)
            // `initialize` first, the call queued behind it.
            if launched { beginHandshake(launch) }
        }
        let connection = launch.connection
        let id = connection.send(method: method, params: params, askedAt: askedAt, deadline: allowed.map { askedAt + $0 }) { [self] reply in
            callEnded()
            guard ticket.claimAnswer() else { return }
            completion(outcome(of: method, reply: reply, resultType: resultType, askedAt: askedAt, deadline: allowed,
                               connection: connection, launchMilliseconds: launchedNow ? launch.handshakeMilliseconds : nil,
                               launchedNow: launchedNow))
        }
        guard let id else { return }
        ticket.onCancel {
            if ticket.claimAnswer() {
                let error = ExtensionCallError(.cancelled, code: RPCErrorCode.requestCancelled, message: "\(method) was cancelled")
                completion(CallOutcome(method: method, result: .failure(error), launchMilliseconds: nil, launchedProcess: launchedNow,
                                       callMilliseconds: 0, totalMilliseconds: (self.configuration.callClock.now() - askedAt).milliseconds,
                                       peakFootprintBytes: nil, pid: connection.pid, sandboxed: connection.sandboxed,
                                       deadline: allowed))
            }
            connection.session.cancel(id)
        }
    }

    /// The call's deadline: the only place it is worked out.
    private func resolve(_ deadline: CallDeadline, for method: String) -> Duration? {
        switch deadline {
        case .configured: configuration.deadline(for: method, at: descriptor.point)
        case .after(let duration): duration
        case .none: nil
        }
    }

    /// A call's outcome from the session's reply: the result decoded as its type, a method the
    /// extension does not have named as such, the timings.
    private func outcome<Result: Decodable & Sendable>(
        of method: String, reply: CallReply, resultType: Result.Type, askedAt: ContinuousClock.Instant, deadline: Duration?,
        connection: ExtensionConnection, launchMilliseconds: Double?, launchedNow: Bool
    ) -> CallOutcome<Result> {
        let decoded: Swift.Result<Result, ExtensionCallError> = reply.outcome.flatMap { line in
            do {
                return .success(try WireCodec().result(resultType, from: line, at: reply.resultRange))
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
                           unsandboxedReason: connection.sandboxed ? nil : connection.unsandboxedReason ?? "--sandbox off",
                           deadline: deadline)
    }

    // MARK: Stopping

    /// Returns once no call is in flight (at once when none is), or after `timeout`.
    public func callsEnded(within timeout: Duration) async {
        let id = state.withLock { $0.idleWaiters.makeID() }
        _ = await TimedWaiters<Bool, Void>.wait(id: id, within: timeout, begin: { continuation in
            let now = state.withLock { state in
                state.callsInFlight == 0 || !state.idleWaiters.add(id, condition: (), continuation: continuation)
            }
            if now { continuation.resume(returning: true) }
        }, abandon: { [self] id in
            state.withLock { $0.idleWaiters.abandon(id) }?.resume(returning: nil)
        })
    }

    /// Stops the process (shutdown, exit, SIGTERM, SIGKILL to its group) and waits for it.
    /// - Parameter reason: why, in the caller's words, for the event log and the exit report.
    /// - Returns: how it ended, or nil when nothing was running.
    @discardableResult
    public func stop(reason: String = "host stop") async -> ExtensionExit? {
        await stop(.requested(reason))
    }

    func stop(_ reason: StopReason) async -> ExtensionExit? {
        let launch = state.withLock { state -> Launch? in
            state.idleTimer?.cancel()
            state.idleTimer = nil
            defer { state.phase = .idle }
            return state.phase.launch
        }
        guard let launch else { return nil }
        return await launch.connection.stop(reason, teardown: configuration.teardown)
    }
}

/// Which deadline a call gets, counted from the ask (launch included).
public enum CallDeadline: Sendable, Equatable {
    /// The extension point's for the method, or the configuration's override.
    case configured
    /// This call's own.
    case after(Duration)
    /// None: the call waits as long as the extension takes.
    case none
}
