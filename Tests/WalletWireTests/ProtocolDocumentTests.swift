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
        var params: @Sendable (Data) throws -> any Encodable & Sendable
        /// `nil` for notifications: they have no response.
        var result: (@Sendable (Data) throws -> any Encodable & Sendable)?

        /// A request of the method table, decoded with the table's own types.
        static func request(_ method: some WireMethodDescribing) -> Shape {
            Shape(params: { line in try method.decodeAnyParams(fromRequest: line) },
                  result: { line in try method.decodeAnyResult(fromResponse: line) })
        }

        /// A request outside the method table (an extension -> host service).
        static func service<Params: Codable & Sendable, Result: Codable & Sendable>(_: Params.Type, _: Result.Type) -> Shape {
            Shape(params: { line in try WireCodec().params(Params.self, from: line) },
                  result: { line in try WireCodec().result(Result.self, from: line) })
        }

        static func notification<Params: Codable & Sendable>(_: Params.Type) -> Shape {
            Shape(params: { line in try WireCodec().params(Params.self, from: line) }, result: nil)
        }
    }

    /// The host -> extension requests come from ``WireMethods``; the rest of the protocol
    /// (notifications and host services) is listed here.
    static let shapes: [String: Shape] = Dictionary(
        WireMethods.all.map { ($0.name, Shape.request($0)) } + [
            (WireMethod.exit, .notification(NoParams.self)),
            (WireMethod.cancelRequest, .notification(CancelRequestParams.self)),
            (WireMethod.passLibraryPasses, .service(PassLibraryPassesParams.self, [WireSecureElementPass].self)),
            (WireMethod.watchIsPaired, .service(NoParams.self, Bool.self)),
            (WireMethod.uiPrompt, .service(UIPromptParams.self, UIPromptResult.self)),
            (WireMethod.uiBiometric, .service(UIBiometricParams.self, UIBiometricResult.self)),
            (WireMethod.log, .notification(LogParams.self)),
            (WireMethod.keychainAdd, .service(KeychainAddParams.self, KeychainResult.self)),
            (WireMethod.keychainCopyMatching, .service(KeychainCopyMatchingParams.self, KeychainResult.self)),
            (WireMethod.keychainUpdate, .service(KeychainUpdateParams.self, KeychainResult.self)),
            (WireMethod.keychainDelete, .service(KeychainDeleteParams.self, KeychainResult.self)),
        ],
        uniquingKeysWith: { table, _ in table })

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

    @Test("every method of the table has an example request and result that decode with its types")
    func everyTableMethodHasAnExample() throws {
        let findings = try Self.checkDocument()
        for method in WireMethods.all {
            #expect(findings.methods.contains(method.name), "PROTOCOL.md has no `json wire` example request of \(method.name)")
            #expect(findings.responses.contains(method.name), "PROTOCOL.md has no `json wire` example result of \(method.name)")
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
        #expect(Set(Self.shapes.keys) == Set(Self.allMethods), "the test's list of services and notifications is out of date")
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
                    canonical = try codec.request(id: id, method: method, params: shape.params(line))
                    methodsByRequestID[id] = method
                    findings.methods.insert(method)
                case .notification(let method, _):
                    guard let shape = shapes[method], shape.result == nil else {
                        findings.problems.append("\(place): \(method) is not a notification method of WalletWire")
                        continue
                    }
                    canonical = try codec.notification(method: method, params: shape.params(line))
                    findings.methods.insert(method)
                case .response(let id, _):
                    guard let method = methodsByRequestID[id], let decodeResult = shapes[method]?.result else {
                        findings.problems.append("\(place): a response to id \(id), but no request with that id precedes it in the block")
                        continue
                    }
                    canonical = try codec.response(id: id, result: decodeResult(line))
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
