import Foundation
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// The session as the supervisor's delegate: frames from fd 4, timers, footprint samples, exit.
/// All of it runs on the process's I/O thread. Nothing an extension sends can crash the host:
/// every unusable line is logged, counted against a budget, and noted on the calls in flight.
extension RPCSession {
    func supervisor(_ supervisor: ProcessSupervisor, received frame: LineFramer.Frame) {
        switch frame {
        case .oversized(let byteCount):
            let violation = ProtocolViolation(
                .lineTooLong, detail: "a line of \(byteCount) bytes, over the \(WireProtocol.maximumLineBytes)-byte limit")
            violated(violation)
            // Most likely the response to a call in flight: fail it now rather than at its deadline.
            failAll(.protocolViolation("\(processName) sent \(violation.detail)"))
        case .line(let line):
            // Read once: a plain line's result range goes with the reply, for the caller's decoding.
            let plain = codec.decodePlain(line)
            let message: WireMessage
            if let plain {
                message = plain.message
            } else {
                do {
                    message = try codec.decodeWithJSONDecoder(line)
                } catch {
                    malformed(line, error: error)
                    return
                }
            }
            switch message {
            case .response(let id, let line):
                resolve(id, outcome: .success(line), resultRange: plain?.resultRange)
            case .errorResponse(let id?, let error):
                resolve(id, outcome: .failure(ExtensionCallError(.extensionError, code: error.code, message: error.message,
                                                                 data: error.data)),
                        wireError: error)
            case .errorResponse(nil, let error):
                violated(ProtocolViolation(.errorWithoutID, detail: "error response without an id: \(error.description)"))
            case .request(let id, let method, let line):
                serve(id: id, method: method, line: line)
            case .notification(let method, let line):
                if method == WireMethod.log, let log = try? codec.params(LogParams.self, from: line) {
                    supervisor.recordOutput(log.message.escapedForLogLine(limit: Self.logLineLimit),
                                            stream: "log.\(Self.logLevelName(log.level))")
                } else {
                    violated(ProtocolViolation(.unknownNotification, detail: "unknown notification",
                                               excerpt: ProtocolViolation.excerpt(Data(method.utf8))))
                }
            }
        }
    }

    /// A line that is not a usable JSON-RPC message. A request gets an error response; a
    /// response never does (an answer to an answer could be taken as a call's result), and if
    /// its id names a call in flight, that call fails now instead of at its deadline.
    private func malformed(_ line: Data, error: WireDecodingError) {
        let envelope = EnvelopeScanner.scan(line)
        let id = error.id ?? envelope.id
        let reason: ProtocolViolation.Reason
        if error.code == RPCErrorCode.parseError {
            reason = String(validating: line, as: UTF8.self) == nil ? .notUTF8 : envelope.complete ? .wrongShape : .notJSON
        } else {
            reason = .wrongShape
        }
        let violation = ProtocolViolation(reason, detail: Self.plainDetail(error.reason),
                                          excerpt: ProtocolViolation.excerpt(line), requestID: id?.logged)
        let isResponse = envelope.id != nil && !envelope.hasMethod
        if isResponse, let id, let call = state.withLock({ $0.book.take(id) }) {
            violated(violation)
            var diagnostics = diagnostics(for: call)
            diagnostics.protocolViolations.append(violation)
            let failure = ExtensionCallError(.invalidResponse, code: RPCErrorCode.protocolViolation,
                                             message: "\(processName) answered \(call.method) with an unusable response: \(violation.detail)",
                                             diagnostics: diagnostics)
            finish(call, id: id, outcome: .failure(failure))
            return
        }
        violated(violation)
        guard !isResponse else { return }
        let answerID = envelope.hasMethod ? id : nil
        respond { codec in
            try codec.errorResponse(id: answerID, error: RPCErrorObject(code: error.code, message: violation.description))
        }
    }

    /// The longest `$/log` message logged whole, in bytes (stdout and stderr lines have the same cap).
    static let logLineLimit = 64 * 1024

    /// A `$/log` level as the log's stream name shows it: the level when it is a plain word,
    /// else `other` (the level is the extension's text, and the stream name is not escaped).
    static func logLevelName(_ level: String) -> String {
        level.count <= 16 && !level.isEmpty && level.allSatisfy({ $0.isLetter }) ? level : "other"
    }

    /// The decoder's reason without Foundation's own sentence repeating it
    /// ("not valid JSON: The given data was not valid JSON." is "not valid JSON").
    static func plainDetail(_ reason: String) -> String {
        var detail = reason
        for redundant in [": The given data was not valid JSON.", ": The data couldn’t be read because it isn’t in the correct format."]
            where detail.hasSuffix(redundant) {
            detail.removeLast(redundant.count)
        }
        while detail.hasSuffix(".") { detail.removeLast() }
        return detail
    }

