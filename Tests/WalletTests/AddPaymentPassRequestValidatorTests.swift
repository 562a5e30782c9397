import Foundation
import Testing
import Wallet
import WalletWire

@Suite("Add payment pass request validation")
struct AddPaymentPassRequestValidatorTests {
    private let validator = AddPaymentPassRequestValidator()
    private static let point = Data([0x04] + [UInt8](repeating: 0xAB, count: 64))

    private func eccRequest(_ change: (inout AddPaymentPassRequestResult) -> Void = { _ in }) -> AddPaymentPassRequestResult {
        var request = AddPaymentPassRequestResult(activationData: Data("activation".utf8), encryptedPassData: Data("card".utf8),
                                                  ephemeralPublicKey: Self.point)
        change(&request)
        return request
    }

    private func rsaRequest(_ change: (inout AddPaymentPassRequestResult) -> Void = { _ in }) -> AddPaymentPassRequestResult {
        var request = AddPaymentPassRequestResult(activationData: Data("activation".utf8), encryptedPassData: Data("card".utf8),
                                                  wrappedKey: Data(repeating: 7, count: 256))
        change(&request)
        return request
    }

    private func onlyFinding(_ request: AddPaymentPassRequestResult?, scheme: String = "ECC_V2") throws -> EntryFinding {
        let findings = validator.validate(request, encryptionScheme: scheme, entryIdentifier: "card-4242")
        #expect(findings.count == 1, "\(findings)")
        return try #require(findings.first)
    }

    @Test("valid ECC_V2 and RSA_V2 requests have no finding")
    func validRequests() {
        #expect(validator.validate(eccRequest(), encryptionScheme: "ECC_V2").isEmpty)
        #expect(validator.validate(rsaRequest(), encryptionScheme: "RSA_V2").isEmpty)
        #expect(validator.validate(eccRequest(), for: PassEntryFixtures.validEntry()).isEmpty)
    }

    @Test("a nil result is an error: the handler completed with nil")
    func nilResult() throws {
        let finding = try onlyFinding(nil)
        #expect(finding.field == "result")
        #expect(finding.severity == .error)
        #expect(finding.problem.contains("the handler completed with nil"))
        #expect(finding.entryIdentifier == "card-4242")
    }

    @Test("encryptedPassData missing or empty is an error naming the field", arguments: [nil, Data()])
    func encryptedPassData(value: Data?) throws {
        let finding = try onlyFinding(eccRequest { $0.encryptedPassData = value })
        #expect(finding.field == "encryptedPassData")
        #expect(finding.severity == .error)
        #expect(finding.problem.hasPrefix("encryptedPassData is \(value == nil ? "missing" : "empty")"))
    }

    @Test("activationData missing or empty is an error naming the field", arguments: [nil, Data()])
    func activationData(value: Data?) throws {
        let finding = try onlyFinding(rsaRequest { $0.activationData = value }, scheme: "RSA_V2")
        #expect(finding.field == "activationData")
        #expect(finding.severity == .error)
        #expect(finding.problem.hasPrefix("activationData is"))
    }

    @Test("ECC_V2 without an ephemeral public key is an error", arguments: [nil, Data()])
    func missingEphemeralKey(value: Data?) throws {
        let finding = try onlyFinding(eccRequest { $0.ephemeralPublicKey = value })
        #expect(finding.field == "ephemeralPublicKey")
        #expect(finding.severity == .error)
    }

    @Test("ECC_V2 with a key that is not a 65-byte uncompressed point is an error naming what it got", arguments: [
        (Data([0x02] + [UInt8](repeating: 1, count: 32)), "33 bytes starting 0x02: a compressed point"),
        (Data([0x03] + [UInt8](repeating: 1, count: 32)), "33 bytes starting 0x03: a compressed point"),
        (Data([0x04] + [UInt8](repeating: 1, count: 96)), "97 bytes starting 0x04: an uncompressed point of the wrong length"),
        (Data([0x30] + [UInt8](repeating: 1, count: 90)), "91 bytes starting 0x30: not an EC point"),
        (Data([0x00] + [UInt8](repeating: 1, count: 64)), "65 bytes starting 0x00"),
    ])
    func badPoint(key: Data, expected: String) throws {
        let finding = try onlyFinding(eccRequest { $0.ephemeralPublicKey = key })
        #expect(finding.field == "ephemeralPublicKey")
        #expect(finding.severity == .error)
        #expect(finding.problem.contains(expected), "\(finding.problem)")
    }

    @Test("RSA_V2 without a wrapped key is an error", arguments: [nil, Data()])
    func missingWrappedKey(value: Data?) throws {
        let finding = try onlyFinding(rsaRequest { $0.wrappedKey = value }, scheme: "RSA_V2")
        #expect(finding.field == "wrappedKey")
        #expect(finding.severity == .error)
    }

    @Test("the other scheme's key as well is a warning, not an error")
    func otherSchemesKey() throws {
        let ecc = try onlyFinding(eccRequest { $0.wrappedKey = Data([1, 2, 3]) })
        #expect(ecc.field == "wrappedKey")
        #expect(ecc.severity == .warning)
        let rsa = try onlyFinding(rsaRequest { $0.ephemeralPublicKey = Self.point }, scheme: "RSA_V2")
        #expect(rsa.field == "ephemeralPublicKey")
        #expect(rsa.severity == .warning)
        #expect(![rsa].containsErrors)
    }

    @Test("an unknown scheme is an error on the configuration's encryptionScheme")
    func unknownScheme() throws {
        let finding = try onlyFinding(eccRequest(), scheme: "EV_ECC_V2")
        #expect(finding.field == "addRequestConfiguration.encryptionScheme")
        #expect(finding.severity == .error)
    }

    @Test("every problem of one request is reported; the entry's identifier names them")
    func severalProblems() {
        let findings = validator.validate(AddPaymentPassRequestResult(), for: PassEntryFixtures.validEntry("card-9"))
        #expect(findings.map(\.field) == ["encryptedPassData", "activationData", "ephemeralPublicKey"])
        #expect(findings.allSatisfy { $0.severity == .error && $0.entryIdentifier == "card-9" && $0.entryIndex == nil })
        #expect(findings[0].description == "error: card-9: encryptedPassData: encryptedPassData is missing; Wallet needs it to add the card")
    }

    @Test("a request finding made without an identifier leaves the entry out of its line")
    func descriptionWithoutIdentifier() throws {
        let finding = try #require(validator.validate(nil, encryptionScheme: "ECC_V2").first)
        #expect(finding.description == "error: result: the handler completed with nil, so Wallet does not add the card")
    }
}
