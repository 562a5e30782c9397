import Foundation
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

extension ExtensionConnection {
    /// Handles one frame from fd 4. Nothing an extension sends can crash the host: every
    /// malformed line is logged, answered with an error, and counted against a budget.
    func handle(_ frame: LineFramer.Frame, loop: inout LoopState) {
        switch frame {
        case .oversized(let byteCount):
            let reason = "a line of \(byteCount) bytes exceeds the \(WireProtocol.maximumLineBytes)-byte limit"
            malformed(reason, code: RPCErrorCode.lineTooLong, id: nil, loop: &loop)
            // Most likely the response to a call in flight: fail it now rather than at its deadline.
            failAllPending(ExtensionCallError.protocolViolation("\(context.executableName)[\(child.pid)] sent \(reason)"))
        case .line(let line):
            let message: WireMessage
            do {
                message = try loop.codec.decode(line)
            } catch {
                malformed("\(error.reason): \(Self.preview(line))", code: error.code, id: error.id, loop: &loop)
                return
            }
            switch message {
            case .response(let id, let line):
                if let violation = resolve(id: id, outcome: .success(line)) { countViolation(violation, loop: &loop) }
            case .errorResponse(let id?, let error):
                let outcome = ExtensionCallError(.extensionError, code: error.code, message: error.message, data: error.data)
                if let violation = resolve(id: id, outcome: .failure(outcome), wireError: error) {
                    countViolation(violation, loop: &loop)
                }
            case .errorResponse(nil, let error):
                let reason = "error response without an id: \(error.description)"
                context.events.record(HostEvent(kind: "protocolError", bundleIdentifier: context.bundleIdentifier,
                                                pid: child.pid, message: reason))
                countViolation(reason, loop: &loop)
            case .request(let id, let method, let line):
                serve(id: id, method: method, line: line)
            case .notification(let method, let line):
                if method == WireMethod.log, let log = try? loop.codec.params(LogParams.self, from: line) {
                    recordOutput(log.message, stream: "log.\(log.level)", loop: &loop)
                } else {
                    let reason = "unknown notification \(Self.preview(Data(method.utf8)))"
                    context.events.record(HostEvent(kind: "protocolError", bundleIdentifier: context.bundleIdentifier,
                                                    pid: child.pid, method: method, message: reason))
                    countViolation(reason, loop: &loop)
                }
            }
        }
    }

    private func malformed(_ reason: String, code: Int, id: RequestID?, loop: inout LoopState) {
        context.events.record(HostEvent(kind: "protocolError", bundleIdentifier: context.bundleIdentifier, pid: child.pid,
                                        requestID: id?.description, message: reason))
        send { codec in try codec.errorResponse(id: id, error: RPCErrorObject(code: code, message: reason)) }
        countViolation(reason, loop: &loop)
    }

    /// Counts one protocol violation (a malformed line, a response to nothing, a repeated
    /// response, an unknown notification). Past the budget the extension is beyond repair:
    /// its calls fail naming the last violation, and it is stopped (the next call relaunches).
    private func countViolation(_ reason: String, loop: inout LoopState) {
        loop.malformedLines += 1
        guard loop.malformedLines == malformedLineBudget else { return }
        let verdict = "beyond repair: \(malformedLineBudget) protocol violations on fd 4; the last: \(reason)"
        failAllPending(ExtensionCallError.protocolViolation("\(context.executableName)[\(child.pid)] \(verdict)"))
        Task { _ = await self.stop(reason: verdict, grace: .milliseconds(100)) }
    }

