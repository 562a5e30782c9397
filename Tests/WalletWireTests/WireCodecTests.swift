import Foundation
import Testing
import WalletWire

@Suite("WireCodec")
struct WireCodecTests {
    let codec = WireCodec()

    static let initializeParams = InitializeParams(
        extensionPoint: WalletExtensionPoint.nonUI, principalClass: "WNonUIExt.WNonUIExtHandler",
        bundleIdentifier: "com.example.issuer.WNonUIExt", containingAppBundleIdentifier: "com.example.issuer",
        appGroups: ["group.com.example.issuer": "/tmp/groups/group.com.example.issuer"],
        memoryLimitBytes: 55 * 1024 * 1024, deadlines: [WireMethod.status: 100, WireMethod.passEntries: 20_000])

    func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    /// Decodes `json` and returns the error, failing the test when it decodes.
    func decodingError(_ json: String) -> WireDecodingError? {
        decodingError(Data(json.utf8))
    }

    /// Decodes `line` and returns the error, failing the test when it decodes.
    func decodingError(_ line: Data) -> WireDecodingError? {
        do {
            let message = try codec.decode(line)
            Issue.record("decoded \(String(decoding: line, as: UTF8.self)) as \(message), expected an error")
            return nil
        } catch {
            return error
        }
    }

    // MARK: Round trips

    @Test("a request round-trips: one line, newline-terminated, params intact")
    func requestRoundTrip() throws {
        let line = try codec.request(id: .number(1), method: WireMethod.initialize, params: Self.initializeParams)
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(line.dropLast().contains(UInt8(ascii: "\n")) == false)
        #expect(text(line).hasPrefix(#"{"id":1,"jsonrpc":"2.0","method":"initialize","params":{"#))
        let (id, method, body) = try #require(try codec.decode(line.dropLast()).request, "not decoded as a request: \(text(line))")
        #expect(id == .number(1))
        #expect(method == WireMethod.initialize)
        #expect(try codec.params(InitializeParams.self, from: body) == Self.initializeParams)
    }