    /// Logs a violation, notes it on the calls in flight, and counts it. Past the budget the
    /// extension is beyond repair: its calls fail naming the last violation, and it is stopped.
    func violated(_ violation: ProtocolViolation) {
        record(.protocolError(HostEvent.ProtocolError(violation: violation)))
        countViolation(violation.description, noting: violation)
    }

    private func countViolation(_ description: String, noting violation: ProtocolViolation? = nil) {
        let count = state.withLock { state -> Int in
            if let violation { state.book.noteViolation(violation) }
            state.violations += 1
            return state.violations
        }
        guard count == context.violationBudget else { return }
        let reason = StopReason.beyondRepair(violations: count, last: description)
        failAll(.protocolViolation("\(processName) \(reason)"))
        broken(reason)
    }

    /// Matches a response to its call: a live call resolves; anything else is logged.
    private func resolve(_ id: RequestID, outcome: Result<Data, ExtensionCallError>, resultRange: Range<Int>? = nil,
                         wireError: RPCErrorObject? = nil) {
        let acknowledgement = wireError?.code == RPCErrorCode.requestCancelled
        let resolution = state.withLock { $0.book.resolve(id, cancelAcknowledgement: acknowledgement) }
        switch resolution {
        case .live(let call):
            finish(call, id: id, outcome: outcome, resultRange: resultRange)
        case .late(let expired, let acknowledged):
            let late = HostEvent.LateCompletion(method: expired.method, requestID: id.logged,
                                                milliseconds: (supervisor.clock.now() - expired.askedAt).milliseconds,
                                                deadlineMilliseconds: (expired.deadline - expired.askedAt).milliseconds)
            record(acknowledged ? .cancelAcknowledged(late) : .lateCompletion(late))
        case .double:
            record(.doubleCompletion(HostEvent.Response(requestID: id.logged)))
            countViolation("a second response to request \(id.logged) was dropped")
        case .unknown:
            record(.unknownResponse(HostEvent.Response(requestID: id.logged)))
            countViolation("a response to request \(id.logged), which the host never sent, was dropped")
        }
    }

    /// Resumes a call's waiter with its outcome, after one last footprint sample (so even a
    /// call shorter than the sampling interval has a peak), then records its `result` or
    /// `error` event: the caller does not wait for the log.
    private func finish(_ call: CallBook<Waiter>.Pending, id: RequestID, outcome: Result<Data, ExtensionCallError>,
                        resultRange: Range<Int>? = nil) {
        let now = supervisor.clock.now()
        let peak = [call.peakFootprintBytes, supervisor.sampleFootprintNow()].compactMap { $0 }.max()
        var initialize: Result<InitializeResult, any Error>?
        if call.waiter.opensGate, case .success(let line) = outcome {
            initialize = Result { try codec.result(InitializeResult.self, from: line, at: resultRange) }
            if case .success(let answer) = initialize, answer.protocolVersion == WireProtocol.version {
                state.withLock { $0.handshakeCompletedAt = now }
                handshakeDone.store(true, ordering: .releasing)
                openGate(implemented: answer.methods)
            }
        }
        call.waiter.resume(returning: CallReply(outcome: outcome, resultRange: resultRange, peakFootprintBytes: peak, sentAt: call.sentAt,
                                                finishedAt: now, initialize: initialize))
        let failure: ExtensionCallError? = if case .failure(let failure) = outcome { failure } else { nil }
        recordEnd(of: call.method, id: id, waiter: call.waiter, askedAt: call.askedAt, at: now, footprint: peak, failure: failure)
    }

    /// fd 4 ended. Usually the first sign of an exit (the pidfd follows within milliseconds and
    /// gives the better report); a process still running after a grace closed it on purpose.
    func supervisorResponseChannelClosed(_ supervisor: ProcessSupervisor, partialLineBytes: Int) {
        if partialLineBytes > 0 {
            violated(ProtocolViolation(.partialLine,
                                       detail: "fd 4 ended in the middle of a line (\(partialLineBytes) bytes without a newline)"))
        }
        guard case .running = supervisor.phase else { return }
        let grace = context.closedChannelGrace
        Task {
            try? await Task.sleep(for: grace)
            guard case .running = self.supervisor.phase else { return }
            self.failAll(.protocolViolation("\(self.processName) \(StopReason.closedResponseChannel)"))
            self.broken(.closedResponseChannel)
        }
    }

    // MARK: Timers

    func supervisorTimerPlan(_ supervisor: ProcessSupervisor) -> (wakeAt: ContinuousClock.Instant?, callsInFlight: Bool) {
        state.withLock { ($0.book.nextTimer, $0.book.hasCallsInFlight) }
    }

    func supervisorAwaitsAnswers(_ supervisor: ProcessSupervisor) -> Bool {
        state.withLock { $0.book.hasCallsAwaitingAnswer }
    }

