import FoundationEssentials

/// One message read from the wire, classified by its JSON-RPC envelope.
///
/// Parameters and results stay undecoded (the original line is kept) until the
/// receiver knows which type to decode them into: see ``WireCodec``.
public enum WireMessage: Sendable {
    /// A request that expects a response.
    case request(id: RequestID, method: String, line: Data)
    /// A notification: a request without an id.
    case notification(method: String, line: Data)
    /// A successful response.
    case response(id: RequestID, line: Data)
    /// An error response. `id` is `nil` when the peer could not tell which request failed.
    case errorResponse(id: RequestID?, error: RPCErrorObject)
}

/// Why a line could not be read as a JSON-RPC message.
public struct WireDecodingError: Error, Sendable, CustomStringConvertible {
    /// ``RPCErrorCode/parseError`` or ``RPCErrorCode/invalidRequest``.
    public var code: Int
    /// What was wrong, for people.
    public var reason: String
    /// The request id, when the envelope got far enough to have one.
    public var id: RequestID?

    public init(code: Int, reason: String, id: RequestID? = nil) {
        self.code = code
        self.reason = reason
        self.id = id
    }

    public var description: String { reason }
}

/// Encodes and decodes JSON-RPC 2.0 lines, for the extension protocol and the daemon's client
/// API alike. Cheap to create and safe to use from any thread: every instance shares one
/// encoder and one decoder per date format (both are thread-safe), so a hot path pays for no
/// allocation of its own.
public struct WireCodec: Sendable {
    /// How dates are written and read.
    public enum DateFormat: Sendable {
        /// `JSONEncoder`'s default (seconds since 2001, a number): the extension protocol's.
        case numeric
        /// ISO 8601 text in UTC (`2026-11-26T01:02:03Z`): the daemon's client API, the event log.
        case iso8601
    }

