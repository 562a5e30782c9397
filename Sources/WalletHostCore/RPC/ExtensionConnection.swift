import CWalletSpawn
import Foundation
import Synchronization
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// Fixed facts about the extension on the other end of a connection.
struct ConnectionContext: Sendable {
    var bundleIdentifier: String
    var executableName: String
    var extensionPoint: String
    var role: ExtensionRole
    var memoryLimitBytes: Int
    var memoryLimitDescription: String
    /// How long after a missed deadline a silent extension is declared hung.
    var hangGrace: Duration
    /// How often the footprint is sampled while a call is in flight.
    var sampleInterval: Duration
    var events: any HostEventSink
    var services: (any HostServiceProvider)?
}

/// The host side of one running extension process: it writes requests on the child's fd 3,
/// and one I/O thread reads fd 4, stdout, stderr and the pidfd, resolves calls, enforces
/// deadlines, samples memory and reaps the process. Reaping is driven by the pidfd, never by
/// pipe EOF: a grandchild may hold the pipes open forever.
final class ExtensionConnection: Sendable {
    let child: ChildProcess
    let context: ConnectionContext
    let launchedAt: ContinuousClock.Instant
    let state: Mutex<ConnectionState>
    let wakeup: (read: Int32, write: Int32)
    /// The child's memory, sampled while calls are in flight.
    let footprint: FootprintReader
    private let exitHandler: @Sendable (ExtensionConnection, ExtensionExit) -> Void

    deinit {
        SystemCall.close(wakeup.read)
        SystemCall.close(wakeup.write)
        child.closeDescriptors()
    }

    var pid: Int32 { child.pid }

    /// Spawns the process and starts its I/O thread.
    /// - Parameter onExit: called once, on the I/O thread, after the process was reaped.
    /// - Throws: ``SpawnError`` when the executable could not be started.
    init(spawning configuration: SpawnConfiguration, context: ConnectionContext,
         onExit: @escaping @Sendable (ExtensionConnection, ExtensionExit) -> Void) throws {
        let launchedAt = ContinuousClock.now
        let wakeup = try SystemCall.pipe(nonBlockingRead: true, nonBlockingWrite: true)
        do {
            child = try ChildProcess.spawn(configuration)
        } catch {
            SystemCall.close(wakeup.read)
            SystemCall.close(wakeup.write)
            throw error
        }
        self.wakeup = wakeup
        footprint = FootprintReader(pid: child.pid)
        self.context = context
        self.launchedAt = launchedAt
        state = Mutex(ConnectionState())
        exitHandler = onExit
        let thread = Thread { [self] in runLoop() }
        thread.name = "wallet-host.io.\(child.pid)"
        thread.stackSize = 512 * 1024
        thread.start()
    }

    // MARK: Calls

    /// Sends a request and waits for its response, its deadline, or the process's end.
    /// - Parameters:
    ///   - gated: when true the request waits until ``openGate()`` (the handshake completed).
    ///   - askedAt: when the caller asked; the deadline is measured from here.
    func call(method: String, params: some Encodable & Sendable, askedAt: ContinuousClock.Instant,
              deadline: ContinuousClock.Instant?, gated: Bool = true) async -> CallReply {
        await withCheckedContinuation { continuation in
            enqueueCall(method: method, params: params, askedAt: askedAt, deadline: deadline, gated: gated,
                        continuation: continuation)
        }
    }

    private func enqueueCall(method: String, params: some Encodable & Sendable, askedAt: ContinuousClock.Instant,
                             deadline: ContinuousClock.Instant?, gated: Bool,
                             continuation: CheckedContinuation<CallReply, Never>) {
        var needsWake = false
        let failure: ExtensionCallError? = state.withLock { state in
            if let exit = state.exit {
                return Self.terminationError(exit, method: method)
            }
            if gated, let implemented = state.implementedMethods, !implemented.contains(method) {
                return Self.notImplemented(method, executable: context.executableName)
            }
            if state.stopping, method != WireMethod.shutdown {
                return ExtensionCallError(.extensionTerminated, code: RPCErrorCode.extensionTerminated,
                                          message: "\(context.executableName)[\(child.pid)] is shutting down")
            }
            let id = RequestID.number(state.nextRequestID)
            state.nextRequestID += 1
            let line: Data
            do {
                line = try state.codec.request(id: id, method: method, params: params)
            } catch {
                return ExtensionCallError(.protocolViolation, code: RPCErrorCode.invalidParams,
                                          message: "cannot encode \(method) parameters: \(error)")
            }
            var pending = PendingCall(method: method, askedAt: askedAt, deadline: deadline, unsentLine: line,
                                      continuation: continuation)
            if !gated || state.gateOpen {
                pending.unsentLine = nil
                pending.sentAt = .now
                writeLocked(line, state: &state)
            } else {
                state.gatedIDs.append(id)
            }
            state.pending[id] = pending
            // The I/O thread never sleeps past `plannedWake` (at most ``idlePollInterval``): a
            // call whose deadline comes later needs no wake-up, which keeps a warm round trip
            // to one context switch each way.
            needsWake = !state.outgoing.isEmpty || (deadline.map { deadline in state.plannedWake.map { deadline < $0 } ?? true } ?? false)
            return nil
        }
        if let failure {
            continuation.resume(returning: CallReply(outcome: .failure(failure), finishedAt: .now))
            return
        }
        context.events.record(HostEvent(kind: "call", bundleIdentifier: context.bundleIdentifier, pid: child.pid,
                                        method: method))
        if needsWake { wake() }
    }

