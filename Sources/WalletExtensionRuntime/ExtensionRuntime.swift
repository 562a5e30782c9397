import FoundationEssentials
import Synchronization
import WalletWire

/// The extension side of the wire protocol: handshake, call dispatch, cancellation,
/// shutdown, and the routing of host responses to the extension's own service requests.
///
/// The reader feeds it one line at a time and is never held up by a handler for more than a
/// grace period or two (``ReaderStandby``): every call runs with a fresh principal instance,
/// on a thread no other call uses while it runs, and answers through a single-shot
/// ``RequestResponder``.
package final class ExtensionRuntime: Sendable {
    private enum Phase {
        case awaitingInitialize
        /// Serving calls with the principal class's routes, built once at `initialize`.
        case running(ServedPrincipal)
        case shuttingDown
    }

    private struct State {
        var phase = Phase.awaitingInitialize
        var callsInFlight: [RequestID: RequestResponder] = [:]
    }

    /// The runtime of this process, once `WalletExtension.main` has
    /// started it; host services and the testing SPI reach the host through it.
    package static let current = Mutex<ExtensionRuntime?>(nil)

    package let writer: WireWriter
    package let hostCalls = HostCallTable()
    /// False only for misbehaviour tests: `exit` and end of input are ignored. Process-wide,
    /// so that a test extension can set it before the runtime starts.
    package static let exitsWhenHostAsks = Atomic<Bool>(true)

    private let state = Mutex(State())
    private let decoder = Mutex(WireCodec())
    private let resolver: any PrincipalResolving
    private let terminate: @Sendable (Int32) -> Void
    private let startThread: @Sendable (String, @escaping @Sendable () -> Void) -> Bool
    private let beforeBlocking: @Sendable () -> Void

    /// - Parameters:
    ///   - output: Where protocol lines go (fd 4).
    ///   - resolver: Finds the principal class named in `initialize`.
    ///   - terminate: Ends the process (`exit`); tests record the status instead.
    ///   - startThread: Runs a call off the reader thread; tests may run it inline.
    ///   - beforeBlocking: Called on a handler's thread before it waits for the host, so that the
    ///     reader role can leave that thread (see ``HostInputReader``).
    package init(output: any WireOutput, resolver: any PrincipalResolving,
                 terminate: @escaping @Sendable (Int32) -> Void,
                 startThread: @escaping @Sendable (String, @escaping @Sendable () -> Void) -> Bool,
                 beforeBlocking: @escaping @Sendable () -> Void = {}) {
        self.resolver = resolver
        self.terminate = terminate
        self.startThread = startThread
        self.beforeBlocking = beforeBlocking
        writer = WireWriter(output: output)
    }

    /// The calling thread is about to wait for an answer only the reader can deliver.
    package func threadWillBlockWaitingForHost() {
        beforeBlocking()
    }

    // MARK: Input

    /// Handles one line from fd 3 (without its newline).
    package func receive(line: Data) {
        // The host writes plain lines (`{"id":7,"jsonrpc":"2.0","method":"status","params":{}}`);
        // reading them by hand spares a JSONDecoder pass, a third of a warm call's own cost.
        if let plain = WireCodec().decodePlain(line) {
            receive(plain.message, hasEmptyParams: plain.hasEmptyParams)
            return
        }
        let message: WireMessage
        do {
            message = try decoder.withLock { codec throws(WireDecodingError) in try codec.decodeWithJSONDecoder(line) }
        } catch {
            Diagnostics.log("unreadable line from the host: \(error.reason)")
            writer.sendError(id: error.id, RPCErrorObject(code: error.code, message: error.reason))
            return
        }
        receive(message, hasEmptyParams: false)
    }

    /// Handles one classified message; `hasEmptyParams` is true only when its `params` are
    /// known to be absent, `null` or `{}`.
    private func receive(_ message: WireMessage, hasEmptyParams: Bool) {
        switch message {
        case .request(let id, let method, let line):
            receiveRequest(id: id, method: method, line: line, hasEmptyParams: hasEmptyParams)
        case .notification(let method, let line):
            receiveNotification(method: method, line: line)
        case .response(let id, let line):
            if !hostCalls.resolve(id, with: .success(line)) {
                Diagnostics.log("response to \(id), which is not a pending service request; ignored")
            }
        case .errorResponse(let id?, let error):
            if !hostCalls.resolve(id, with: .failure(error)) {
                Diagnostics.log("error response to \(id), which is not a pending service request: \(error)")
            }
        case .errorResponse(nil, let error):
            Diagnostics.log("the host could not read one of our lines: \(error)")
        }
    }

    /// A line from the host passed the 16 MiB limit; the framer has dropped it.
    package func receiveOversizedLine(byteCount: Int) {
        let message = "a line from the host exceeded \(WireProtocol.maximumLineBytes) bytes (\(byteCount) seen); dropped"
        Diagnostics.log(message)
        writer.sendError(id: nil, RPCErrorObject(code: RPCErrorCode.lineTooLong, message: message))
    }

    /// fd 3 reached end of file: the host has gone or closed the connection.
    package func receiveEndOfInput() {
        if Self.exitsWhenHostAsks.load(ordering: .relaxed) {
            terminate(0)
        } else {
            Diagnostics.log("end of input on fd 3; staying up (testing: exit disabled)")
        }
    }

    // MARK: Requests

    private func receiveRequest(id: RequestID, method: String, line: Data, hasEmptyParams: Bool) {
        if method == WireMethods.initialize.name {
            initialize(id: id, line: line)
            return
        }
        let phase = state.withLock { $0.phase }
        let principal: ServedPrincipal
        switch phase {
        case .awaitingInitialize:
            writer.sendError(id: id, RPCErrorObject(code: RPCErrorCode.notInitialized,
                                                    message: "\(method) arrived before initialize"))
            return
        case .shuttingDown:
            writer.sendError(id: id, RPCErrorObject(code: RPCErrorCode.invalidRequest,
                                                    message: "\(method) arrived after shutdown; no new calls are taken"))
            return
        case .running(let runningPrincipal):
            principal = runningPrincipal
        }
        if method == WireMethods.shutdown.name {
            state.withLock { $0.phase = .shuttingDown }
            writer.sendResponse(id: id, result: NullResult())
            return
        }
        guard let route = principal.routes[method] else {
            writer.sendError(id: id, RPCErrorObject(code: RPCErrorCode.methodNotFound,
                                                    message: Self.notFound(method, principal: principal)))
            return
        }
        let work: @Sendable (RequestResponder) -> Void
        do {
            work = try route.work(for: line, hasEmptyParams: hasEmptyParams)
        } catch {
            writer.sendError(id: id, RPCErrorObject(code: error.code, message: "\(method): \(error.reason)"))
            return
        }
        startCall(id: id, method: method, work: work)
    }

    /// Why `method` has no route, for the -32601 answer.
    private static func notFound(_ method: String, principal: ServedPrincipal) -> String {
        guard let known = WireMethods.named(method) else {
            return "\(method) is not a method of wire protocol version \(WireProtocol.version)"
        }
        let point = known.role.extensionPoint.map { " (a call of \($0))" } ?? ""
        return "\(method) is not implemented by \(principal.name)\(point)"
    }

    private func startCall(id: RequestID, method: String, work: @escaping @Sendable (RequestResponder) -> Void) {
        let responder = RequestResponder(id: id, method: method, channel: self)
        let registered = state.withLock { state in
            guard state.callsInFlight[id] == nil else { return false }
            state.callsInFlight[id] = responder
            return true
        }
        guard registered else {
            writer.sendError(id: id, RPCErrorObject(code: RPCErrorCode.invalidRequest,
                                                    message: "request id \(id) is already in flight"))
            return
        }
        let started = startThread(method) { work(responder) }
        if !started {
            responder.complete(.failure(RPCErrorObject(code: RPCErrorCode.internalError,
                                                       message: "could not start a thread for \(method)")))
        }
    }

    private func initialize(id: RequestID, line: Data) {
        let params: InitializeParams
        do {
            params = try WireMethods.initialize.decodeParams(fromRequest: line)
        } catch {
            writer.sendError(id: id, RPCErrorObject(code: error.code, message: error.reason))
            return
        }
        guard case .awaitingInitialize = state.withLock({ $0.phase }) else {
            writer.sendError(id: id, RPCErrorObject(code: RPCErrorCode.invalidRequest, message: "initialize was already received"))
            return
        }
        guard params.protocolVersion == WireProtocol.version else {
            writer.sendError(id: id, RPCErrorObject(
                code: RPCErrorCode.unsupportedProtocolVersion,
                message: "unsupported protocol version \(params.protocolVersion)",
                data: .object(["supported": .array([.integer(WireProtocol.version)])])))
            return
        }
        let principal: ServedPrincipal
        do {
            principal = try resolver.resolve(params.principalClass)
        } catch {
            Diagnostics.log(error.message)
            writer.sendError(id: id, error)
            return
        }
        AppGroupContainers.useContainersFromHost(params.appGroups)
        state.withLock { $0.phase = .running(principal) }
        writer.sendResponse(id: id, result: InitializeResult(
            methods: principal.methods,
            runtime: InitializeResult.Runtime(name: RuntimeIdentity.name, version: RuntimeIdentity.version)))
    }

    // MARK: Notifications

    private func receiveNotification(method: String, line: Data) {
        switch method {
        case WireMethod.exit:
            if Self.exitsWhenHostAsks.load(ordering: .relaxed) {
                terminate(0)
            } else {
                Diagnostics.log("exit notification ignored (testing: exit disabled)")
            }
        case WireMethod.cancelRequest:
            guard let params = try? params(CancelRequestParams.self, from: line) else {
                Diagnostics.log("$/cancelRequest without a readable id; ignored")
                return
            }
            // Unknown or already answered ids are ignored, as the protocol says.
            state.withLock { $0.callsInFlight[params.id] }?.cancel()
        default:
            break
        }
    }

    private func params<Params: Decodable & Sendable>(_ type: Params.Type, from line: Data) throws(WireDecodingError) -> Params {
        try decoder.withLock { codec throws(WireDecodingError) in try codec.params(type, from: line) }
    }
}

extension ExtensionRuntime: ResponseChannel {
    package func deliver(id: RequestID, outcome: CallOutcome) {
        switch outcome {
        case .result(let result):
            writer.sendResponse(id: id, result: result)
        case .failure(let error):
            writer.sendError(id: id, error)
        }
    }

    package func requestFinished(id: RequestID) {
        state.withLock { _ = $0.callsInFlight.removeValue(forKey: id) }
    }
}
