import Foundation
import Testing
import WalletWire

/// The examples in docs/PROTOCOL.md are part of the contract: every line of every
/// ```` ```json wire ```` block must decode into the WalletWire type of its method, and
/// must be exactly what WireCodec writes for that value (so a misspelled optional
/// field, which decoding alone would silently ignore, is caught too).
@Suite("docs/PROTOCOL.md examples")
struct ProtocolDocumentTests {
    static let wireTag = "json wire"

    /// Every method constant of ``WireMethod``; each must be documented with an example.
    static let allMethods = WireMethod.all

    /// How to decode the params and the result of one method.
    struct Shape: Sendable {
        var params: @Sendable (WireCodec, Data) throws -> any Encodable
        /// `nil` for notifications: they have no response.
        var result: (@Sendable (WireCodec, Data) throws -> any Encodable)?

        static func request<Params: Codable & Sendable, Result: Codable & Sendable>(_: Params.Type, _: Result.Type) -> Shape {
            Shape(params: { codec, line in try codec.params(Params.self, from: line) },
                  result: { codec, line in try codec.result(Result.self, from: line) })
        }

        static func notification<Params: Codable & Sendable>(_: Params.Type) -> Shape {
            Shape(params: { codec, line in try codec.params(Params.self, from: line) }, result: nil)
        }
    }

    static let shapes: [String: Shape] = [
        WireMethod.initialize: .request(InitializeParams.self, InitializeResult.self),
        WireMethod.status: .request(NoParams.self, StatusResult.self),
        WireMethod.passEntries: .request(NoParams.self, PassEntriesResult.self),
        WireMethod.remotePassEntries: .request(NoParams.self, PassEntriesResult.self),
        WireMethod.generateAddPaymentPassRequest: .request(GenerateAddPaymentPassRequestParams.self,
                                                           AddPaymentPassRequestResult?.self),
        WireMethod.authorize: .request(NoParams.self, AuthorizeResult.self),
        WireMethod.shutdown: .request(NoParams.self, NullResult.self),
        WireMethod.exit: .notification(NoParams.self),
        WireMethod.cancelRequest: .notification(CancelRequestParams.self),
        WireMethod.passLibraryPasses: .request(PassLibraryPassesParams.self, [WireSecureElementPass].self),
        WireMethod.watchIsPaired: .request(NoParams.self, Bool.self),
        WireMethod.uiPrompt: .request(UIPromptParams.self, UIPromptResult.self),
        WireMethod.uiBiometric: .request(UIBiometricParams.self, UIBiometricResult.self),
        WireMethod.log: .notification(LogParams.self),
    ]

    /// What checking the wire examples found: what they cover and what is wrong with them.
    struct Findings {
        var methods: Set<String> = []
        var responses: Set<String> = []
        var errorCodes: Set<Int> = []
        var errors: Set<RPCErrorObject> = []
        /// Methods with an example response whose result is `null`.
        var nullResults: Set<String> = []
        /// One entry per bad line, naming the block and the line.
        var problems: [String] = []
    }

    /// Checks every ```` ```json wire ```` block of the document.
    static func checkDocument() throws -> Findings {
        var findings = Findings()
        for block in try ProtocolDocument().blocks(tagged: wireTag) {
            check(block, findings: &findings)
        }
        return findings
    }

    @Test("the document has wire examples")
    func documentHasExamples() throws {
        let blocks = try ProtocolDocument().blocks(tagged: Self.wireTag)
        #expect(blocks.count >= 15)
        for block in blocks {
            #expect(!block.lines.isEmpty, "\(block.name(tag: Self.wireTag)) is empty")
        }
    }

    @Test("every example line decodes into its WalletWire type and is in WireCodec's form")
    func everyExampleDecodes() throws {
        for problem in try Self.checkDocument().problems {
            Issue.record(Comment(rawValue: problem))
        }
    }

