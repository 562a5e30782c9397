import Foundation
import WalletHostRuntime
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// A client of the daemon's socket: one request at a time, its notifications (transcript lines,
/// events) handed to a closure as they come, and the daemon's own requests to the client
/// (forwarded `ui.prompt` / `ui.biometric`) answered by another.
public final class DaemonClient {
    public let socketPath: String
    private let fd: Int32
    private var framer = LineFramer()
    private var lines: [Data] = []
    private var nextID = 1
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)

    /// Connects to the daemon at `socketPath`.
    /// - Throws: ``DaemonError`` (``DaemonError/isNobodyListening`` when no daemon answers there).
    public init(connectingTo socketPath: String) throws {
        self.socketPath = socketPath
        fd = try UnixSocket.connect(path: socketPath)
    }

    deinit {
        SystemCall.close(fd)
    }

    /// Sends a request and waits for its response.
    /// - Parameters:
    ///   - onNotification: each notification that arrives meanwhile.
    ///   - onRequest: answers each request the daemon sends meanwhile; nil answers "method not found".
    /// - Returns: the raw `result`.
    /// - Throws: ``RPCErrorObject`` when the daemon answers with an error; ``DaemonError`` when the
    ///   connection ends first.
    public func call(_ method: String, _ params: any Encodable & Sendable,
                     onNotification: (DaemonMessage) -> Void = { _ in },
                     onRequest: ((DaemonMessage) async throws -> any Encodable & Sendable)? = nil) async throws -> JSONValue {
        try await call(method, params, as: JSONValue.self, onNotification: onNotification, onRequest: onRequest)
    }

    /// Sends a request and decodes its result as `type`, straight from the line.
    public func call<Result: Decodable>(_ method: String, _ params: any Encodable & Sendable = [String: String](), as type: Result.Type,
                                        onNotification: (DaemonMessage) -> Void = { _ in },
                                        onRequest: ((DaemonMessage) async throws -> any Encodable & Sendable)? = nil) async throws -> Result {
        let id = RequestID.number(nextID)
        nextID += 1
        try send(codec.request(id: id, method: method, params: params))
        while true {
            guard let line = try readLine() else {
                throw DaemonError("the daemon at \(socketPath) closed the connection before answering \(method)")
            }
            switch try DaemonMessage(line: line).message {
            case .response(id, _):
                do {
                    return try codec.result(type, from: line)
                } catch {
                    throw DaemonError("the daemon answered \(method) with \(error.reason)")
                }
            case .errorResponse(let answered, let error) where answered == nil || answered == id:
                throw error
            case .request(let requestID, _, _):
                try send(await answer(DaemonMessage(line: line), requestID: requestID, onRequest: onRequest))
            case .notification:
                onNotification(try DaemonMessage(line: line))
            default:
                continue
            }
        }
    }

    private func answer(_ message: DaemonMessage, requestID: RequestID,
                        onRequest: ((DaemonMessage) async throws -> any Encodable & Sendable)?) async -> Data {
        let error: RPCErrorObject
        if let onRequest {
            do {
                return try codec.response(id: requestID, result: try await onRequest(message))
            } catch let thrown as RPCErrorObject {
                error = thrown
            } catch {
                return (try? codec.errorResponse(id: requestID, error: RPCErrorObject(code: RPCErrorCode.serviceFailed,
                                                                                      message: "\(error)"))) ?? Data()
            }
        } else {
            error = RPCErrorObject(code: RPCErrorCode.methodNotFound, message: "this client does not answer \(message.method ?? "")")
        }
        return (try? codec.errorResponse(id: requestID, error: error)) ?? Data()
    }

    /// The next message from the daemon, or nil at end of input.
    public func readMessage() throws -> DaemonMessage? {
        try readLine().map { try DaemonMessage(line: $0) }
    }

    /// The next line from the daemon, or nil at end of input.
    private func readLine() throws -> Data? {
        while lines.isEmpty {
            let received: Int?
            do {
                received = try buffer.withUnsafeMutableBytes { try SystemCall.receive(fd, into: $0) }
            } catch {
                return nil
            }
            // A receive timeout (SO_RCVTIMEO) reads as a receive that would block.
            guard let count = received else { throw DaemonError("no answer from the daemon at \(socketPath) in time") }
            if count == 0 { return nil }
            for frame in buffer.withUnsafeBytes({ framer.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }) {
                if case .line(let line) = frame { lines.append(line) }
            }
        }
        return lines.removeFirst()
    }

    /// Makes ``readMessage()`` (and so ``call(_:_:onNotification:onRequest:)``) give up with an
    /// error when nothing arrives for `timeout`.
    public func setReceiveTimeout(_ timeout: Duration) {
        var value = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: Int(timeout.components.attoseconds / 1_000_000_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends one line as it is (with its newline).
    public func send(_ line: Data) throws {
        guard UnixSocket.writeAll(fd, line) else {
            throw DaemonError("cannot write to the daemon at \(socketPath): \(DaemonError.reason())")
        }
    }

    /// Decodes a JSON value as `type`.
    public static func decode<Value: Decodable>(_ type: Value.Type, from value: JSONValue) throws -> Value {
        try codec.value(type, from: codec.json(value))
    }

    /// The client API's codec (ISO 8601 dates), the daemon's own.
    private static let codec = WireCodec(dates: .iso8601)
    private var codec: WireCodec { Self.codec }
}

/// One line from the daemon, classified by ``WireCodec``, with its members readable as JSON
/// values: what a client that does not know the method's types reads (the CLI's transcript
/// lines, forwarded prompts, tests).
public struct DaemonMessage: Sendable {
    /// The line as ``WireCodec/decode(_:)`` classified it.
    public let message: WireMessage
    /// The line itself, without its newline.
    public let line: Data

    /// Classifies one line (without its newline).
    /// - Throws: ``RPCErrorObject`` with -32700 (not JSON) or -32600 (not JSON-RPC 2.0).
    public init(line: Data) throws(RPCErrorObject) {
        self.line = line
        do {
            message = try WireCodec(dates: .iso8601).decode(line)
        } catch {
            throw RPCErrorObject(code: error.code, message: "not a JSON-RPC message: \(error.reason)")
        }
    }

    public var id: RequestID? {
        switch message {
        case .request(let id, _, _), .response(let id, _): return id
        case .errorResponse(let id, _): return id
        case .notification: return nil
        }
    }

    public var method: String? {
        switch message {
        case .request(_, let method, _), .notification(let method, _): return method
        case .response, .errorResponse: return nil
        }
    }

    public var error: RPCErrorObject? {
        if case .errorResponse(_, let error) = message { return error }
        return nil
    }

    /// A request's or notification's params as a JSON value (nil when absent or unreadable).
    public var params: JSONValue? {
        switch message {
        case .request(_, _, let line), .notification(_, let line):
            return try? WireCodec(dates: .iso8601).value(ParamsMember.self, from: line).params
        case .response, .errorResponse: return nil
        }
    }

    /// A response's result as a JSON value.
    public var result: JSONValue? {
        guard case .response(_, let line) = message else { return nil }
        return try? WireCodec(dates: .iso8601).result(JSONValue.self, from: line)
    }

    /// The params decoded as `type` (absent params as `{}`).
    public func params<Params: Decodable>(_ type: Params.Type) throws -> Params {
        switch message {
        case .request(_, _, let line), .notification(_, let line):
            return try WireCodec(dates: .iso8601).params(type, from: line)
        case .response, .errorResponse:
            throw DaemonError("a response has no params")
        }
    }

    private struct ParamsMember: Decodable {
        var params: JSONValue?
    }
}
