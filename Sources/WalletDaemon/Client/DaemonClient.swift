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
        Glibc.close(fd)
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

    /// Sends a request and decodes its result as `type`, straight from the line (one parse).
    public func call<Result: Decodable>(_ method: String, _ params: any Encodable & Sendable = [String: String](), as type: Result.Type,
                                        onNotification: (DaemonMessage) -> Void = { _ in },
                                        onRequest: ((DaemonMessage) async throws -> any Encodable & Sendable)? = nil) async throws -> Result {
        let id = nextID
        nextID += 1
        try send(DaemonLine.request(id: .integer(id), method: method, params: params))
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        while true {
            guard let line = try readLine() else {
                throw DaemonError("the daemon at \(socketPath) closed the connection before answering \(method)")
            }
            // A response to this request is read whole as its result type; anything else (or a
            // result that is not of the type) is read as a generic message.
            if let reply = try? decoder.decode(Reply<Result>.self, from: line), reply.method == nil, reply.id == .integer(id) {
                if let error = reply.error { throw error }
                if let result = reply.result { return result }
                return try decoder.decode(type, from: Data("null".utf8))
            }
            let message = try DaemonMessage.decode(line)
            if message.method != nil {
                if let requestID = message.id {
                    try send(await answer(message, requestID: requestID, onRequest: onRequest))
                } else {
                    onNotification(message)
                }
                continue
            }
            if let error = message.error, message.id == nil || message.id == .null || message.id == .integer(id) { throw error }
            if message.id == .integer(id) {
                // The result did not decode as `Result`: say why.
                return try decoder.decode(Member<Result>.self, from: line).result ?? decoder.decode(type, from: Data("null".utf8))
            }
        }
    }

    private func answer(_ message: DaemonMessage, requestID: JSONValue,
                        onRequest: ((DaemonMessage) async throws -> any Encodable & Sendable)?) async -> Data {
        guard let onRequest else {
            return DaemonLine.error(id: requestID, RPCErrorObject(code: RPCErrorCode.methodNotFound,
                                                                  message: "this client does not answer \(message.method ?? "")"))
        }
        return await DaemonLine.answer(id: requestID, failureCode: RPCErrorCode.serviceFailed) { try await onRequest(message) }
    }

    private struct Reply<Result: Decodable>: Decodable {
        var id: JSONValue?
        var method: String?
        var error: RPCErrorObject?
        var result: Result?
    }

    /// The next message from the daemon, or nil at end of input.
    public func readMessage() throws -> DaemonMessage? {
        try readLine().map { try DaemonMessage.decode($0) }
    }

    /// The next line from the daemon, or nil at end of input.
    private func readLine() throws -> Data? {
        while lines.isEmpty {
            let count = buffer.withUnsafeMutableBytes { bytes in SystemCall.retryingInterrupts { recv(fd, bytes.baseAddress, bytes.count, 0) } }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                throw DaemonError("no answer from the daemon at \(socketPath) in time")
            }
            if count <= 0 { return nil }
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
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(type, from: JSONEncoder().encode(value))
    }
}
