import PassKit

/// Stands in for the issuer's server, which would encrypt the card for the leaf
/// certificate's public key. The bytes here are fake but well formed and deterministic:
/// the same card, nonce and certificate give the same request.
enum SampleIssuerBackend {
    /// The add request for `credential`: activation data, encrypted pass data, and the
    /// scheme's key material (ECC_V2: a 65-byte uncompressed point starting 0x04;
    /// RSA_V2: a 256-byte wrapped AES key, as for a 2048-bit RSA key).
    static func addPaymentPassRequest(for credential: ProvisioningCredential, certificateChain: [Data],
                                      nonce: Data, nonceSignature: Data) -> PKAddPaymentPassRequest {
        let seed = Data(credential.primaryAccountIdentifier.utf8) + nonce + (certificateChain.first ?? Data())
        var keystream = Keystream(seed: seed)

        // The JSON Wallet's servers expect inside encryptedPassData (In-App Provisioning
        // configuration 2, FPAN ID), "encrypted" here by XOR with the keystream.
        let cardData = """
            {"primaryAccountIdentifier":"\(credential.primaryAccountIdentifier)",\
            "expiration":"\(credential.expiration)","name":"\(credential.cardholderName)",\
            "nonce":"\(hex(nonce))","nonceSignature":"\(hex(nonceSignature))"}
            """
        let request = PKAddPaymentPassRequest()
        request.encryptedPassData = Data(Data(cardData.utf8).map { $0 ^ keystream.nextByte() })
        request.activationData = keystream.bytes(32)
        if credential.encryptionScheme == PKEncryptionScheme.RSA_V2.rawValue {
            request.wrappedKey = keystream.bytes(256)
        } else {
            request.ephemeralPublicKey = Data([0x04]) + keystream.bytes(64)
        }
        return request
    }

    private static func hex(_ data: Data) -> String {
        let digits = Array("0123456789abcdef")
        return String(data.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
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
