import Foundation

/// How `ECC_V2` turns the request into the payload's key (docs/PROVISIONING.md), and the usual
/// ways an issuer's backend gets it wrong.
///
/// The recipe: Z = ECDH(leaf private key, `ephemeralPublicKey`) on P-256; the key is
/// SHA-256(`00000001` || Z || `0D` || "id-aes256-GCM" || "Apple" || ephemeralPublicKey), the
/// NIST SP 800-56A single-step KDF with one round; `encryptedPassData` is AES-256-GCM of the
/// JSON payload with a 12-byte zero IV, its 16-byte tag appended.
public enum ECCV2Variant: String, CaseIterable, Sendable, Codable {
    /// The recipe itself.
    case correct
    /// ANSI X9.63 KDF: SHA-256(Z || `00000001` || other info).
    case x963KDF = "x963-kdf"
    /// Other info without "Apple".
    case kdfWithoutApple = "kdf-without-apple"
    /// Other info with the ephemeral key before the algorithm: `0D` "id-aes256-GCM" moved last.
    case kdfEphemeralKeyFirst = "kdf-ephemeral-key-first"
    /// Other info with "Apple" before the algorithm identifier.
    case kdfAppleFirst = "kdf-apple-first"
    /// Other info without the algorithm identifier's length byte `0D`.
    case kdfWithoutLengthByte = "kdf-without-length-byte"
    /// A 16-byte zero IV instead of 12.
    case sixteenByteIV = "16-byte-iv"
    /// ECDH with the intermediate certificate's key instead of the leaf's.
    case intermediateKey = "intermediate-key"
    /// The ephemeral key in the KDF compressed (33 bytes) while the request carries it uncompressed.
    case compressedEphemeralKeyInKDF = "compressed-ephemeral-key-in-kdf"
    /// The ephemeral key in the KDF as hex text instead of bytes.
    case hexEphemeralKeyInKDF = "hex-ephemeral-key-in-kdf"
    /// The ephemeral key in the KDF as base64 text instead of bytes.
    case base64EphemeralKeyInKDF = "base64-ephemeral-key-in-kdf"
    /// `encryptedPassData` holds hex text of the ciphertext instead of its bytes.
    case hexPassData = "hex-pass-data"
    /// `encryptedPassData` holds base64 text of the ciphertext (encoded twice on the wire).
    case base64PassData = "base64-pass-data"
    /// `ephemeralPublicKey` holds hex text of the key instead of its bytes.
    case hexEphemeralKey = "hex-ephemeral-key"
    /// `ephemeralPublicKey` holds base64 text of the key (encoded twice on the wire).
    case base64EphemeralKey = "base64-ephemeral-key"

    /// The mistake in words, completing "the payload decrypts only with ...".
    public var mistake: String {
        switch self {
        case .correct: return "Apple's recipe"
        case .x963KDF: return "the ANSI X9.63 KDF (SHA-256(Z || counter || info)) instead of the NIST SP 800-56A single-step KDF (SHA-256(counter || Z || info))"
        case .kdfWithoutApple: return "the KDF's other info without the party identifier \"Apple\""
        case .kdfEphemeralKeyFirst: return "the KDF's other info in another order: the ephemeral public key before 0D \"id-aes256-GCM\""
        case .kdfAppleFirst: return "the KDF's other info in another order: \"Apple\" before 0D \"id-aes256-GCM\""
        case .kdfWithoutLengthByte: return "the KDF's other info without the length byte 0D before \"id-aes256-GCM\""
        case .sixteenByteIV: return "a 16-byte zero IV instead of a 12-byte one"
        case .intermediateKey: return "ECDH with the intermediate certificate's public key instead of the leaf's (the first certificate)"
        case .compressedEphemeralKeyInKDF: return "the ephemeral public key compressed (33 bytes) in the KDF, while the request sends it uncompressed (65 bytes)"
        case .hexEphemeralKeyInKDF: return "the ephemeral public key as hex text in the KDF instead of its 65 bytes"
        case .base64EphemeralKeyInKDF: return "the ephemeral public key as base64 text in the KDF instead of its 65 bytes"
        case .hexPassData: return "encryptedPassData holding hex text of the ciphertext instead of its bytes"
        case .base64PassData: return "encryptedPassData holding base64 text of the ciphertext (base64 encoded twice) instead of its bytes"
        case .hexEphemeralKey: return "ephemeralPublicKey holding hex text of the key instead of its bytes"
        case .base64EphemeralKey: return "ephemeralPublicKey holding base64 text of the key (base64 encoded twice) instead of its bytes"
        }
    }

    /// The algorithm identifier in the KDF's other info.
    static let algorithm = Data("id-aes256-GCM".utf8)
    /// The party identifier in the KDF's other info.
    static let partyV = Data("Apple".utf8)
    static let counter = Data([0, 0, 0, 1])