    /// Matches a response to its request: a live call resolves; anything else is logged.
    /// - Returns: a description of the violation when the response answered nothing live or late.
    private func resolve(id: RequestID, outcome: Result<Data, ExtensionCallError>,
                         wireError: RPCErrorObject? = nil) -> String? {
        enum Match {
            case live(PendingCall)
            case late(ExpiredCall)
            case double
            case unknown
        }
        let match: Match = state.withLock { state in
            if let call = state.pending.removeValue(forKey: id) {
                state.recentlyCompleted.insert(id)
                return .live(call)
            }
            if var expired = state.expired[id] {
                if wireError?.code == RPCErrorCode.requestCancelled, !expired.acknowledged {
                    // Keep waiting for a result, but the extension is alive: not hung.
                    expired.acknowledged = true
                    state.expired[id] = expired
                } else {
                    state.expired[id] = nil
                    state.recentlyCompleted.insert(id)
                }
                return .late(expired)
            }
            return state.recentlyCompleted.contains(id) ? .double : .unknown
        }
        let now = ContinuousClock.now
        switch match {
        case .live(let call):
            // One last sample, so even a call shorter than the sampling interval has a peak.
            let footprint = self.footprint.sample()
            let peak = [call.peakFootprintBytes, footprint].compactMap { $0 }.max()
            let elapsed = (now - call.askedAt).milliseconds
            context.events.record(HostEvent(kind: wireError == nil ? "result" : "error", bundleIdentifier: context.bundleIdentifier,
                                            pid: child.pid, method: call.method, requestID: id.description,
                                            milliseconds: elapsed, footprintBytes: peak, message: wireError?.description))
            call.continuation.resume(returning: CallReply(outcome: outcome, peakFootprintBytes: peak, sentAt: call.sentAt,
                                                          finishedAt: now))
        case .late(let expired):
            let elapsed = (now - expired.askedAt).milliseconds
            let allowed = (expired.deadline - expired.askedAt).milliseconds
            let acknowledged = wireError?.code == RPCErrorCode.requestCancelled
            let message = acknowledged
                ? "\(expired.method) acknowledged the cancellation \(HumanReadable.milliseconds(elapsed)) after the ask"
                : "\(expired.method) completed \(HumanReadable.milliseconds(elapsed)) after the ask, \(HumanReadable.milliseconds(elapsed - allowed)) past its \(HumanReadable.milliseconds(allowed)) deadline; dropped"
            context.events.record(HostEvent(kind: acknowledged ? "cancelAcknowledged" : "lateCompletion",
                                            bundleIdentifier: context.bundleIdentifier, pid: child.pid, method: expired.method,
                                            requestID: id.description, milliseconds: elapsed, message: message))
        case .double:
            let message = "a second response to request \(id) was dropped"
            context.events.record(HostEvent(kind: "doubleCompletion", bundleIdentifier: context.bundleIdentifier, pid: child.pid,
                                            requestID: id.description, message: message))
            return message
        case .unknown:
            let message = "a response to request \(id), which the host never sent, was dropped"
            context.events.record(HostEvent(kind: "unknownResponse", bundleIdentifier: context.bundleIdentifier, pid: child.pid,
                                            requestID: id.description, message: message))
            return message
        }
        return nil
    }

    /// The extension closed fd 4 while running: nothing it does can answer a call any more.
    func responseChannelClosed(loop: inout LoopState) {
        let partial = loop.rpcFramer.finish()
        if partial > 0 {
            context.events.record(HostEvent(kind: "protocolError", bundleIdentifier: context.bundleIdentifier, pid: child.pid,
                                            message: "fd 4 ended in the middle of a line (\(partial) bytes without a newline)"))
        }
        // Closing fd 4 is usually the first sign of an exit; the pidfd follows within
        // milliseconds and gives the better report (signal, memory). Only a process that is
        // still running a moment later closed it on purpose.
        guard !state.withLock({ $0.stopping }) else { return }
        Task {
            try? await Task.sleep(for: .milliseconds(100))
            guard !self.hasExited, !self.state.withLock({ $0.stopping }) else { return }
            let reason = "closed fd 4 while still running"
            self.failAllPending(ExtensionCallError.protocolViolation("\(self.context.executableName)[\(self.child.pid)] \(reason)"))
            _ = await self.stop(reason: reason, grace: .milliseconds(100))
        }
    }