    @Test("every WireMethod constant has an example, with a response for every request method")
    func everyMethodHasAnExample() throws {
        let findings = try Self.checkDocument()
        for method in Self.allMethods {
            #expect(findings.methods.contains(method), "PROTOCOL.md has no `json wire` example of \(method)")
            if Self.shapes[method]?.result != nil {
                #expect(findings.responses.contains(method), "PROTOCOL.md has no example response to \(method)")
            }
        }
        #expect(Set(Self.shapes.keys) == Set(Self.allMethods), "the test's method table is out of date")
        #expect(findings.errorCodes.contains(RPCErrorCode.requestCancelled), "no example of a cancelled request")
        #expect(findings.errorCodes.contains(RPCErrorCode.methodNotFound), "no example of methodNotFound")
    }

    @Test("the examples show a null add-payment-pass result and the versions an extension supports")
    func specificExamples() throws {
        let findings = try Self.checkDocument()
        #expect(findings.nullResults.contains(WireMethod.generateAddPaymentPassRequest))
        #expect(findings.nullResults.contains(WireMethod.shutdown))
        #expect(findings.errors.contains(RPCErrorObject(
            code: RPCErrorCode.unsupportedProtocolVersion, message: "unsupported protocol version 2",
            data: .object(["supported": .array([.integer(WireProtocol.version)])]))))
    }

    // MARK: Checking one block

    /// Adds to `findings` what `block` covers, and a problem naming the block and line for
    /// every line that does not decode or is not in WireCodec's form.
    static func check(_ block: ProtocolDocument.Block, findings: inout Findings) {
        let codec = WireCodec()
        let blockName = block.name(tag: wireTag)
        // Responses are matched to the request with the same id earlier in the same block.
        var methodsByRequestID: [RequestID: String] = [:]
        for (lineNumber, text) in block.lines {
            let place = "\(blockName), line PROTOCOL.md:\(lineNumber)"
            let line = Data(text.utf8)
            do {
                let canonical: Data
                switch try codec.decode(line) {
                case .request(let id, let method, _):
                    guard let shape = shapes[method], shape.result != nil else {
                        findings.problems.append("\(place): \(method) is not a request method of WalletWire")
                        continue
                    }
                    canonical = try codec.request(id: id, method: method, params: shape.params(codec, line))
                    methodsByRequestID[id] = method
                    findings.methods.insert(method)
                case .notification(let method, _):
                    guard let shape = shapes[method], shape.result == nil else {
                        findings.problems.append("\(place): \(method) is not a notification method of WalletWire")
                        continue
                    }
                    canonical = try codec.notification(method: method, params: shape.params(codec, line))
                    findings.methods.insert(method)
                case .response(let id, _):
                    guard let method = methodsByRequestID[id], let decodeResult = shapes[method]?.result else {
                        findings.problems.append("\(place): a response to id \(id), but no request with that id precedes it in the block")
                        continue
                    }
                    canonical = try codec.response(id: id, result: decodeResult(codec, line))
                    findings.responses.insert(method)
                    if try codec.result(JSONValue.self, from: line) == .null {
                        findings.nullResults.insert(method)
                    }
                case .errorResponse(let id, let error):
                    if let id, methodsByRequestID[id] == nil {
                        findings.problems.append("\(place): an error response to id \(id), but no request with that id precedes it in the block")
                    }
                    canonical = try codec.errorResponse(id: id, error: error)
                    findings.errorCodes.insert(error.code)
                    findings.errors.insert(error)
                }
                let expected = String(decoding: canonical.dropLast(), as: UTF8.self)
                if text != expected {
                    findings.problems.append("""
                        \(place): not in the form WireCodec writes (a misspelled, extra or out-of-order field?)
                          document: \(text)
                          WireCodec: \(expected)
                        """)
                }
            } catch let error as WireDecodingError {
                findings.problems.append("\(place): \(error.reason)")
            } catch {
                findings.problems.append("\(place): \(error)")
            }
        }
    }
}

/// A result that must be JSON `null` (the result of `shutdown`).
struct NullResult: Codable {
    init() {}

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard container.decodeNil() else {
            throw DecodingError.typeMismatch(NullResult.self, .init(codingPath: decoder.codingPath,
                                                                   debugDescription: "expected null"))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }
}
