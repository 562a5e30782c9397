import Foundation
import Testing
import Wallet
import WalletWire

/// ECC_V2 verification: a known answer computed outside OpenSSL (pure Python, cross-checked with
/// the `cryptography` package), and the payload's rules on requests encrypted here.
@Suite("Pass data verifier")
struct PassDataVerifierTests {
    // The known answer: leaf and ephemeral keys from SHA-256 of fixed phrases.
    static let leafKeyPEM = """
        -----BEGIN PRIVATE KEY-----
        MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgqAgQ/GPtL19E1zh6
        sZ6bfzMu1FtaSEK/cUP4DEsGgMWhRANCAATwCSLw+Kf06Uw9zjWj15m4nO/0bbnq
        TGv4PQk1NHMCJBrnFW5U2NvTPAmBd9DeMpHLM6WWOzG72azOISlbIBAc
        -----END PRIVATE KEY-----
        """
    static let ephemeralPublicKey = hex("04a8437cd486ffb7b33627f1afdd4a2825e11d2edabaaa9792c62cb184f954a837e314c5822db971f015558569d86d850c6f0ed7ccef55332deb243d95079d6351")
    static let sharedSecret = hex("bab0baa580888587d05e5a7c17e987c77bdaf765b6eeb671252fa0ce1fd03c85")
    static let key = hex("48d812b5ec2a227a656d37eb76a8fa4ad7a5b581784f3151037ea390716c0f86")
    static let encryptedPassData = hex("957873e61e837b8ece53ff612210a5f2843bd04133c16e18f02614bbbe48caef136cf986b0db47786edf76404bc0dbc3beccb9126ef266455a8c9b7489338ef3046fbda2e411d9da82667ba747068d83d0e2c89b0e84d0cb516fb1a6578526968bf37535f109ab3fe1a2dca7b44b8c8e5e15e11af2980aa67c46bc0f7e8e3f6070ff821c1cf92dd292eddbc519c7f2fc4d275b913ed7e73ac4a2d5")
    static let knownNonce = hex("0a0b0c0d")
    static let knownSignature = hex("3045022100ff")

    static func hex(_ text: String) -> Data {
        Data(stride(from: 0, to: text.count, by: 2).map { offset in
            let start = text.index(text.startIndex, offsetBy: offset)
            return UInt8(text[start..<text.index(start, offsetBy: 2)], radix: 16)!
        })
    }

    @Test("known answer: ECDH, the single-step KDF and AES-256-GCM give the fixed shared secret, key and payload")
    func knownAnswer() throws {
        let leaf = try CryptoKey.privateKey(pem: Data(Self.leafKeyPEM.utf8), name: "the known-answer leaf key")
        let peer = try #require(CryptoKey.p256PublicKey(Self.ephemeralPublicKey))
        #expect(try leaf.sharedSecret(with: peer) == Self.sharedSecret)
        #expect(ECCV2Variant.key(sharedSecret: Self.sharedSecret, ephemeralPublicKey: Self.ephemeralPublicKey) == Self.key)
        let plaintext = try #require(Crypto.openAES256GCM(Self.encryptedPassData, key: Self.key, iv: Data(count: 12)))
        #expect(String(decoding: plaintext, as: UTF8.self).contains(#""name":"John Appleseed""#))

        let verifier = PassDataVerifier(scheme: "ECC_V2", leafKey: leaf, intermediateKey: nil)
        let request = AddPaymentPassRequestResult(activationData: Data([1]), encryptedPassData: Self.encryptedPassData,
                                                  ephemeralPublicKey: Self.ephemeralPublicKey)
        let verification = verifier.verify(request, expecting: .init(nonce: Self.knownNonce, nonceSignature: Self.knownSignature,
                                                                     primaryAccountSuffix: "4242", cardholderName: "John Appleseed",
                                                                     now: Self.date(2026, 1)))
        #expect(verification.status == .verified, "\(verification.problems)")
        #expect(verification.payload?.primaryAccountNumber == "•••• 4242")
        #expect(verification.payload?.nonceMatches == true && verification.payload?.nonceSignatureMatches == true)
        // The card number never appears in what the host writes.
        let encoded = String(decoding: try JSONEncoder().encode(verification), as: UTF8.self)
        #expect(!encoded.contains("4242424242424242") && !verification.summary.contains("4242424242424242"))
    }