    func failAllPending(_ error: ExtensionCallError) {
        let calls = state.withLock { state -> [PendingCall] in
            defer { state.pending.removeAll() }
            return Array(state.pending.values)
        }
        let now = ContinuousClock.now
        for call in calls {
            call.continuation.resume(returning: CallReply(outcome: .failure(error), peakFootprintBytes: call.peakFootprintBytes,
                                                          sentAt: call.sentAt, finishedAt: now))
        }
    }

    // MARK: Host services

    private func serve(id: RequestID, method: String, line: Data) {
        context.events.record(HostEvent(kind: "service", bundleIdentifier: context.bundleIdentifier, pid: child.pid,
                                        method: method, requestID: id.description))
        guard let services = context.services else {
            send { codec in
                try codec.errorResponse(id: id, error: RPCErrorObject(code: RPCErrorCode.methodNotFound,
                                                                      message: "the host offers no service \(method)"))
            }
            return
        }
        let request = ServiceRequest(method: method, line: line, extensionPoint: context.extensionPoint, role: context.role,
                                     bundleIdentifier: context.bundleIdentifier)
        Task {
            do {
                let result = try await services.respond(to: request)
                send { codec in try codec.response(id: id, result: result) }
            } catch let error as RPCErrorObject {
                send { codec in try codec.errorResponse(id: id, error: error) }
            } catch {
                send { codec in
                    try codec.errorResponse(id: id, error: RPCErrorObject(code: RPCErrorCode.serviceFailed,
                                                                          message: "\(method) failed: \(error)"))
                }
            }
        }
    }

    /// Encodes with the shared codec and writes, unless the process is gone.
    func send(_ encode: (WireCodec) throws -> Data) {
        state.withLock { state in
            guard state.exit == nil, let line = try? encode(state.codec) else { return }
            writeLocked(line, state: &state)
        }
        wake()
    }

    static func preview(_ line: Data) -> String {
        let prefix = line.prefix(80)
        let text = String(decoding: prefix, as: UTF8.self).replacingOccurrences(of: "\u{FFFD}", with: "?")
        return line.count > 80 ? "\(text)... (\(line.count) bytes)" : text
    }

    // MARK: Stop sequence

    /// Stops the process: `shutdown` request, `exit` notification, grace, SIGTERM to the group,
    /// grace, SIGKILL to the group. Returns how it ended.
    func stop(reason: String, grace: Duration) async -> ExtensionExit? {
        if let exit = state.withLock({ $0.exit }) { return exit }
        noteHostStop(reason: reason)
        context.events.record(HostEvent(kind: "stop", bundleIdentifier: context.bundleIdentifier, pid: child.pid, message: reason))
        let alreadyStopping = state.withLock { state -> Bool in
            defer { state.stopping = true }
            return state.stopping && state.exitSent
        }
        if !alreadyStopping {
            _ = await call(method: WireMethod.shutdown, params: NoParams(), askedAt: .now, deadline: .now + grace, gated: false)
            state.withLock { $0.exitSent = true }
            send { codec in try codec.notification(method: WireMethod.exit, params: NoParams()) }
        }
        if let exit = await waitForExit(timeout: grace) { return exit }
        context.events.record(HostEvent(kind: "kill", bundleIdentifier: context.bundleIdentifier, pid: child.pid,
                                        message: "SIGTERM to process group \(child.pid)"))
        child.signalGroup(SIGTERM)
        if let exit = await waitForExit(timeout: grace) { return exit }
        context.events.record(HostEvent(kind: "kill", bundleIdentifier: context.bundleIdentifier, pid: child.pid,
                                        message: "SIGKILL to process group \(child.pid)"))
        child.signalGroup(SIGKILL)
        return await waitForExit(timeout: .seconds(10))
    }
}