    /// Lets gated calls through: the handshake succeeded. Calls to methods the extension did
    /// not list in `initialize` fail as not implemented and are never sent.
    func openGate(implementedMethods: [String]) {
        let refused = state.withLock { state -> [PendingCall] in
            guard state.exit == nil else { return [] }
            state.gateOpen = true
            state.implementedMethods = Set(implementedMethods)
            var refused: [PendingCall] = []
            for id in state.gatedIDs {
                guard let call = state.pending[id], let line = call.unsentLine else { continue }
                if !implementedMethods.contains(call.method) {
                    state.pending[id] = nil
                    refused.append(call)
                    continue
                }
                state.pending[id]?.unsentLine = nil
                state.pending[id]?.sentAt = .now
                writeLocked(line, state: &state)
            }
            state.gatedIDs.removeAll()
            return refused
        }
        for call in refused {
            call.continuation.resume(returning: CallReply(outcome: .failure(Self.notImplemented(call.method,
                                                                                                executable: context.executableName)),
                                                          finishedAt: .now))
        }
        wake()
    }

    static func notImplemented(_ method: String, executable: String) -> ExtensionCallError {
        ExtensionCallError(.notImplemented, code: RPCErrorCode.methodNotFound,
                           message: "\(executable) does not implement \(method) (it did not list it in initialize)")
    }

    /// Writes now what the pipe takes; the I/O thread writes the rest when it drains.
    func writeLocked(_ line: Data, state: inout ConnectionState) {
        if state.outgoing.isEmpty {
            let written = (try? line.withUnsafeBytes { try SystemCall.write(child.requestWriter, $0) }) ?? line.count
            if written < line.count { state.outgoing.append(line[(line.startIndex + written)...]) }
        } else {
            state.outgoing.append(line)
        }
    }

    /// Nudges the I/O thread to recompute timeouts or flush output.
    func wake() {
        var byte: UInt8 = 1
        _ = Glibc.write(wakeup.write, &byte, 1)
    }

    // MARK: Stopping

    /// Waits until the process has been reaped (or returns at once if it already was).
    func waitForExit(timeout: Duration) async -> ExtensionExit? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let exit = state.withLock({ $0.exit }) { return exit }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return state.withLock { $0.exit }
    }

    /// Records why the host is about to signal the process, so its exit is reported correctly.
    func noteHostStop(reason: String) {
        state.withLock { state in
            if state.hostStopReason == nil { state.hostStopReason = reason }
        }
    }

    var hasExited: Bool { state.withLock { $0.exit != nil } }

    /// True once the host began stopping the process (or it exited): it takes no new calls.
    var isStoppingOrExited: Bool { state.withLock { $0.stopping || $0.exit != nil } }

    /// The exit handler, run once by the I/O thread.
    func reportExit(_ exit: ExtensionExit) {
        exitHandler(self, exit)
    }

    static func terminationError(_ exit: ExtensionExit, method: String) -> ExtensionCallError {
        if exit.isMemoryDeath {
            return ExtensionCallError(.memoryLimitExceeded, code: RPCErrorCode.memoryLimitExceeded,
                                      message: "\(exit.description) during \(method)")
        }
        var message = "\(exit.description) during \(method)"
        if let last = exit.stderrTail.last(where: { !$0.isEmpty }) { message += "; last stderr line: \(last)" }
        return ExtensionCallError(.extensionTerminated, code: RPCErrorCode.extensionTerminated, message: message)
    }
}

/// Everything the connection's callers and its I/O thread share, behind one lock.
struct ConnectionState {
    var codec = WireCodec()
    var nextRequestID = 1
    var pending: [RequestID: PendingCall] = [:]
    var gatedIDs: [RequestID] = []
    var gateOpen = false
    /// The methods the extension listed in `initialize`; nil until the handshake completed.
    var implementedMethods: Set<String>?
    var expired: [RequestID: ExpiredCall] = [:]
    /// Ids answered recently, to tell a double completion from a response to nothing.
    var recentlyCompleted = RecentSet<RequestID>(capacity: 1024)
    var outgoing = Data()
    var stopping = false
    var exitSent = false
    /// When the I/O thread will look at the calls again at the latest.
    var plannedWake: ContinuousClock.Instant?
    var hostStopReason: String?
    var memoryKillFootprint: Int?
    var lastFootprint: Int?
    var exit: ExtensionExit?
}

/// A set that remembers only its most recent `capacity` members.
struct RecentSet<Element: Hashable> {
    private var members: Set<Element> = []
    private var order: [Element] = []
    private var nextSlot = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    func contains(_ element: Element) -> Bool { members.contains(element) }

    mutating func insert(_ element: Element) {
        guard !members.contains(element) else { return }
        if order.count < capacity {
            order.append(element)
        } else {
            members.remove(order[nextSlot])
            order[nextSlot] = element
            nextSlot = (nextSlot + 1) % capacity
        }
        members.insert(element)
    }
}
