import Dispatch
import FoundationEssentials
import Synchronization
import WalletWire

/// A host service failed, or could not be reached.
public struct HostServiceError: Error, Sendable, CustomStringConvertible {
    /// The service method, e.g. `passLibrary.passes`.
    public let method: String
    /// The host's JSON-RPC error code, or ``notRunningUnderHost`` / ``requestFailed``.
    public let code: Int
    /// What went wrong, for people.
    public let message: String

    /// The process was not started by wallet-host (no connection), e.g. in a containing app.
    public static let notRunningUnderHost = -1
    /// The request could not be sent, or its answer could not be read.
    public static let requestFailed = -2

    public var description: String { "\(method): \(message) (code \(code))" }
}

/// Service requests the extension sent and the host has not answered yet.
///
/// The extension numbers its own requests (`ext-1`, `ext-2`, ...); the host's calls have
/// their own id space, so the two never collide.
package final class HostCallTable: Sendable {
    package typealias Completion = @Sendable (Result<Data, RPCErrorObject>) -> Void

    private let pending = Mutex<[RequestID: Completion]>([:])
    private let lastNumber = Atomic<Int>(0)

    /// Registers a completion and returns the id to send the request with.
    package func register(_ completion: @escaping Completion) -> RequestID {
        let id = RequestID.string("ext-\(lastNumber.add(1, ordering: .relaxed).newValue)")
        pending.withLock { $0[id] = completion }
        return id
    }

    /// Forgets a request that could not be sent.
    package func unregister(_ id: RequestID) {
        pending.withLock { _ = $0.removeValue(forKey: id) }
    }

    /// Delivers the host's answer; false when no request with that id is pending.
    package func resolve(_ id: RequestID, with result: Result<Data, RPCErrorObject>) -> Bool {
        guard let completion = pending.withLock({ $0.removeValue(forKey: id) }) else { return false }
        completion(result)
        return true
    }
}

/// Sends service requests to the host and waits for the answers.
///
/// Both a blocking form (PassKit's pass library is synchronous) and an async form. The
/// blocking form waits on a semaphore while the reader delivers the answer; a handler that
/// runs on the reader's own thread hands the reader role over first. In async code prefer the
/// async form: blocking a thread of Swift's small cooperative pool holds up other tasks.
package enum HostServiceCall {
    package static func send<Params: Encodable & Sendable, Answer: Decodable>(
        _ method: String, params: Params, expecting: Answer.Type
    ) throws(HostServiceError) -> Answer {
        let runtime = try connectedRuntime(for: method)
        let arrived = DispatchSemaphore(value: 0)
        let answer = Mutex<Result<Data, RPCErrorObject>?>(nil)
        let id = runtime.hostCalls.register { result in
            answer.withLock { $0 = result }
            arrived.signal()
        }
        runtime.threadWillBlockWaitingForHost()
        try sendRequest(id: id, method: method, params: params, runtime: runtime)
        arrived.wait()
        return try decode(answer.withLock { $0 }!, method: method, as: Answer.self)
    }

    package static func send<Params: Encodable & Sendable, Answer: Decodable>(
        _ method: String, params: Params, expecting: Answer.Type
    ) async throws(HostServiceError) -> Answer {
        let runtime = try connectedRuntime(for: method)
        let result: Result<Result<Data, RPCErrorObject>, HostServiceError> = await withCheckedContinuation { continuation in
            let id = runtime.hostCalls.register { result in continuation.resume(returning: .success(result)) }
            do throws(HostServiceError) {
                try sendRequest(id: id, method: method, params: params, runtime: runtime)
            } catch {
                continuation.resume(returning: .failure(error))
            }
        }
        return try decode(result.get(), method: method, as: Answer.self)
    }

    private static func connectedRuntime(for method: String) throws(HostServiceError) -> ExtensionRuntime {
        guard let runtime = ExtensionRuntime.current.withLock({ $0 }) else {
            throw HostServiceError(method: method, code: HostServiceError.notRunningUnderHost,
                                   message: "not running under wallet-host, so no host services are available")
        }
        return runtime
    }

    private static func sendRequest<Params: Encodable & Sendable>(
        id: RequestID, method: String, params: Params, runtime: ExtensionRuntime
    ) throws(HostServiceError) {
        do {
            try runtime.writer.sendRequest(id: id, method: method, params: params)
        } catch {
            runtime.hostCalls.unregister(id)
            throw HostServiceError(method: method, code: HostServiceError.requestFailed, message: "\(error)")
        }
    }

    private static func decode<Answer: Decodable>(
        _ result: Result<Data, RPCErrorObject>, method: String, as type: Answer.Type
    ) throws(HostServiceError) -> Answer {
        switch result {
        case .failure(let error):
            throw HostServiceError(method: method, code: error.code, message: error.message)
        case .success(let line):
            do {
                return try WireCodec().result(type, from: line)
            } catch {
                throw HostServiceError(method: method, code: HostServiceError.requestFailed, message: error.reason)
            }
        }
    }
}
