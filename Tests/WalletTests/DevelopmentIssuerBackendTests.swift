import Foundation
import Testing
import Wallet
import WalletHostRuntime
import WalletWire

/// The development issuer backend: every mistake it makes on purpose is the one the verifier
/// names, its test cards pass the payload checks, and bad requests are named.
@Suite("Development issuer backend")
struct DevelopmentIssuerBackendTests {
    struct Device {
        let material: ProvisioningMaterial
        let verifier: PassDataVerifier
    }

    static func device() throws -> Device {
        let pki = try DevicePKI.generate(schemes: ["ECC_V2"])
        let material = try ProvisioningMaterial(issuedBy: pki, scheme: "ECC_V2")
        return Device(material: material, verifier: PassDataVerifier(scheme: "ECC_V2", leafKey: pki.leaves["ECC_V2"]!.key,
                                                                      intermediateKey: pki.intermediate.key))
    }

    static func post(_ body: [String: Any], to backend: DevelopmentIssuerBackend = .init()) throws -> HTTPResponse {
        let data = try JSONSerialization.data(withJSONObject: body)
        return backend.respond(to: HTTPRequest(method: "POST", target: "/requests", headers: [], body: data))
    }

    static func body(_ device: Device, suffix: String = "5454", mistake: String? = nil) -> [String: Any] {
        var body: [String: Any] = ["certificateChain": device.material.certificateChain.map { $0.base64EncodedString() },
                                   "nonce": device.material.nonce.base64EncodedString(),
                                   "nonceSignature": device.material.nonceSignature.base64EncodedString(),
                                   "primaryAccountSuffix": suffix, "cardholderName": "John Appleseed"]
        if let mistake { body["mistake"] = mistake }
        return body
    }

    @Test("each variant the backend seals is the one the verifier finds: Apple's recipe verifies, each mistake is named",
          arguments: ECCV2Variant.allCases)
    func sealedVariantIsFoundAgain(variant: ECCV2Variant) throws {
        let device = try Self.device()
        let response = try Self.post(Self.body(device, mistake: variant.rawValue))
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
        let request = try JSONDecoder().decode(AddPaymentPassRequestResult.self, from: response.body)
        let verification = device.verifier.verify(request, expecting: .init(
            nonce: device.material.nonce, nonceSignature: device.material.nonceSignature,
            primaryAccountSuffix: "5454", cardholderName: "John Appleseed"))
        #expect(verification.decrypted, "\(verification.problems)")
        if variant == .correct {
            #expect(verification.status == .verified, "\(verification.problems)")
            #expect(verification.variant == nil)
        } else {
            #expect(verification.status == .failed)
            #expect(verification.variant == variant.rawValue, "\(verification.problems)")
        }
        #expect(verification.payload?.primaryAccountNumber == "•••• 5454")
        #expect(verification.payload?.nonceMatches == true && verification.payload?.nonceSignatureMatches == true)
    }

    @Test("test card numbers end with the suffix asked for and pass the Luhn check", arguments: ["4242", "0", "5454", "1005", "123456789012"])
    func testCardNumbers(suffix: String) throws {
        let number = try #require(DevelopmentIssuerBackend.testCardNumber(endingWith: suffix))
        #expect(number.count == 16 && number.hasSuffix(suffix))
        var sum = 0
        for (index, digit) in number.reversed().compactMap(\.wholeNumberValue).enumerated() {
            sum += index.isMultiple(of: 2) ? digit : (digit * 2 > 9 ? digit * 2 - 9 : digit * 2)
        }
        #expect(sum % 10 == 0, "\(number)")
        #expect(DevelopmentIssuerBackend.testCardNumber(endingWith: "12a4") == nil)
        #expect(DevelopmentIssuerBackend.testCardNumber(endingWith: "1234567890123") == nil)
    }

    @Test("bad requests are answered with the field named: missing chain, unknown mistake, bad suffix, a chain with no P-256 key")
    func badRequestsNameTheField() throws {
        let device = try Self.device()
        var missing = Self.body(device)
        missing["certificateChain"] = nil
        let cases: [([String: Any], Int, String)] = [
            (missing, 400, "certificateChain"),
            (Self.body(device, mistake: "x964-kdf"), 400, "mistake: x964-kdf is not one of correct, x963-kdf"),
            (Self.body(device, suffix: "12-34"), 400, "primaryAccountSuffix: 12-34 is not 1 to 12 digits"),
            (Self.body(device).merging(["certificateChain": [Data("not DER".utf8).base64EncodedString()]]) { $1 }, 422,
             "certificateChain: cannot encrypt for it"),
        ]
        for (body, status, text) in cases {
            let response = try Self.post(body)
            let message = String(decoding: response.body, as: UTF8.self)
            #expect(response.status == status, "\(message)")
            #expect(message.contains(text), "\(message)")
        }
        let backend = DevelopmentIssuerBackend()
        #expect(backend.respond(to: HTTPRequest(method: "GET", target: "/requests", headers: [], body: Data())).status == 405)
        #expect(backend.respond(to: HTTPRequest(method: "GET", target: "/elsewhere", headers: [], body: Data())).status == 404)
        let mistakes = backend.respond(to: HTTPRequest(method: "GET", target: "/mistakes?x=1", headers: [], body: Data()))
        #expect(mistakes.status == 200 && String(decoding: mistakes.body, as: UTF8.self).contains("x963-kdf"))
    }
}
