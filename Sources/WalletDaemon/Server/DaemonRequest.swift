import Foundation
import Synchronization
import WalletWire

/// One request of a client in flight: answered exactly once, by its method or by the client's
/// `$/cancelRequest` (or its leaving), whichever comes first.
///
/// Every method gets one (``DaemonMethod``): it answers through ``answer(_:)`` from whichever
/// thread has the answer, and says through ``onCancel(_:)`` how to stop its work (cancel a
/// task, cancel a call to an extension). A cancel answers the client at once with
/// ``WalletWire/RPCErrorCode/requestCancelled``, then stops the work.
public final class DaemonRequest: Sendable {
    private struct State {
        var answered = false
        var cancelled = false
        var cancelHandlers: [@Sendable () -> Void] = []
    }

    /// The request: method, id, params, client.
    public let call: DaemonCall
    private let state = Mutex(State())
    /// Sends the answer line and frees the request's slot (once).
    private let deliver: @Sendable (Data) -> Void

    init(call: DaemonCall, deliver: @escaping @Sendable (Data) -> Void) {
        self.call = call
        self.deliver = deliver
    }

    /// Answers the request, unless it was answered (or cancelled) already.
    /// - Parameter answer: the result, or the error to answer with.
    public func answer(_ answer: DaemonAnswer) {
        let first = state.withLock { state -> Bool in
            defer {
                state.answered = true
                state.cancelHandlers.removeAll()
            }
            return !state.answered
        }
        guard first else { return }
        deliver(DaemonServer.answer(id: call.id, answer))
    }

    /// Runs `handler` when the request is cancelled (at once if it was cancelled already);
    /// never once it was answered.
    public func onCancel(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state -> Bool in
            if state.cancelled { return true }
            if !state.answered { state.cancelHandlers.append(handler) }
            return false
        }
        if runNow { handler() }
    }

    /// Answers `body`'s result from a task that cancelling the request cancels: for a method
    /// that waits (for the pool, a flow, a launch).
    public func answer(inTask body: @escaping @Sendable (DaemonCall) async throws -> any Encodable & Sendable) {
        let call = call
        let task = Task { [self] in
            answer(await DaemonAnswer { try await body(call) })
        }
        onCancel { task.cancel() }
    }

    /// The client cancelled the request (or left): answer it with the cancelled error now, then
    /// stop its work.
    func cancel() {
        let handlers = state.withLock { state -> [@Sendable () -> Void]? in
            guard !state.answered, !state.cancelled else { return nil }
            state.cancelled = true
            defer { state.cancelHandlers.removeAll() }
            return state.cancelHandlers
        }
        guard let handlers else { return }
        answer(.failure(RPCErrorObject(code: RPCErrorCode.requestCancelled, message: "request \(call.id) was cancelled")))
        for handler in handlers { handler() }
    }
}
