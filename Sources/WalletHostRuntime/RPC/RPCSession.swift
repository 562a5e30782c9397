import Foundation
import Synchronization
import WalletWire

/// What the session hands back for one request.
struct CallReply: Sendable {
    /// The response line on success, to be decoded by the caller into the method's result type.
    var outcome: Result<Data, ExtensionCallError>
    /// Where the result value lies in the success line, when the session's one read of the
    /// envelope found it (``WireCodec/result(_:from:at:)``).
    var resultRange: Range<Int>?
    /// The highest footprint sampled while the call was in flight.
    var peakFootprintBytes: Int?
    /// When the request was written to the extension (nil if it never was).
    var sentAt: ContinuousClock.Instant?
    var finishedAt: ContinuousClock.Instant
    /// For the `initialize` call's success line: its result as the session decoded it once (to
    /// open the gate), for the handshake to read instead of decoding the line again.
    var initialize: Result<InitializeResult, any Error>?
}

/// The JSON-RPC half of a running extension: it encodes calls, keeps their bookkeeping in a
/// ``CallBook``, matches responses, enforces deadlines, serves the extension's requests of the
/// host, and explains every failure with what else it saw. The process half is the
/// ``ProcessSupervisor`` it writes through; the supervisor's I/O thread drives this type as its
/// delegate. When the extension is beyond use (hung, too many violations, fd 4 closed) the
/// session says so through `onBroken`; stopping the process is the connection's job.
final class RPCSession: ProcessSupervisorDelegate {
    /// Whoever waits for a call: what to do with its reply (resume a task, or answer at once
    /// on the thread that has the reply), and whether its answer opens the gate.
    struct Waiter: Sendable {
        let onReply: @Sendable (CallReply) -> Void
        /// The `initialize` call: a usable answer opens the gate on the I/O thread, so calls
        /// queued behind the handshake are written before its caller even resumes.
        let opensGate: Bool
        /// Who records the call's `call` event, and whether its request was written (``CallEventGate``).
        let callEvent = CallEventGate()

        func resume(returning reply: CallReply) {
            onReply(reply)
        }
    }

    /// Fixed facts and rules of the session.
    struct Context: Sendable {
        var bundleIdentifier: String
        /// The app the extension belongs to; host services answer for that issuer only.
        var containingAppBundleIdentifier: String?
        /// The keychain access groups host services grant the extension, the default first.
        var keychainAccessGroups: [String] = []
        /// The extension's team, which owns its keychain items; empty for an unsigned bundle's default.
        var team = ""
        var executableName: String
        /// The extension's point: its identifier and role, and what a missed deadline means.
        var point: ExtensionPoint
        /// How long after a missed deadline a silent extension is declared hung.
        var hangGrace: Duration
        /// Protocol violations tolerated before the extension is declared beyond repair.
        var violationBudget: Int
        /// How long an extension that closed fd 4 may keep running before it is stopped.
        var closedChannelGrace: Duration
        var events: any HostEventSink
        var services: (any HostServiceProvider)?
    }

    struct State {
        var book = CallBook<Waiter>()
        var violations = 0
        /// When a usable `initialize` answer opened the gate.
        var handshakeCompletedAt: ContinuousClock.Instant?
    }

    /// When the handshake completed (a usable `initialize` answer arrived), if it has.
    var handshakeCompletedAt: ContinuousClock.Instant? { state.withLock { $0.handshakeCompletedAt } }
    /// Whether the handshake completed, read without the lock (every warm call asks).
    var handshakeCompleted: Bool { handshakeDone.load(ordering: .acquiring) }
    let handshakeDone = Atomic<Bool>(false)

    let supervisor: ProcessSupervisor
    let context: Context
    let state = Mutex(State())
    let codec = WireCodec()
    private let onBroken: @Sendable (StopReason) -> Void

    init(supervisor: ProcessSupervisor, context: Context, onBroken: @escaping @Sendable (StopReason) -> Void) {
        self.supervisor = supervisor
        self.context = context
        self.onBroken = onBroken
    }

    var processName: String { "\(context.executableName)[\(supervisor.pid)]" }

    // MARK: Calls

    /// Sends a request and waits for its response, its deadline, or the process's end.
    /// - Parameters:
    ///   - gated: when true the request waits until ``openGate(implemented:)`` (the handshake completed).
    ///   - askedAt: when the caller asked; the deadline is measured from here.
    func call(method: String, params: some Encodable & Sendable, askedAt: ContinuousClock.Instant,
              deadline: ContinuousClock.Instant?, gated: Bool = true) async -> CallReply {
        await withCheckedContinuation { continuation in
            send(method: method, params: params, askedAt: askedAt, deadline: deadline, gated: gated) { reply in
                continuation.resume(returning: reply)
            }
        }
    }

