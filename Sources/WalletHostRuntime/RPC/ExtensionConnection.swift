import Foundation
import Synchronization
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// One running extension: its process (``ProcessSupervisor``) and its JSON-RPC session
/// (``RPCSession``), and the stop sequence that needs both.
final class ExtensionConnection: Sendable {
    let supervisor: ProcessSupervisor
    let session: RPCSession
    /// How to stop an extension that is beyond use (hung, beyond repair, fd 4 closed).
    private let abandonTeardown: Teardown

    /// Spawns the process and hands it to the I/O reactor.
    /// - Parameter onExit: called once, on the process's teardown thread, after it was reaped.
    /// - Throws: ``SpawnError`` when the executable could not be started.
    init(spawning configuration: SpawnConfiguration, process: ProcessSupervisor.Context, session: RPCSession.Context,
         loop: HostLoop? = nil, abandonTeardown: Teardown, onExit: @escaping @Sendable (ExtensionExit) -> Void) throws {
        let supervisor = try ProcessSupervisor(spawning: configuration, context: process, loop: loop, onExit: onExit)
        let stopper = StopRelay()
        let session = RPCSession(supervisor: supervisor, context: session) { reason in stopper.stop(reason) }
        self.supervisor = supervisor
        self.session = session
        self.abandonTeardown = abandonTeardown
        stopper.connection.withLock { $0 = WeakConnection(self) }
        try supervisor.start(delegate: session)
    }

    var pid: Int32 { supervisor.pid }
    /// Whether the process runs in the sandbox.
    var sandboxed: Bool { supervisor.sandboxed }
    /// Why a process meant for the sandbox runs without it.
    var unsandboxedReason: String? { supervisor.unsandboxedReason }
    var launchedAt: ContinuousClock.Instant { supervisor.launchedAt }
    var hasExited: Bool { supervisor.exit != nil }
    var isStoppingOrExited: Bool { supervisor.isStoppingOrExited }

    /// Sends a request and waits for its response, its deadline, or the process's end.
    func call(method: String, params: some Encodable & Sendable, askedAt: ContinuousClock.Instant,
              deadline: ContinuousClock.Instant?, gated: Bool = true) async -> CallReply {
        await session.call(method: method, params: params, askedAt: askedAt, deadline: deadline, gated: gated)
    }

    /// Sends a request; `onReply` gets its reply on the thread that settles the call.
    /// - Returns: the request's id (for ``RPCSession/cancel(_:)``); nil when it failed at once.
    @discardableResult
    func send(method: String, params: some Encodable & Sendable, askedAt: ContinuousClock.Instant,
              deadline: ContinuousClock.Instant?, onReply: @escaping @Sendable (CallReply) -> Void) -> RequestID? {
        session.send(method: method, params: params, askedAt: askedAt, deadline: deadline, onReply: onReply)
    }

    /// Runs `teardown` for `reason`: each graceful step, a wait for the exit after each, then
    /// `SIGKILL` to the group. A second stop while one runs escalates by signals only.
    /// - Returns: how the process ended (nil only if even `SIGKILL` did not let it be reaped in time).
    func stop(_ reason: StopReason, teardown: Teardown) async -> ExtensionExit? {
        if let exit = supervisor.exit { return exit }
        let first = supervisor.beginStop(reason)
        for step in teardown.steps {
            switch step.action {
            case .shutdownRequest:
                guard first else { continue }
                _ = await session.call(method: WireMethod.shutdown, params: NoParams(), askedAt: supervisor.clock.now(),
                                       deadline: supervisor.clock.now() + step.grace, gated: false)
                continue
            case .exitNotification:
                guard first else { continue }
                session.notify(method: WireMethod.exit, params: NoParams())
            case .signal(let signal):
                supervisor.signalGroup(signal)
            }
            if let exit = await supervisor.exit(within: step.grace) { return exit }
        }
        supervisor.signalGroup(SIGKILL)
        return await supervisor.exit(within: teardown.reapTimeout)
    }

    /// Stops an extension found beyond use (by its session, or over its container quota),
    /// without waiting for anyone.
    func abandon(_ reason: StopReason) {
        Task { _ = await self.stop(reason, teardown: abandonTeardown) }
    }
}

/// Lets the session ask for a stop without owning the connection (which owns the session).
private final class StopRelay: Sendable {
    let connection = Mutex<WeakConnection?>(nil)

    func stop(_ reason: StopReason) {
        connection.withLock { $0?.value }?.abandon(reason)
    }
}

private struct WeakConnection: Sendable {
    weak var value: ExtensionConnection?
    init(_ value: ExtensionConnection) {
        self.value = value
    }
}
