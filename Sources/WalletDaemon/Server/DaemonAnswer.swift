import Foundation
import WalletDaemonClient
import WalletHostRuntime
import WalletWire

// What a method of the client API is given (``DaemonCall``), what it answers (``DaemonAnswer``,
// ``DaemonErrorCode``), and the response lines that carry the answer to the client.

/// One request as a method handler sees it: its params and the client that sent it.
public struct DaemonCall: Sendable {
    public let method: String
    public let id: RequestID
    /// The request's line, from which ``params(_:)`` decodes the params as the handler's type.
    let line: Data
    public let client: ClientSession

    /// The params decoded as `type`, straight from the line (absent params as `{}`).
    /// - Throws: ``RPCErrorObject`` -32602 naming the problem.
    public func params<Params: Decodable>(_ type: Params.Type) throws(RPCErrorObject) -> Params {
        do {
            return try DaemonServer.codec.params(type, from: line)
        } catch {
            throw RPCErrorObject(code: RPCErrorCode.invalidParams,
                                 message: "invalid params for \(method): \(error.reason.replacing("invalid params: ", with: ""))")
        }
    }
}

/// A method of the client API: started on the client loop's thread with the request, which it
/// answers exactly once (``DaemonRequest/answer(_:)``) from whichever thread has the answer. The
/// start must never block: a method that waits answers from a task
/// (``DaemonRequest/answer(inTask:)``, what ``DaemonServer/register(_:_:)`` does). Every request
/// is tracked for its client, so `$/cancelRequest` (or the client's leaving) cancels any of them.
public typealias DaemonMethod = @Sendable (DaemonRequest) -> Void

/// What a method answers: a result, or the error to answer with.
public typealias DaemonAnswer = Result<any Encodable & Sendable, any Error>

extension DaemonAnswer {
    /// The answer of an async body: its result, or the error it threw.
    public init(_ body: () async throws -> any Encodable & Sendable) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}

/// The daemon's own error codes, beside JSON-RPC's.
public enum DaemonErrorCode {
    /// The command failed; the message is the sentence `wallet-host` prints (exit status 1).
    public static let commandFailed = -32050
    /// The daemon is shutting down and takes no new work.
    public static let shuttingDown = -32051
}

extension DaemonServer {
    /// The response to request `id`: the answer's result, or its error (an ``RPCErrorObject`` as
    /// it is, any other error as ``DaemonErrorCode/commandFailed`` with the error's sentence).
    static func answer(id: RequestID, _ answer: DaemonAnswer) -> Data {
        switch answer {
        case .success(let result): return resultLine(id: id, result)
        case .failure(let error as RPCErrorObject): return errorLine(id: id, error)
        case .failure(let error): return errorLine(id: id, RPCErrorObject(code: DaemonErrorCode.commandFailed, message: "\(error)"))
        }
    }

    static func resultLine(id: RequestID, _ result: any Encodable & Sendable) -> Data {
        if let plain = result as? any PlainJSONEncodable, let line = codec.plainResponse(id: id, result: plain) {
            return Data(line)
        }
        do {
            return try codec.response(id: id, result: result)
        } catch {
            return errorLine(id: id, RPCErrorObject(code: RPCErrorCode.internalError, message: "the daemon could not encode its answer: \(error)"))
        }
    }

    static func errorLine(id: RequestID?, _ error: RPCErrorObject) -> Data {
        (try? codec.errorResponse(id: id, error: error)) ?? Data()
    }
}