    /// The correct key for Z and the ephemeral key's bytes (the known-answer test's subject).
    public static func key(sharedSecret: Data, ephemeralPublicKey: Data) -> Data {
        Crypto.sha256(counter + sharedSecret + Data([0x0D]) + algorithm + partyV + ephemeralPublicKey)
    }

    /// The payload decrypted this way, or nil when the tag does not verify (or the way does not
    /// apply: no intermediate key, a key field that is not text, ...).
    /// - Parameters:
    ///   - encryptedPassData: The request's field as sent.
    ///   - ephemeralPublicKey: The request's field as sent.
    ///   - leafKey: The leaf certificate's private key.
    ///   - intermediateKey: The intermediate certificate's private key, when known.
    func open(_ encryptedPassData: Data, ephemeralPublicKey: Data, leafKey: CryptoKey, intermediateKey: CryptoKey?) -> Data? {
        var sealed = encryptedPassData
        var ephemeral = ephemeralPublicKey
        switch self {
        case .hexPassData: guard let decoded = TextBytes.hex(encryptedPassData) else { return nil }; sealed = decoded
        case .base64PassData: guard let decoded = TextBytes.base64(encryptedPassData) else { return nil }; sealed = decoded
        case .hexEphemeralKey: guard let decoded = TextBytes.hex(ephemeralPublicKey) else { return nil }; ephemeral = decoded
        case .base64EphemeralKey: guard let decoded = TextBytes.base64(ephemeralPublicKey) else { return nil }; ephemeral = decoded
        default: break
        }
        guard let peer = CryptoKey.p256PublicKey(ephemeral) else { return nil }
        let privateKey: CryptoKey
        if self == .intermediateKey {
            guard let intermediateKey, intermediateKey.isEllipticCurve else { return nil }
            privateKey = intermediateKey
        } else {
            privateKey = leafKey
        }
        guard let z = try? privateKey.sharedSecret(with: peer), let kdfKey = keyInKDF(ephemeral) else { return nil }
        return Crypto.openAES256GCM(sealed, key: derivedKey(sharedSecret: z, keyInKDF: kdfKey), iv: iv)
    }

    /// The ephemeral key as this way puts it into the KDF's other info: its 65 bytes, or compressed,
    /// hex or base64 text; nil when it cannot be compressed (not 65 bytes).
    func keyInKDF(_ ephemeral: Data) -> Data? {
        switch self {
        case .compressedEphemeralKeyInKDF:
            // SEC 1: 02 or 03 (the parity of y), then x.
            guard ephemeral.count == 65, let last = ephemeral.last else { return nil }
            return Data([0x02 | (last & 1)]) + ephemeral.dropFirst().prefix(32)
        case .hexEphemeralKeyInKDF: return Data(TextBytes.hexString(ephemeral).utf8)
        case .base64EphemeralKeyInKDF: return Data(ephemeral.base64EncodedString().utf8)
        default: return ephemeral
        }
    }

    /// The AES key this way derives from the shared secret `z` and the KDF's form of the key.
    func derivedKey(sharedSecret z: Data, keyInKDF kdfKey: Data) -> Data {
        let length = Data([0x0D])
        switch self {
        case .x963KDF: return Crypto.sha256(z + Self.counter + length + Self.algorithm + Self.partyV + kdfKey)
        case .kdfWithoutApple: return Crypto.sha256(Self.counter + z + length + Self.algorithm + kdfKey)
        case .kdfEphemeralKeyFirst: return Crypto.sha256(Self.counter + z + kdfKey + length + Self.algorithm + Self.partyV)
        case .kdfAppleFirst: return Crypto.sha256(Self.counter + z + Self.partyV + length + Self.algorithm + kdfKey)
        case .kdfWithoutLengthByte: return Crypto.sha256(Self.counter + z + Self.algorithm + Self.partyV + kdfKey)
        default: return Self.key(sharedSecret: z, ephemeralPublicKey: kdfKey)
        }
    }

    /// The AES-GCM IV this way uses: 12 zero bytes, or 16.
    var iv: Data { Data(count: self == .sixteenByteIV ? 16 : 12) }
}

/// Bytes that an issuer's backend sent as text: hex or base64.
enum TextBytes {
    static func hexString(_ data: Data) -> String {
        let digits = Array("0123456789abcdef")
        return String(data.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }

    /// The bytes `data` spells in hex (either case), or nil when it is not hex text.
    static func hex(_ data: Data) -> Data? {
        guard !data.isEmpty, data.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(data.count / 2)
        var high: UInt8?
        for character in data {
            let value: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = character - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        return Data(bytes)
    }

    /// The bytes `data` spells in base64, or nil when it is not base64 text.
    static func base64(_ data: Data) -> Data? {
        guard let text = String(data: data, encoding: .ascii) else { return nil }
        return Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
