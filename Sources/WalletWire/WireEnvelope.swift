import FoundationEssentials

// The JSON-RPC envelopes as WireCodec reads and writes them: what an incoming line is (its id,
// method, error, whether it has a result), a request's params or a response's result alone, and
// the four messages the codec writes.

struct IncomingEnvelope: Decodable {
    var jsonrpc: String?
    var id: RequestID?
    var method: String?
    var error: RPCErrorObject?
    var hasResult: Bool

    enum CodingKeys: String, CodingKey { case jsonrpc, id, method, error, result }

    init(from decoder: any Decoder) throws {
        let container: KeyedDecodingContainer<CodingKeys>
        do {
            container = try decoder.container(keyedBy: CodingKeys.self)
        } catch {
            throw WireDecodingError(code: RPCErrorCode.invalidRequest, reason: "a message must be a JSON object")
        }
        // The id is read first so that a message that is wrong elsewhere can still be answered by id.
        var decodedID: RequestID?
        func field<T: Decodable>(_ type: T.Type, _ key: CodingKeys) throws -> T? {
            do {
                return try container.decodeIfPresent(type, forKey: key)
            } catch {
                throw WireDecodingError(code: RPCErrorCode.invalidRequest, reason: "\"\(key.stringValue)\" has the wrong type",
                                        id: decodedID)
            }
        }
        decodedID = try container.contains(.id) && !container.decodeNil(forKey: .id) ? field(RequestID.self, .id) : nil
        id = decodedID
        jsonrpc = try field(String.self, .jsonrpc)
        method = try field(String.self, .method)
        error = try field(RPCErrorObject.self, .error)
        hasResult = container.contains(.result)
    }
}

struct ParamsBody<Params: Decodable>: Decodable {
    var params: Params

    enum CodingKeys: String, CodingKey { case params }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.params), try !container.decodeNil(forKey: .params) {
            params = try container.decode(Params.self, forKey: .params)
        } else {
            // Absent params read as `{}` so that parameterless methods decode to an empty struct.
            params = try WireCodec.numericDecoder.decode(Params.self, from: Data("{}".utf8))
        }
    }
}

struct ResultBody<Result: Decodable>: Decodable {
    var result: Result
}

struct OutgoingRequest<Params: Encodable>: Encodable {
    let jsonrpc = "2.0"
    var id: RequestID
    var method: String
    var params: Params
}

struct OutgoingNotification<Params: Encodable>: Encodable {
    let jsonrpc = "2.0"
    var method: String
    var params: Params
}

struct OutgoingResponse<Result: Encodable>: Encodable {
    var id: RequestID
    var result: Result

    enum CodingKeys: String, CodingKey { case jsonrpc, id, result }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("2.0", forKey: .jsonrpc)
        try container.encode(id, forKey: .id)
        // Encode explicitly so that a nil Optional becomes `"result": null`, not a missing key.
        try container.encode(result, forKey: .result)
    }
}

struct OutgoingErrorResponse: Encodable {
    var id: RequestID?

    var error: RPCErrorObject

    enum CodingKeys: String, CodingKey { case jsonrpc, id, error }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("2.0", forKey: .jsonrpc)
        try container.encode(id, forKey: .id)
        try container.encode(error, forKey: .error)
    }
}