    private static let numericEncoder = makeEncoder(.numeric)
    static let numericDecoder = JSONDecoder()
    private static let iso8601Encoder = makeEncoder(.iso8601)
    private static let iso8601Decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    private static func makeEncoder(_ dates: DateFormat) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if dates == .iso8601 { encoder.dateEncodingStrategy = .iso8601 }
        return encoder
    }

    /// The date format of this codec's lines.
    public let dates: DateFormat

    private var encoder: JSONEncoder { dates == .numeric ? Self.numericEncoder : Self.iso8601Encoder }
    var decoder: JSONDecoder { dates == .numeric ? Self.numericDecoder : Self.iso8601Decoder }

    /// A codec whose dates are `dates` (numbers, as the extension protocol has them, by default).
    public init(dates: DateFormat = .numeric) {
        self.dates = dates
    }

    /// A value as JSON (sorted keys, slashes unescaped, no newline): a part of a line built once
    /// and sent many times (``notification(method:encodedParams:)``).
    public func json(_ value: some Encodable) throws -> Data {
        try encoder.encode(value)
    }

    /// A value decoded from JSON with this codec's date format.
    public func value<Value: Decodable>(_ type: Value.Type, from json: Data) throws -> Value {
        try decoder.decode(type, from: json)
    }

    // MARK: Encoding

    /// A request line (newline-terminated).
    public func request(id: RequestID, method: String, params: some Encodable) throws -> Data {
        if Self.isEmptyObject(params), let line = Self.plainRequest(id: id, method: method) { return line }
        return try line(OutgoingRequest(id: id, method: method, params: params))
    }

    /// Params that encode as `{}`: most of a warm host's requests (`status`, `passEntries`).
    private static func isEmptyObject(_ params: some Encodable) -> Bool {
        if params is NoParams { return true }
        if let value = params as? JSONValue, case .object(let members) = value { return members.isEmpty }
        return false
    }

    /// The bytes the encoder writes for a request with `{}` params, written by hand; nil when the
    /// id or the method would need escaping.
    private static func plainRequest(id: RequestID, method: String) -> Data? {
        guard isPlainJSONString(method) else { return nil }
        let idText: String
        switch id {
        case .number(let number): idText = String(number)
        case .string(let string):
            guard isPlainJSONString(string) else { return nil }
            idText = "\"" + string + "\""
        case .decimal: return nil
        }
        return Data("{\"id\":\(idText),\"jsonrpc\":\"2.0\",\"method\":\"\(method)\",\"params\":{}}\n".utf8)
    }

    /// A notification line (newline-terminated).
    public func notification(method: String, params: some Encodable) throws -> Data {
        try line(OutgoingNotification(method: method, params: params))
    }

    /// A notification line whose params were encoded before (by ``json(_:)``): the bytes
    /// ``notification(method:params:)`` writes for them, without encoding them again.
    /// - Parameter method: A method name the encoder would not escape (ASCII letters, digits, `.`, `/`, `$`, `_`).
    public func notification(method: String, encodedParams: Data) -> Data {
        var line = Data()
        line.reserveCapacity(encodedParams.count + method.utf8.count + 48)
        line.append(contentsOf: #"{"jsonrpc":"2.0","method":""#.utf8)
        line.append(contentsOf: method.utf8)
        line.append(contentsOf: #"","params":"#.utf8)
        line.append(encodedParams)
        line.append(contentsOf: "}\n".utf8)
        return line
    }

    /// A success response line (newline-terminated). `result` may encode as `null`.
    public func response(id: RequestID, result: some Encodable) throws -> Data {
        try line(OutgoingResponse(id: id, result: result))
    }

    /// An error response line (newline-terminated).
    public func errorResponse(id: RequestID?, error: RPCErrorObject) throws -> Data {
        try line(OutgoingErrorResponse(id: id, error: error))
    }

    private func line(_ value: some Encodable) throws -> Data {
        var data = try encoder.encode(value)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    // MARK: Decoding

    /// Classifies one line (without its newline) by its envelope: by hand when the line is in
    /// the plain shape peers write (``decodePlain(_:)``), else with `JSONDecoder`.
    /// - Throws: ``WireDecodingError`` when the line is not JSON or not JSON-RPC 2.0.
    public func decode(_ line: Data) throws(WireDecodingError) -> WireMessage {
        if let plain = decodePlain(line) { return plain.message }
        return try decodeWithJSONDecoder(line)
    }

    /// ``decode(_:)`` without the hand reader: for a line ``decodePlain(_:)`` already declined,
    /// and as the reference the hand reader is tested against.
    package func decodeWithJSONDecoder(_ line: Data) throws(WireDecodingError) -> WireMessage {
        guard String(validating: line, as: UTF8.self) != nil else {
            throw WireDecodingError(code: RPCErrorCode.parseError, reason: "not valid UTF-8")
        }
        let envelope: IncomingEnvelope
        do {
            envelope = try decoder.decode(IncomingEnvelope.self, from: line)
        } catch let error as WireDecodingError {
            throw error
        } catch {
            throw WireDecodingError(code: RPCErrorCode.parseError, reason: "not valid JSON: \(Self.describe(error))")
        }
        guard envelope.jsonrpc == "2.0" else {
            throw WireDecodingError(code: RPCErrorCode.invalidRequest, reason: "\"jsonrpc\" must be \"2.0\"", id: envelope.id)
        }
        if let method = envelope.method {
            if let id = envelope.id { return .request(id: id, method: method, line: line) }
            return .notification(method: method, line: line)
        }
        if let error = envelope.error { return .errorResponse(id: envelope.id, error: error) }
        guard let id = envelope.id else {
            throw WireDecodingError(code: RPCErrorCode.invalidRequest, reason: "message has neither \"method\" nor \"id\"")
        }
        guard envelope.hasResult else {
            throw WireDecodingError(code: RPCErrorCode.invalidRequest, reason: "response \(id) has neither \"result\" nor \"error\"", id: id)
        }
        return .response(id: id, line: line)
    }

    /// Decodes the `params` of a request or notification line. A missing `params` decodes
    /// as an empty object.
    public func params<Params: Decodable>(_ type: Params.Type, from line: Data) throws(WireDecodingError) -> Params {
        // A type that reads a flat plain object itself, from a line in the plain shape: no JSONDecoder.
        if let plain = plainParams(type, from: line) { return plain }
        do {
            return try decoder.decode(ParamsBody<Params>.self, from: line).params
        } catch {
            throw WireDecodingError(code: RPCErrorCode.invalidParams, reason: "invalid params: \(Self.describe(error))")
        }
    }

    /// Decodes the `result` of a response line.
    public func result<Result: Decodable>(_ type: Result.Type, from line: Data) throws(WireDecodingError) -> Result {
        if let plain = plainResult(type, from: line) { return plain }
        do {
            return try decoder.decode(ResultBody<Result>.self, from: line).result
        } catch {
            throw WireDecodingError(code: RPCErrorCode.invalidParams, reason: "invalid result: \(Self.describe(error))")
        }
    }

    /// A short, single-line account of a decoding error: which key, what was wrong.
    public static func describe(_ error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            var rendered = ""
            for key in context.codingPath {
                if let index = key.intValue {
                    rendered += "[\(index)]"
                } else {
                    rendered += rendered.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return rendered.isEmpty ? "top level" : rendered
        }
        switch decodingError {
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.isEmpty ? "" : " in \(path(context))"
            return "missing key \"\(key.stringValue)\"\(parent)"
        case .typeMismatch(let type, let context):
            return "\(path(context)): expected \(type)"
        case .valueNotFound(let type, let context):
            return "\(path(context)): expected \(type), found null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? context.debugDescription : "\(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}

/// Parameters of a method that takes none; encodes as `{}`.
public struct NoParams: Codable, Sendable, Hashable {
    private enum CodingKeys: CodingKey {}

    public init() {}

    /// Decodes any JSON object (members are ignored).
    /// - Throws: `DecodingError.typeMismatch` when the params are not an object: the protocol
    ///   says `params` is one, even when a method takes none.
    public init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: CodingKeys.self)
    }
}
