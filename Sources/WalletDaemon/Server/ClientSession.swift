import Foundation
import Synchronization
import WalletWire

/// One connected client, as the daemon sees it: where its lines go (its socket, or a page's
/// event stream), the requests it has in flight (cancelled when it leaves), and the requests
/// the daemon sent it (forwarded prompts), which fail at once when it leaves.
public final class ClientSession: Sendable {
    private struct State {
        var work: [RequestID: DaemonRequest] = [:]
        var waiting: [Int: CheckedContinuation<JSONValue, any Error>] = [:]
        var nextRequestID = 1
        var subscriptions: [Int] = []
        /// The client left: work and subscriptions that come later are ended at once.
        var gone = false
    }

    public let id: Int
    /// The client's process, as `SO_PEERCRED` gave it.
    public let peerPID: Int32
    /// Where the daemon's lines to this client go.
    public let outlet: any ClientOutlet
    private let state = Mutex(State())

    init(id: Int, peerPID: Int32, outlet: any ClientOutlet) {
        self.id = id
        self.peerPID = peerPID
        self.outlet = outlet
    }

    /// The client's socket; nil for a page served over HTTP.
    public var connection: ClientConnection? { outlet as? ClientConnection }

    /// Sends a notification; `droppable` ones (events) may be dropped for a slow client.
    public func notify(_ method: String, _ params: any Encodable & Sendable, droppable: Bool = false) {
        guard let line = try? DaemonServer.codec.notification(method: method, params: params) else { return }
        outlet.send(line, droppable: droppable)
    }

    /// Sends a request to the client and waits for its answer (a forwarded `ui.prompt`).
    /// - Throws: ``RPCErrorObject`` when the client answers with an error or is gone.
    public func request(_ method: String, _ params: any Encodable & Sendable) async throws -> JSONValue {
        let id = state.withLock { state -> Int in
            defer { state.nextRequestID += 1 }
            return state.nextRequestID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                state.withLock { $0.waiting[id] = continuation }
                let line = try? DaemonServer.codec.request(id: .number(id), method: method, params: params)
                if line.map({ outlet.send($0, droppable: false) }) != true {
                    state.withLock { $0.waiting.removeValue(forKey: id) }?
                        .resume(throwing: RPCErrorObject(code: RPCErrorCode.serviceFailed, message: "the client that started the flow is gone"))
                }
            }
        } onCancel: {
            state.withLock { $0.waiting.removeValue(forKey: id) }?
                .resume(throwing: RPCErrorObject(code: RPCErrorCode.requestCancelled, message: "the flow was cancelled"))
        }
    }

    /// A response from the client to one of the daemon's requests.
    func answer(_ message: WireMessage) {
        switch message {
        case .response(.number(let id), let line):
            guard let continuation = state.withLock({ $0.waiting.removeValue(forKey: id) }) else { return }
            do {
                continuation.resume(returning: try DaemonServer.codec.result(JSONValue.self, from: line))
            } catch {
                continuation.resume(throwing: RPCErrorObject(code: RPCErrorCode.invalidRequest,
                                                             message: "an answer the daemon cannot read: \(error.reason)"))
            }
        case .errorResponse(.number(let id)?, let error):
            state.withLock { $0.waiting.removeValue(forKey: id) }?.resume(throwing: error)
        default:
            return
        }
    }

    /// Tracks a request so that `$/cancelRequest` and the client's leaving cancel it.
    func track(_ id: RequestID, _ request: DaemonRequest) {
        let cancel = state.withLock { state -> Bool in
            if state.gone { return true }
            state.work[id] = request
            return false
        }
        if cancel { request.cancel() }
    }

    /// `$/cancelRequest` from the client: cancel that request, if it is in flight.
    func cancel(_ id: RequestID) {
        state.withLock { $0.work[id] }?.cancel()
    }

    func finished(_ id: RequestID) {
        state.withLock { state in
            _ = state.work.removeValue(forKey: id)
        }
    }

    /// - Returns: false when the client has left (the caller removes the subscription again).
    func addSubscription(_ id: Int) -> Bool {
        state.withLock { state in
            guard !state.gone else { return false }
            state.subscriptions.append(id)
            return true
        }
    }

    func removeSubscription(_ id: Int) -> Bool {
        state.withLock { state in
            guard let index = state.subscriptions.firstIndex(of: id) else { return false }
            state.subscriptions.remove(at: index)
            return true
        }
    }

    /// The client left: cancel its work, fail the daemon's requests to it.
    /// - Returns: its subscriptions, to remove from the hub.
    func disconnected() -> [Int] {
        let (work, waiting, subscriptions) = state.withLock { state in
            state.gone = true
            defer {
                state.work.removeAll()
                state.waiting.removeAll()
                state.subscriptions.removeAll()
            }
            return (Array(state.work.values), Array(state.waiting.values), state.subscriptions)
        }
        for request in work { request.cancel() }
        for continuation in waiting {
            continuation.resume(throwing: RPCErrorObject(code: RPCErrorCode.serviceFailed, message: "the client that started the flow is gone"))
        }
        return subscriptions
    }

    /// Requests of this client in flight.
    public var requestsInFlight: Int { state.withLock { $0.work.count } }
}