    func supervisorTimersDue(_ supervisor: ProcessSupervisor, now: ContinuousClock.Instant) {
        let expiry = state.withLock { state -> CallBook<Waiter>.Expiry in
            let expiry = state.book.expire(now: now, hangGrace: context.hangGrace)
            let cancels = Set(expiry.cancels)
            // A request booked but not yet written gets its cancel from its writer, after it.
            for (id, call) in expiry.missed where cancels.contains(id) && call.waiter.callEvent.deadlineExpired() {
                if let line = try? codec.notification(method: WireMethod.cancelRequest, params: CancelRequestParams(id: id)) {
                    supervisor.write(line)
                }
            }
            return expiry
        }
        for (id, call) in expiry.missed {
            let deadline = call.deadline ?? now
            settleCallEvent(of: call.method, id: id, waiter: call.waiter)
            record(.deadlineMiss(HostEvent.DeadlineMiss(method: call.method, requestID: id.logged,
                                                        milliseconds: (now - call.askedAt).milliseconds,
                                                        deadlineMilliseconds: (deadline - call.askedAt).milliseconds,
                                                        sent: call.sentAt != nil)))
            let error = deadlineError(call, now: now)
            call.waiter.resume(returning: CallReply(outcome: .failure(error), peakFootprintBytes: call.peakFootprintBytes,
                                                    sentAt: call.sentAt, finishedAt: now))
        }
        if let (id, call) = expiry.hung.first {
            let silence = (now - call.deadline).milliseconds
            record(.hung(HostEvent.Hung(method: call.method, requestID: id.logged, silenceMilliseconds: silence)))
            broken(.hung(method: call.method, requestID: id.logged, silenceMilliseconds: silence))
        }
    }

    private func deadlineError(_ call: CallBook<Waiter>.Pending, now: ContinuousClock.Instant) -> ExtensionCallError {
        let allowed = ((call.deadline ?? now) - call.askedAt).milliseconds
        let elapsed = (now - call.askedAt).milliseconds
        var message = "\(call.method) did not complete within its \(HumanReadable.milliseconds(allowed)) deadline "
        if let sentAt = call.sentAt {
            let launch = (sentAt - call.askedAt).milliseconds
            message += "(no answer \(HumanReadable.milliseconds(elapsed)) after the ask, over by \(HumanReadable.milliseconds(elapsed - allowed))"
            message += launch >= 1 ? "; launch and handshake took \(HumanReadable.milliseconds(launch)))" : ")"
        } else {
            message += "(launch and handshake alone took more than \(HumanReadable.milliseconds(elapsed)))"
        }
        if let consequence = context.point.method(named: call.method)?.consequence {
            message += ": \(consequence.summary)"
        }
        if let first = call.violations.first {
            message += "; instead of an answer it wrote on fd 4: \(first)"
        }
        return ExtensionCallError(.deadlineExceeded, code: RPCErrorCode.deadlineExceeded, message: message,
                                  diagnostics: diagnostics(for: call))
    }

    func supervisor(_ supervisor: ProcessSupervisor, sampledFootprint bytes: Int) {
        state.withLock { $0.book.recordFootprint(bytes) }
    }

    // MARK: Exit

    func supervisor(_ supervisor: ProcessSupervisor, processExited exit: ExtensionExit) {
        let calls = state.withLock { $0.book.takeAll() }
        for (id, call) in calls {
            fail(call, id: id, with: Self.terminationError(exit, method: call.method,
                                                           diagnostics: diagnostics(for: call, termination: exit.status)))
        }
    }

    // MARK: Host services

    private func serve(id: RequestID, method: String, line: Data) {
        record(.service(HostEvent.Request(method: method.cappedForLog(), requestID: id.logged)))
        guard let services = context.services else {
            respond { codec in
                try codec.errorResponse(id: id, error: RPCErrorObject(code: RPCErrorCode.methodNotFound,
                                                                      message: "the host offers no service \(method.cappedForLog())"))
            }
            return
        }
        let request = ServiceRequest(method: method, line: line, extensionPoint: context.point.identifier, role: context.point.role,
                                     bundleIdentifier: context.bundleIdentifier,
                                     containingAppBundleIdentifier: context.containingAppBundleIdentifier,
                                     keychainAccessGroups: context.keychainAccessGroups, team: context.team)
        Task {
            do {
                let result = try await services.respond(to: request)
                respond { codec in try codec.response(id: id, result: result) }
            } catch let error as RPCErrorObject {
                respond { codec in try codec.errorResponse(id: id, error: error) }
            } catch {
                respond { codec in
                    try codec.errorResponse(id: id, error: RPCErrorObject(code: RPCErrorCode.serviceFailed,
                                                                          message: "\(method) failed: \(error)"))
                }
            }
        }
    }

    /// Encodes a response to the extension's request and writes it, unless the process is gone.
    private func respond(_ encode: (WireCodec) throws -> Data) {
        guard let line = try? encode(codec) else { return }
        supervisor.write(line)
    }
}