    /// Sends a request; `onReply` gets its reply once, on the thread that settles the call (the
    /// I/O thread for a response, a deadline or an exit; this one when it fails at once).
    /// - Returns: the request's id, for ``cancel(_:)``; nil when the call failed at once.
    @discardableResult
    func send(method: String, params: some Encodable & Sendable, askedAt: ContinuousClock.Instant,
              deadline: ContinuousClock.Instant?, gated: Bool = true, onReply: @escaping @Sendable (CallReply) -> Void) -> RequestID? {
        let waiter = Waiter(onReply: onReply, opensGate: method == WireMethod.initialize)
        switch admit(method: method, params: params, askedAt: askedAt, deadline: deadline, gated: gated, waiter: waiter) {
        case .success(let id):
            return id
        case .failure(let failure):
            onReply(CallReply(outcome: .failure(failure), finishedAt: supervisor.clock.now()))
            return nil
        }
    }

    /// The caller gave up on call `id` (its client cancelled it). A call still queued behind the
    /// handshake is dropped unsent and fails now; a written one gets `$/cancelRequest` (after its
    /// request, never before) and stays booked until the extension answers or its deadline
    /// passes, so the extension's late answer or acknowledgement is still recognised.
    func cancel(_ id: RequestID) {
        let unsent = state.withLock { state -> CallBook<Waiter>.Pending? in
            guard let call = state.book.pendingCall(id), call.sentAt == nil else { return nil }
            return state.book.take(id)
        }
        if let unsent {
            fail(unsent, id: id, with: ExtensionCallError(.cancelled, code: RPCErrorCode.requestCancelled,
                                                          message: "\(unsent.method) was cancelled before it was sent"))
            return
        }
        guard let waiter = state.withLock({ $0.book.pendingCall(id)?.waiter }) else { return }
        if waiter.callEvent.deadlineExpired(),
           let line = try? codec.notification(method: WireMethod.cancelRequest, params: CancelRequestParams(id: id)) {
            supervisor.write(line)
        }
    }

    /// Books and writes a call; returns the error to fail it with at once, if any.
    ///
    /// Only the booking holds the session's lock: the response, which resolves under it, never
    /// waits for the request's write or an event (a fast extension answered while the lock was
    /// still held, and the I/O thread slept on it). The `call` event is recorded after the write,
    /// off the request's way; ``CallEventGate`` keeps it before the event that closes the call,
    /// and a deadline that passes before the write leaves its `$/cancelRequest` to the writer, so
    /// the extension never sees a cancel before its request.
    private func admit(method: String, params: some Encodable & Sendable, askedAt: ContinuousClock.Instant,
                       deadline: ContinuousClock.Instant?, gated: Bool, waiter: Waiter) -> Result<RequestID, ExtensionCallError> {
        let stderrMark = supervisor.stderrMark
        // The process still running (an atomic read) spares the supervisor's lock inside this one.
        let phase = supervisor.isStoppingOrExited ? supervisor.phase : .running
        let booked = state.withLock { state -> Result<(id: RequestID, line: Data?), ExtensionCallError> in
            switch phase {
            case .exited(let exit):
                return .failure(Self.terminationError(exit, method: method, diagnostics: CallDiagnostics(termination: exit.status)))
            case .stopping where method != WireMethod.shutdown:
                return .failure(ExtensionCallError(.extensionTerminated, code: RPCErrorCode.extensionTerminated,
                                                   message: "\(processName) is shutting down"))
            case .running, .stopping:
                break
            }
            let admission: CallBook<Waiter>.Admission
            do {
                admission = try state.book.admit(method: method, askedAt: askedAt, deadline: deadline, gated: gated,
                                                 stderrMark: stderrMark, waiter: waiter, now: supervisor.clock.now()) { id in
                    try codec.request(id: id, method: method, params: params)
                }
            } catch {
                return .failure(ExtensionCallError(.protocolViolation, code: RPCErrorCode.invalidParams,
                                                   message: "cannot encode \(method) parameters: \(error)"))
            }
            switch admission {
            case .notImplemented:
                return .failure(Self.notImplemented(method, executable: context.executableName))
            case .queued(let id):
                // Written by openGate, under the lock, once the handshake completed: the event
                // goes first while the lock keeps the gate shut (a cold launch, not the warm path).
                record(.call(HostEvent.Request(method: method, requestID: id.logged)))
                waiter.callEvent.markRecorded()
                // A deadline sends a cancel only for a call openGate has written (under this lock).
                _ = waiter.callEvent.requestWritten()
                return .success((id, nil))
            case .send(let id, let line):
                return .success((id, line))
            }
        }
        let id: RequestID
        let line: Data?
        switch booked {
        case .failure(let error): return .failure(error)
        case .success(let call): (id, line) = call
        }
        guard let line else {
            if deadline != nil { supervisor.wake() }
            return .success(id)
        }
        guard supervisor.write(line, deadline: deadline) else {
            // Exited between the booking and the write. Unless the exit already failed this call
            // (it takes every booked call), it took no notice of it: fail it here.
            guard state.withLock({ $0.book.take(id) }) != nil else { return .success(id) }
            let error = supervisor.exit.map {
                Self.terminationError($0, method: method, diagnostics: CallDiagnostics(termination: $0.status))
            } ?? ExtensionCallError(.extensionTerminated, code: RPCErrorCode.extensionTerminated,
                                    message: "\(processName) ended before \(method) could be sent")
            recordEnd(of: method, id: id, waiter: waiter, askedAt: askedAt, at: supervisor.clock.now(), footprint: nil, failure: error)
            return .failure(error)
        }
        if waiter.callEvent.requestWritten(), let cancel = try? codec.notification(method: WireMethod.cancelRequest,
                                                                                  params: CancelRequestParams(id: id)) {
            // The deadline passed before the write (a zero deadline, a writer held up): the
            // cancel the I/O thread would have sent goes after the request, not before it.
            supervisor.write(cancel)
        }
        settleCallEvent(of: method, id: id, waiter: waiter)
        return .success(id)
    }