    @Test("a tag that was tampered with does not verify under any variant, and the card fails")
    func tamperedTag() throws {
        let leaf = try CryptoKey.privateKey(pem: Data(Self.leafKeyPEM.utf8), name: "the known-answer leaf key")
        var tampered = Self.encryptedPassData
        tampered[tampered.count - 1] ^= 0x01
        let request = AddPaymentPassRequestResult(activationData: Data([1]), encryptedPassData: tampered,
                                                  ephemeralPublicKey: Self.ephemeralPublicKey)
        let verification = PassDataVerifier(scheme: "ECC_V2", leafKey: leaf, intermediateKey: nil)
            .verify(request, expecting: .init(nonce: Self.knownNonce, nonceSignature: Self.knownSignature))
        #expect(verification.status == .failed)
        #expect(!verification.decrypted)
        #expect(verification.problems.first?.contains("does not verify under Apple's ECC_V2 recipe nor under any known variant") == true,
                "\(verification.problems)")
    }

    // MARK: Payload rules, on requests encrypted here for a real device PKI

    static let pki = Result { try DevicePKI.generate(schemes: ["ECC_V2", "RSA_V2"]) }

    /// A request for `material` whose payload is `fields` (nonce and signature as sent unless given).
    static func request(_ material: ProvisioningMaterial, pki: DevicePKI, fields: [String: String]) throws -> AddPaymentPassRequestResult {
        var payload = ["primaryAccountNumber": "4242424242424242", "expiration": "11/39", "name": "John Appleseed",
                       "nonce": material.nonce.map { String(format: "%02x", $0) }.joined(),
                       "nonceSignature": material.nonceSignature.map { String(format: "%02x", $0) }.joined()]
        payload.merge(fields) { $1 }
        let ephemeral = try CryptoKey.generateP256()
        let leafPublic = try #require(CryptoKey.p256PublicKey(try pki.leaves["ECC_V2"]!.key.publicPoint()))
        let point = try ephemeral.publicPoint()
        let key = ECCV2Variant.key(sharedSecret: try ephemeral.sharedSecret(with: leafPublic), ephemeralPublicKey: point)
        let sealed = try Crypto.sealAES256GCM(try JSONSerialization.data(withJSONObject: payload), key: key, iv: Data(count: 12))
        return AddPaymentPassRequestResult(activationData: Data([1]), encryptedPassData: sealed, ephemeralPublicKey: point)
    }

    static func verify(_ fields: [String: String], earlierNonces: [Data] = []) throws -> PassDataVerification {
        let pki = try Self.pki.get()
        let material = try ProvisioningMaterial(issuedBy: pki, scheme: "ECC_V2")
        let request = try request(material, pki: pki, fields: fields)
        let verifier = try #require(PassDataVerifier(pki: pki, chain: material.certificateChain))
        return verifier.verify(request, expecting: .init(nonce: material.nonce, nonceSignature: material.nonceSignature,
                                                         primaryAccountSuffix: "4242", cardholderName: "John Appleseed",
                                                         earlierNonces: earlierNonces))
    }

    static func date(_ year: Int, _ month: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: year, month: month, day: 15))!
    }

    @Test("a payload that follows every rule verifies")
    func goodPayload() throws {
        let verification = try Self.verify([:])
        #expect(verification.status == .verified, "\(verification.problems)")
        #expect(verification.problems.isEmpty)
    }

    @Test("a replayed nonce (an earlier card's) is named as replayed")
    func replayedNonce() throws {
        let earlier = Data([0xde, 0xad, 0xbe, 0xef])
        let verification = try Self.verify(["nonce": "deadbeef"], earlierNonces: [earlier])
        #expect(verification.status == .failed)
        #expect(verification.payload?.nonceMatches == false)
        #expect(verification.problems.contains { $0.contains("encryptedPassData.nonce") && $0.contains("replayed nonce") },
                "\(verification.problems)")
    }

    @Test("a card number that does not end with the entry's suffix fails, masked")
    func wrongSuffix() throws {
        let verification = try Self.verify(["primaryAccountNumber": "5454545454545454"])
        #expect(verification.status == .failed)
        #expect(verification.problems.contains { $0.contains("•••• 5454 does not end with the entry's primaryAccountSuffix 4242") },
                "\(verification.problems)")
        #expect(!verification.problems.joined().contains("5454545454545454"))
    }

    @Test("a card number failing the Luhn check fails, masked")
    func luhn() throws {
        let verification = try Self.verify(["primaryAccountNumber": "4242424242424241", "nonce": "00"])
        #expect(verification.problems.contains { $0.contains("fails the Luhn check") }, "\(verification.problems)")
        #expect(!verification.problems.joined().contains("4242424242424241"))
    }

    @Test("an expired card, an expiration not MM/YY, a missing name fail; another name is a warning",
          arguments: [(["expiration": "01/20"], "is in the past", true), (["expiration": "2028-11"], "is not MM/YY", true),
                      (["name": ""], "name is empty", true), (["name": "J. Appleseed"], "differs from the entry's cardholderName", false)])
    func payloadRules(fields: [String: String], problem: String, isError: Bool) throws {
        let verification = try Self.verify(fields)
        #expect(verification.status == (isError ? .failed : .verified), "\(verification.problems)")
        #expect(verification.problems.contains { $0.contains(problem) }, "\(verification.problems)")
    }

    @Test("RSA_V2 is checked by shape only, and says so")
    func rsaShapeOnly() throws {
        let pki = try Self.pki.get()
        let material = try ProvisioningMaterial(issuedBy: pki, scheme: "RSA_V2")
        let verifier = try #require(PassDataVerifier(pki: pki, chain: material.certificateChain))
        let verification = verifier.verify(AddPaymentPassRequestResult(activationData: Data([1]), encryptedPassData: Data([2]),
                                                                       wrappedKey: Data([3])),
                                           expecting: .init(nonce: material.nonce, nonceSignature: material.nonceSignature))
        #expect(verification.status == .shapeOnly)
        #expect(verification.summary.contains("shape only"))
    }
}
