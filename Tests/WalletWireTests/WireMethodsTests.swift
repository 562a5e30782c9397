import Foundation
import Testing
import WalletWire

@Suite("WireMethods: the method table")
struct WireMethodsTests {
    /// The JSON of an encodable value, keys sorted, as WireCodec writes it.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The error of decoding `result` as `method`'s result, failing the test when it decodes.
    static func resultError(_ method: some WireMethodDescribing, _ result: String) -> WireDecodingError? {
        let line = Data(#"{"id":1,"jsonrpc":"2.0","result":\#(result)}"#.utf8)
        do {
            let value = try method.decodeAnyResult(fromResponse: line)
            Issue.record("\(method.name) decoded \(result) as \(value), expected an error")
            return nil
        } catch {
            return error
        }
    }

    // MARK: The table

    @Test("every name is unique and is a WireMethod constant")
    func namesAreUnique() {
        let names = WireMethods.all.map(\.name)
        #expect(Set(names).count == names.count, "duplicate names in \(names)")
        for name in names {
            #expect(WireMethod.all.contains(name), "\(name) is not a WireMethod constant")
        }
    }

    @Test("lookup by name finds each entry and nothing else")
    func lookupByName() throws {
        for method in WireMethods.all {
            let found = try #require(WireMethods.named(method.name))
            #expect(found.name == method.name)
            #expect(found.role == method.role)
        }
        #expect(WireMethods.named("teleport") == nil)
        #expect(WireMethods.named("Status") == nil, "names are case-sensitive")
        #expect(WireMethods.named(WireMethod.exit) == nil, "notifications are not requests of the table")
        #expect(WireMethods.named(WireMethod.passLibraryPasses) == nil, "services go extension -> host")
    }

    @Test("each role's calls, in the order an extension lists them")
    func callsByRole() {
        #expect(WireMethods.calls(for: .nonUI).map(\.name)
                == ["status", "passEntries", "remotePassEntries", "generateAddPaymentPassRequest"])
        #expect(WireMethods.calls(for: .ui).map(\.name) == ["authorize"])
        #expect(WireMethods.calls(for: .lifecycle).map(\.name) == ["initialize", "shutdown"])
    }

    @Test("a role and its extension point name each other")
    func rolesAndExtensionPoints() {
        #expect(WireMethodRole(extensionPoint: WalletExtensionPoint.nonUI) == .nonUI)
        #expect(WireMethodRole(extensionPoint: WalletExtensionPoint.authorization) == .ui)
        #expect(WireMethodRole(extensionPoint: "com.example.unknown") == nil)
        for role in WireMethodRole.allCases {
            if let point = role.extensionPoint {
                #expect(WireMethodRole(extensionPoint: point) == role)
            } else {
                #expect(role == .lifecycle)
            }
        }
    }

    @Test("the typed entries carry the documented types")
    func typedEntries() {
        #expect(WireMethods.status.name == WireMethod.status)
        #expect(type(of: WireMethods.generateAddPaymentPassRequest).Params.self == GenerateAddPaymentPassRequestParams.self)
        #expect(type(of: WireMethods.generateAddPaymentPassRequest).Result.self == AddPaymentPassRequestResult?.self)
        #expect(type(of: WireMethods.passEntries).Result.self == PassEntriesResult.self)
        #expect(type(of: WireMethods.shutdown).Result.self == NullResult.self)
    }

    // MARK: Decoding results

    @Test("a result line decodes once into the method's type")
    func decodesTypedResult() throws {
        let line = Data(#"{"id":2,"jsonrpc":"2.0","result":{"passEntriesAvailable":true,"remotePassEntriesAvailable":false,"requiresAuthentication":true}}"#.utf8)
        let status = try WireMethods.status.decodeResult(fromResponse: line)
        #expect(status == StatusResult(passEntriesAvailable: true, remotePassEntriesAvailable: false, requiresAuthentication: true))

        let looked = try #require(WireMethods.named("status"))
        let erased = try looked.decodeAnyResult(fromResponse: line)
        #expect(erased is StatusResult, "the existential holds the typed value, not JSON")
        #expect(try Self.json(erased) == #"{"passEntriesAvailable":true,"remotePassEntriesAvailable":false,"requiresAuthentication":true}"#)
    }

    @Test("a null add-payment-pass result decodes as nil and encodes as null")
    func nullResult() throws {
        let line = Data(#"{"id":5,"jsonrpc":"2.0","result":null}"#.utf8)
        #expect(try WireMethods.generateAddPaymentPassRequest.decodeResult(fromResponse: line) == nil)
        let erased = try WireMethods.generateAddPaymentPassRequest.decodeAnyResult(fromResponse: line)
        #expect(try Self.json(erased) == "null")
        #expect(try WireMethods.shutdown.decodeResult(fromResponse: line) == NullResult())
    }

    @Test("binary fields stay base64 when the decoded result is encoded again")
    func binaryFields() throws {
        let line = Data(#"{"id":5,"jsonrpc":"2.0","result":{"activationData":"YWN0aXZhdGlvbg==","encryptedPassData":"ZW5jcnlwdGVk"}}"#.utf8)
        let request = try #require(try WireMethods.generateAddPaymentPassRequest.decodeResult(fromResponse: line))
        #expect(request.activationData == Data("activation".utf8))
        let erased = try WireMethods.generateAddPaymentPassRequest.decodeAnyResult(fromResponse: line)
        #expect(try Self.json(erased) == #"{"activationData":"YWN0aXZhdGlvbg==","encryptedPassData":"ZW5jcnlwdGVk"}"#)
    }

    @Test("a result of the wrong shape is an error naming the bad key")
    func wrongShapes() throws {
        let missing = try #require(Self.resultError(WireMethods.status, #"{"passEntriesAvailable":true,"remotePassEntriesAvailable":false}"#))
        #expect(missing.reason.contains("\"requiresAuthentication\""), "\(missing.reason)")

        let mistyped = try #require(Self.resultError(WireMethods.passEntries, #"{"entries":[{"identifier":"card-1","title":7}]}"#))
        #expect(mistyped.reason.contains("entries[0].title"), "\(mistyped.reason)")

        let notAnObject = try #require(Self.resultError(WireMethods.authorize, #""authorized""#))
        #expect(notAnObject.reason.contains("invalid result"), "\(notAnObject.reason)")

        let notNull = try #require(Self.resultError(WireMethods.shutdown, "{}"))
        #expect(notNull.reason.contains("result: expected NullResult"), "\(notNull.reason)")

        let noResult = Data(#"{"id":1,"jsonrpc":"2.0"}"#.utf8)
        #expect(throws: WireDecodingError.self) { try WireMethods.authorize.decodeResult(fromResponse: noResult) }
    }

    // MARK: Decoding params

    @Test("params decode with the method's type; a missing params is {}; a bad one names its key")
    func decodesParams() throws {
        let bare = Data(#"{"id":2,"jsonrpc":"2.0","method":"status"}"#.utf8)
        #expect(try WireMethods.status.decodeParams(fromRequest: bare) == NoParams())

        let bad = Data(#"{"id":3,"jsonrpc":"2.0","method":"generateAddPaymentPassRequest","params":{"identifier":"card-1"}}"#.utf8)
        do {
            _ = try WireMethods.generateAddPaymentPassRequest.decodeParams(fromRequest: bad)
            Issue.record("params without a configuration decoded")
        } catch {
            #expect(error.code == RPCErrorCode.invalidParams)
            #expect(error.reason.contains("\"configuration\""), "\(error.reason)")
        }
    }
}