    /// Lets gated calls through: the handshake succeeded. Calls to methods the extension did
    /// not list in `initialize` fail as not implemented and are never sent.
    func openGate(implemented methods: [String]) {
        let refused = state.withLock { state in
            let (lines, refused) = state.book.openGate(implemented: methods, now: supervisor.clock.now())
            for line in lines { supervisor.write(line) }
            return refused
        }
        for (id, call) in refused {
            fail(call, id: id, with: Self.notImplemented(call.method, executable: context.executableName))
        }
        supervisor.wake()
    }

    /// Sends a notification (no response expected), unless the process is gone.
    func notify(method: String, params: some Encodable) {
        guard let line = try? codec.notification(method: method, params: params) else { return }
        supervisor.write(line)
    }

    /// Fails every call in flight with `error` (each with its own diagnostics).
    func failAll(_ error: ExtensionCallError) {
        let calls = state.withLock { $0.book.takeAll() }
        for (id, call) in calls {
            var failure = error
            failure.diagnostics = diagnostics(for: call)
            fail(call, id: id, with: failure)
        }
    }

    /// Resumes a call taken out of the book with `error`, after its closing `error` event: every
    /// `call` event is closed by exactly one `result`, `error` or `deadlineMiss`.
    func fail(_ call: CallBook<Waiter>.Pending, id: RequestID, with error: ExtensionCallError) {
        let now = supervisor.clock.now()
        recordEnd(of: call.method, id: id, waiter: call.waiter, askedAt: call.askedAt, at: now, footprint: call.peakFootprintBytes,
                  failure: error)
        call.waiter.resume(returning: CallReply(outcome: .failure(error), peakFootprintBytes: call.peakFootprintBytes,
                                                sentAt: call.sentAt, finishedAt: now))
    }

    /// Records the event that closes call `id`: `result`, or `error` with the failure's code and
    /// sentence (the extension's own for its error responses), after its `call` event.
    func recordEnd(of method: String, id: RequestID, waiter: Waiter, askedAt: ContinuousClock.Instant, at now: ContinuousClock.Instant,
                   footprint: Int?, failure: ExtensionCallError?) {
        settleCallEvent(of: method, id: id, waiter: waiter)
        let milliseconds = (now - askedAt).milliseconds
        if let failure {
            record(.error(HostEvent.ErrorCompletion(method: method, requestID: id.logged, milliseconds: milliseconds,
                                                    footprintBytes: footprint, code: failure.code, reason: failure.message)))
        } else {
            record(.result(HostEvent.Completion(method: method, requestID: id.logged, milliseconds: milliseconds,
                                                footprintBytes: footprint)))
        }
    }

    /// The call's `call` event is in the log when this returns (recorded here if nobody did).
    func settleCallEvent(of method: String, id: RequestID, waiter: Waiter) {
        waiter.callEvent.recordCallOnce { record(.call(HostEvent.Request(method: method, requestID: id.logged))) }
    }

    /// What else the host saw during `call`.
    func diagnostics(for call: CallBook<Waiter>.Pending, termination: TerminationStatus? = nil) -> CallDiagnostics {
        CallDiagnostics(protocolViolations: call.violations, stderrTail: supervisor.stderrLines(since: call.stderrMark),
                        termination: termination, peakFootprintBytes: call.peakFootprintBytes)
    }

    func record(_ payload: HostEvent.Payload) {
        context.events.record(HostEvent(payload, bundleIdentifier: context.bundleIdentifier, pid: supervisor.pid))
    }

    /// The extension is beyond use: the connection stops it (once).
    func broken(_ reason: StopReason) {
        onBroken(reason)
    }

    static func notImplemented(_ method: String, executable: String) -> ExtensionCallError {
        ExtensionCallError(.notImplemented, code: RPCErrorCode.methodNotFound,
                           message: "\(executable) does not implement \(method) (it did not list it in initialize)")
    }

    static func terminationError(_ exit: ExtensionExit, method: String, diagnostics: CallDiagnostics) -> ExtensionCallError {
        if exit.isMemoryDeath {
            return ExtensionCallError(.memoryLimitExceeded, code: RPCErrorCode.memoryLimitExceeded,
                                      message: "\(exit.description) during \(method)", diagnostics: diagnostics)
        }
        var message = "\(exit.description) during \(method)"
        if let line = exit.telltaleStderrLine { message += "; stderr: \(line)" }
        return ExtensionCallError(.extensionTerminated, code: RPCErrorCode.extensionTerminated, message: message,
                                  diagnostics: diagnostics)
    }
}
