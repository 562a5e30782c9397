import Foundation
import WalletWire

/// One JSON-RPC 2.0 message read from a socket: a request (method and id), a notification
/// (method, no id) or a response (id, result or error).
public struct DaemonMessage: Decodable, Sendable {
    public var jsonrpc: String?
    public var id: JSONValue?
    public var method: String?
    public var params: JSONValue?
    public var result: JSONValue?
    public var error: RPCErrorObject?

    /// Decodes one line.
    /// - Throws: ``RPCErrorObject`` with -32700 (not JSON) or -32600 (not JSON-RPC 2.0).
    public static func decode(_ line: Data) throws(RPCErrorObject) -> DaemonMessage {
        _ = try DaemonEnvelope.decode(line)
        do {
            return try JSONDecoder().decode(DaemonMessage.self, from: line)
        } catch {
            throw RPCErrorObject(code: RPCErrorCode.invalidRequest, message: "not a JSON-RPC message: \(WireCodec.describe(error))")
        }
    }
}

/// What the daemon reads first of every line: the envelope without its params or result, which
/// a handler then decodes straight from the line as its own type (``DaemonCall/params(_:)``):
/// one parse of each, no detour through ``JSONValue``.
struct DaemonEnvelope: Decodable {
    var jsonrpc: String?
    var id: JSONValue?
    var method: String?
    /// An error answer may have a null id (the daemon's answer to a line it could not read).
    var error: RPCErrorObject?

    static func decode(_ line: Data) throws(RPCErrorObject) -> DaemonEnvelope {
        let envelope: DaemonEnvelope
        do {
            envelope = try JSONDecoder().decode(DaemonEnvelope.self, from: line)
        } catch {
            throw RPCErrorObject(code: RPCErrorCode.parseError, message: "not a JSON-RPC message: \(WireCodec.describe(error))")
        }
        guard envelope.jsonrpc == "2.0" else {
            throw RPCErrorObject(code: RPCErrorCode.invalidRequest, message: "\"jsonrpc\" must be \"2.0\"")
        }
        guard envelope.method != nil || envelope.id != nil || envelope.error != nil else {
            throw RPCErrorObject(code: RPCErrorCode.invalidRequest, message: "a message needs a method or an id")
        }
        return envelope
    }
}

/// A line's `params` or `result` member as `Value`.
struct Member<Value: Decodable>: Decodable {
    var params: Value?
    var result: Value?
}

/// Encodes the daemon's outgoing lines: JSON with sorted keys, `/` unescaped, one `\n` at the end.
public enum DaemonLine {
    /// A response carrying `result`.
    public static func response(id: JSONValue, result: any Encodable & Sendable) -> Data {
        line(Envelope(id: id, method: nil, params: nil, result: result, error: nil))
    }

    /// The response to request `id`: `body`'s result, or its error (an ``RPCErrorObject`` as it
    /// is, any other error as `failureCode` with the error's sentence).
    public static func answer(id: JSONValue, failureCode: Int,
                              _ body: () async throws -> any Encodable & Sendable) async -> Data {
        do {
            return response(id: id, result: try await body())
        } catch let error as RPCErrorObject {
            return self.error(id: id, error)
        } catch {
            return self.error(id: id, RPCErrorObject(code: failureCode, message: "\(error)"))
        }
    }

    /// An error response.
    public static func error(id: JSONValue?, _ error: RPCErrorObject) -> Data {
        line(Envelope(id: id ?? .null, method: nil, params: nil, result: nil, error: error))
    }

    /// A request (with `id`) or a notification (without).
    public static func request(id: JSONValue?, method: String, params: any Encodable & Sendable) -> Data {
        line(Envelope(id: id, method: method, params: params, result: nil, error: nil))
    }

    private static func line(_ envelope: Envelope) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        var data: Data
        do {
            data = try encoder.encode(envelope)
        } catch {
            let failure = Envelope(id: envelope.id ?? .null, method: nil, params: nil, result: nil,
                                   error: RPCErrorObject(code: RPCErrorCode.internalError, message: "the daemon could not encode its answer: \(error)"))
            data = (try? encoder.encode(failure)) ?? Data()
        }
        data.append(0x0A)
        return data
    }

    private struct Envelope: Encodable {
        var id: JSONValue?
        var method: String?
        var params: (any Encodable & Sendable)?
        var result: (any Encodable & Sendable)?
        var error: RPCErrorObject?

        private enum Keys: String, CodingKey { case jsonrpc, id, method, params, result, error }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode("2.0", forKey: .jsonrpc)
            if let id { try container.encode(id, forKey: .id) }
            if let method { try container.encode(method, forKey: .method) }
            if let params { try container.encode(params, forKey: .params) }
            if let error {
                try container.encode(error, forKey: .error)
            } else if method == nil {
                if let result { try container.encode(result, forKey: .result) } else { try container.encodeNil(forKey: .result) }
            }
        }
    }
}