    @Test("a notification round-trips and has no id")
    func notificationRoundTrip() throws {
        let params = CancelRequestParams(id: .string("call-9"))
        let line = try codec.notification(method: WireMethod.cancelRequest, params: params)
        #expect(text(line) == #"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":"call-9"}}"# + "\n")
        let (method, body) = try #require(try codec.decode(line.dropLast()).notification,
                                          "not decoded as a notification: \(text(line))")
        #expect(method == WireMethod.cancelRequest)
        #expect(try codec.params(CancelRequestParams.self, from: body) == params)
    }

    @Test("a response round-trips")
    func responseRoundTrip() throws {
        let status = StatusResult(passEntriesAvailable: true, remotePassEntriesAvailable: false, requiresAuthentication: true)
        let line = try codec.response(id: .number(2), result: status)
        let (id, body) = try #require(try codec.decode(line.dropLast()).response, "not decoded as a response: \(text(line))")
        #expect(id == .number(2))
        #expect(try codec.result(StatusResult.self, from: body) == status)
    }

    @Test("an error response round-trips with its data")
    func errorResponseRoundTrip() throws {
        let error = RPCErrorObject(code: RPCErrorCode.unsupportedProtocolVersion, message: "unsupported protocol version 2",
                                   data: .object(["supported": .array([.integer(1)])]))
        let line = try codec.errorResponse(id: .number(1), error: error)
        #expect(text(line) == #"{"error":{"code":-32004,"data":{"supported":[1]},"message":"unsupported protocol version 2"},"id":1,"jsonrpc":"2.0"}"# + "\n")
        let (id, decoded) = try #require(try codec.decode(line.dropLast()).errorResponse,
                                         "not decoded as an error response: \(text(line))")
        #expect(id == .number(1))
        #expect(decoded == error)
    }

    @Test("an error response without an id encodes \"id\":null and decodes with a nil id")
    func errorResponseWithoutID() throws {
        let line = try codec.errorResponse(id: nil, error: RPCErrorObject(code: RPCErrorCode.parseError, message: "bad"))
        #expect(text(line).contains(#""id":null"#))
        let (id, error) = try #require(try codec.decode(line.dropLast()).errorResponse,
                                       "not decoded as an error response: \(text(line))")
        #expect(id == nil)
        #expect(error.code == RPCErrorCode.parseError)
        #expect(error.data == nil)
    }

    @Test("a nil result encodes as \"result\":null and decodes back to nil")
    func nullResult() throws {
        let line = try codec.response(id: .number(6), result: AddPaymentPassRequestResult?.none)
        #expect(text(line) == #"{"id":6,"jsonrpc":"2.0","result":null}"# + "\n")
        let body = try #require(try codec.decode(line.dropLast()).response?.line,
                                "a null result was not decoded as a response: \(text(line))")
        #expect(try codec.result(AddPaymentPassRequestResult?.self, from: body) == nil)
    }

    @Test("Data fields are standard base64 with padding")
    func dataIsBase64() throws {
        let params = GenerateAddPaymentPassRequestParams(
            identifier: "card", configuration: WireAddRequestConfiguration(encryptionScheme: "ECC_V2"),
            certificateChain: [Data([0x30, 0x82]), Data([0xFF, 0xFE, 0xFD])], nonce: Data([0, 1, 2]),
            nonceSignature: Data([0xFB, 0xFF]))
        let line = text(try codec.request(id: .number(5), method: WireMethod.generateAddPaymentPassRequest, params: params))
        #expect(line.contains(#""certificateChain":["MII=","//79"]"#))
        #expect(line.contains(#""nonce":"AAEC""#))
        #expect(line.contains(#""nonceSignature":"+/8=""#))
        // Optional fields that are nil are left out, not sent as null.
        #expect(!line.contains("cardholderName"))
    }

    // MARK: Params

    @Test("missing or null params decode as an empty object", arguments: [
        #"{"jsonrpc":"2.0","id":1,"method":"status"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"status","params":null}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"status","params":{}}"#,
    ])
    func missingParams(json: String) throws {
        #expect(try codec.params(NoParams.self, from: Data(json.utf8)) == NoParams())
    }

    @Test("missing params for a method that needs them name the missing key")
    func missingParamsNameTheKey() {
        let line = Data(#"{"jsonrpc":"2.0","id":1,"method":"ui.biometric"}"#.utf8)
        #expect {
            try codec.params(UIBiometricParams.self, from: line)
        } throws: { error in
            guard let error = error as? WireDecodingError else { return false }
            return error.code == RPCErrorCode.invalidParams && error.reason.contains(#"missing key "reason""#)
        }
    }

    @Test("unknown fields are ignored (additive changes within a version)")
    func unknownFieldsIgnored() throws {
        let line = Data(#"{"jsonrpc":"2.0","id":1,"method":"passLibrary.passes","params":{"passType":"secureElement","future":[1,2]},"extra":true}"#.utf8)
        let (_, method, body) = try #require(try codec.decode(line).request, "not decoded as a request")
        #expect(method == WireMethod.passLibraryPasses)
        #expect(try codec.params(PassLibraryPassesParams.self, from: body) == PassLibraryPassesParams())
    }

    // MARK: Envelope errors

    @Test("invalid JSON (and an empty line) is a parse error", arguments: [
        "", "{", "not json", #"{"jsonrpc":"2.0","id":1,"method":"status""#, #"{"id":1} trailing"#,
        #"{"jsonrpc":"2.0","id":1,"method":"status","params":{"a":01x}}"#,
    ])
    func invalidJSON(json: String) {
        let error = decodingError(json)
        #expect(error?.code == RPCErrorCode.parseError)
        #expect(error?.id == nil)
    }

    @Test("invalid UTF-8 never gets through as a message")
    func invalidUTF8() {
        var line = Data(#"{"jsonrpc":"2.0","method":"$/log","params":{"level":"info","message":""#.utf8)
        line.append(contentsOf: [0xC3, 0x28, 0xFF])
        line.append(Data(#""}}"#.utf8))
        // Whatever the envelope says, the params cannot be read.
        #expect(throws: WireDecodingError.self) { try codec.params(LogParams.self, from: line) }
        // Gap in WireMessage.swift: decode(_:) only reads the envelope members, so invalid
        // UTF-8 inside another member passes as a valid notification, and the receiver answers
        // -32602 later instead of -32700 (RPCErrorCode.parseError's documented meaning).
        // See the final report for the fix.
        #expect(decodingError(line)?.code == RPCErrorCode.parseError)
    }

    @Test("valid JSON that is not an object is an invalid request", arguments: [
        "[1,2]", #""status""#, "42", "null", "true",
    ])
    func notAnObject(json: String) {
        let error = decodingError(json)
        #expect(error?.code == RPCErrorCode.invalidRequest)
        #expect(error?.reason == "a message must be a JSON object")
    }

    @Test("a wrong or missing jsonrpc version is an invalid request that keeps the id", arguments: [
        #"{"jsonrpc":"1.0","id":7,"method":"status"}"#,
        #"{"id":7,"method":"status"}"#,
        #"{"jsonrpc":2.0,"id":7,"method":"status"}"#,
    ])
    func wrongVersion(json: String) {
        let error = decodingError(json)
        #expect(error?.code == RPCErrorCode.invalidRequest)
        if json.contains(#""1.0""#) || !json.contains("jsonrpc") {
            #expect(error?.id == .number(7))
            #expect(error?.reason.contains("2.0") == true)
        }
    }

    @Test("a response with neither result nor error is an invalid request naming the id")
    func responseWithoutResultOrError() {
        let error = decodingError(#"{"jsonrpc":"2.0","id":3}"#)
        #expect(error?.code == RPCErrorCode.invalidRequest)
        #expect(error?.id == .number(3))
        #expect(error?.reason.contains("result") == true)
    }

    @Test("a message with neither method nor id is an invalid request")
    func neitherMethodNorID() {
        let error = decodingError(#"{"jsonrpc":"2.0","result":1}"#)
        #expect(error?.code == RPCErrorCode.invalidRequest)
        #expect(error?.id == nil)
    }

    @Test("members of the wrong type are an invalid request", arguments: [
        #"{"jsonrpc":"2.0","id":true,"method":"status"}"#,
        #"{"jsonrpc":"2.0","id":{"n":1},"method":"status"}"#,
        #"{"jsonrpc":"2.0","id":[1],"method":"status"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":7}"#,
        #"{"jsonrpc":"2.0","id":1,"error":"failed"}"#,
    ])
    func wrongMemberTypes(json: String) {
        #expect(decodingError(json)?.code == RPCErrorCode.invalidRequest)
    }

    @Test("a request with empty params is the encoder's bytes", arguments: [
        RequestID.number(7), .number(-3), .string("h1"), .string("a \"quoted\" id"), .decimal(Decimal(string: "1.5")!),
    ])
    func emptyParamsRequest(id: RequestID) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        struct Reference: Encodable {
            var id: RequestID
            var jsonrpc = "2.0"
            var method: String
            var params: [String: String] = [:]
        }
        for method in ["status", "passLibrary/passes", "say \"hi\""] {
            var expected = try encoder.encode(Reference(id: id, method: method))
            expected.append(0x0A)
            #expect(try WireCodec().request(id: id, method: method, params: NoParams()) == expected)
            #expect(try WireCodec().request(id: id, method: method, params: JSONValue.object([:])) == expected)
        }
    }

    @Test("a number id that is not an Int goes back as it came", arguments: [
        "123456789012345678901234567890", "-9223372036854775809", "1.5",
    ])
    func numberIDsRoundTrip(id: String) throws {
        let codec = WireCodec()
        guard case .request(let decoded, _, _) = try codec.decode(Data(#"{"jsonrpc":"2.0","id":\#(id),"method":"status"}"#.utf8)) else {
            Issue.record("not a request")
            return
        }
        let line = String(decoding: try codec.response(id: decoded, result: NullResult()), as: UTF8.self)
        #expect(line.hasPrefix(#"{"id":\#(id),"#), "\(line)")
    }

    @Test("the id of a message whose other members are malformed is kept, so the host can answer it")
    func idKeptWhenAnotherMemberIsMalformed() {
        // Gap in WireMessage.swift: Envelope's `field` helper throws without the id that was
        // already decoded, so a request with a wrong-typed "method" cannot be answered by id
        // (DESIGN.md section 6: a malformed line is answered). See the final report for the fix.
        #expect(decodingError(#"{"jsonrpc":"2.0","id":5,"method":7}"#)?.id == .number(5))
    }

    // MARK: Ids

    @Test("string and number ids decode as themselves and are different ids")
    func stringAndNumberIDs() throws {
        let numberID = try #require(try codec.decode(Data(#"{"jsonrpc":"2.0","id":1,"method":"status"}"#.utf8)).request?.id)
        let stringID = try #require(try codec.decode(Data(#"{"jsonrpc":"2.0","id":"1","method":"status"}"#.utf8)).request?.id)
        #expect(numberID == .number(1))
        #expect(stringID == .string("1"))
        #expect(numberID != stringID)
        #expect(text(try codec.response(id: .string("watch-1"), result: true)) == #"{"id":"watch-1","jsonrpc":"2.0","result":true}"# + "\n")
        #expect(text(try codec.response(id: .number(-3), result: false)) == #"{"id":-3,"jsonrpc":"2.0","result":false}"# + "\n")
    }

    @Test("a method with a null id is a notification")
    func nullIDIsNotification() throws {
        let message = try codec.decode(Data(#"{"jsonrpc":"2.0","id":null,"method":"exit"}"#.utf8))
        let method = try #require(message.notification?.method, "expected a notification, got \(message)")
        #expect(method == WireMethod.exit)
    }

    // MARK: Messages for people

    @Test("decoding errors name the missing key and where it is")
    func describeNamesMissingKey() throws {
        let line = Data(#"{"jsonrpc":"2.0","id":1,"result":{"entries":[{"identifier":"c","title":"t","art":{"png":""},"addRequestConfiguration":{"encryptionScheme":"ECC_V2","cardDetails":[],"productIdentifiers":[],"requiresFelicaSecureElement":false}}]}}"#.utf8)
        #expect {
            try codec.result(PassEntriesResult.self, from: line)
        } throws: { error in
            guard let error = error as? WireDecodingError else { return false }
            return error.reason == #"invalid result: missing key "style" in result.entries[0].addRequestConfiguration"#
        }
    }

    @Test("decoding errors name a key of the wrong type")
    func describeNamesWrongType() throws {
        let line = Data(#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"one"}}"#.utf8)
        #expect {
            try codec.params(InitializeParams.self, from: line)
        } throws: { error in
            guard let error = error as? WireDecodingError else { return false }
            return error.code == RPCErrorCode.invalidParams && error.reason.contains("protocolVersion") && error.reason.contains("Int")
        }
    }

    @Test("describe() renders keyNotFound at top level without a path")
    func describeTopLevel() {
        let context = DecodingError.Context(codingPath: [], debugDescription: "")
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        let error = DecodingError.keyNotFound(Key(stringValue: "title"), context)
        #expect(WireCodec.describe(error) == #"missing key "title""#)
    }
}

extension WireMessage {
    /// A request's id, method and line; nil for any other message, so that `#require` stops a
    /// test that decoded something else.
    var request: (id: RequestID, method: String, line: Data)? {
        guard case .request(let id, let method, let line) = self else { return nil }
        return (id, method, line)
    }

    /// A notification's method and line; nil for any other message.
    var notification: (method: String, line: Data)? {
        guard case .notification(let method, let line) = self else { return nil }
        return (method, line)
    }

    /// A response's id and line; nil for any other message.
    var response: (id: RequestID, line: Data)? {
        guard case .response(let id, let line) = self else { return nil }
        return (id, line)
    }

    /// An error response's id (nil for `"id":null`) and error; nil for any other message.
    var errorResponse: (id: RequestID?, error: RPCErrorObject)? {
        guard case .errorResponse(let id, let error) = self else { return nil }
        return (id, error)
    }
}
