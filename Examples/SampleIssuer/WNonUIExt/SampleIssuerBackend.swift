import ExampleIssuerBackend
import PassKit

/// Stands in for the issuer's server, which knows each card's number and encrypts it for the
/// leaf certificate Wallet sent. `ECC_V2` cards are encrypted for real (ECDH P-256, the
/// single-step KDF, AES-256-GCM; ``ECCV2Encryption``), so the host decrypts them and checks the
/// number, expiration, name, nonce and signature. `RSA_V2`'s scheme is not public: its bytes
/// are made up, well formed and deterministic, and the host checks their shape only.
enum SampleIssuerBackend {
    /// The card numbers the issuer's server holds, by account: test numbers that pass the Luhn
    /// check. Never in the App Group: the app and the extensions only know the last four digits.
    static let primaryAccountNumbers = [
        "FPANID-SAMPLE-VISA-4242": "4242424242424242",
        "FPANID-SAMPLE-MC-5454": "5454545454545454",
        "FPANID-SAMPLE-AMEX-1005": "371449635301005",
    ]

    /// The add request for `credential`: activation data, encrypted pass data, and the
    /// scheme's key material (ECC_V2: the ephemeral public key, 65 bytes uncompressed;
    /// RSA_V2: a 256-byte wrapped AES key, as for a 2048-bit RSA key). Nil when the card
    /// cannot be encrypted (no number on file, a leaf that is not P-256).
    static func addPaymentPassRequest(for credential: ProvisioningCredential, certificateChain: [Data],
                                      nonce: Data, nonceSignature: Data) -> PKAddPaymentPassRequest? {
        let seed = Data(credential.primaryAccountIdentifier.utf8) + nonce + (certificateChain.first ?? Data())
        var keystream = Keystream(seed: seed)
        let request = PKAddPaymentPassRequest()
        request.activationData = keystream.bytes(32)
        if credential.encryptionScheme == PKEncryptionScheme.RSA_V2.rawValue {
            request.encryptedPassData = keystream.bytes(160)
            request.wrappedKey = keystream.bytes(256)
            return request
        }
        guard let number = primaryAccountNumbers[credential.primaryAccountIdentifier], let leaf = certificateChain.first else {
            log.error("no card number or no leaf certificate for \(credential.primaryAccountIdentifier, privacy: .public)")
            return nil
        }
        let payload = ECCV2Encryption.Payload(primaryAccountNumber: number, expiration: credential.expiration,
                                              name: credential.cardholderName, nonce: nonce, nonceSignature: nonceSignature)
        do {
            let sealed = try ECCV2Encryption.seal(payload, leafCertificate: leaf)
            request.encryptedPassData = sealed.encryptedPassData
            request.ephemeralPublicKey = sealed.ephemeralPublicKey
        } catch {
            log.error("cannot encrypt \(credential.primaryAccountIdentifier, privacy: .public): \(error, privacy: .public)")
            return nil
        }
        return request
    }
}

/// A deterministic byte stream: SplitMix64 seeded with the FNV-1a hash of the seed bytes.
/// Not cryptography; it only makes fake data that looks random and is reproducible.
private struct Keystream {
    private var state: UInt64
    private var buffer: [UInt8] = []

    init(seed: Data) {
        state = seed.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }

    mutating func nextByte() -> UInt8 {
        if buffer.isEmpty {
            state &+= 0x9e37_79b9_7f4a_7c15
            var mixed = state
            mixed = (mixed ^ (mixed >> 30)) &* 0xbf58_476d_1ce4_e5b9
            mixed = (mixed ^ (mixed >> 27)) &* 0x94d0_49bb_1331_11eb
            mixed ^= mixed >> 31
            buffer = withUnsafeBytes(of: mixed.littleEndian, Array.init)
        }
        return buffer.removeLast()
    }

    mutating func bytes(_ count: Int) -> Data {
        Data((0..<count).map { _ in nextByte() })
    }
}
