import CLibcrypto
import FoundationEssentials

/// What an issuer's server does for an `ECC_V2` card, as Apple's PassKit pages and public
/// issuer implementations describe it (docs/PROVISIONING.md): ECDH on P-256 between a fresh
/// ephemeral key and the leaf certificate's key; key = SHA-256(00000001 || Z || 0D ||
/// "id-aes256-GCM" || "Apple" || ephemeral public key); AES-256-GCM with a 12-byte zero IV,
/// the 16-byte tag appended. The examples' stand-in backend; never part of the SDK.
public enum ECCV2Encryption {
    /// The encrypted payload and the ephemeral key the request carries.
    public struct Sealed: Sendable {
        public var encryptedPassData: Data
        /// 65 bytes, uncompressed.
        public var ephemeralPublicKey: Data
    }

    /// Why a payload could not be encrypted.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The JSON Wallet's servers expect inside `encryptedPassData`.
    public struct Payload: Codable, Sendable {
        public var primaryAccountNumber: String
        /// `MM/YY`.
        public var expiration: String
        public var name: String
        /// The nonce Wallet sent, in hex.
        public var nonce: String
        /// The nonce signature Wallet sent, in hex.
        public var nonceSignature: String

        public init(primaryAccountNumber: String, expiration: String, name: String, nonce: Data, nonceSignature: Data) {
            self.primaryAccountNumber = primaryAccountNumber
            self.expiration = expiration
            self.name = name
            self.nonce = Self.hex(nonce)
            self.nonceSignature = Self.hex(nonceSignature)
        }

        static func hex(_ data: Data) -> String {
            let digits = Array("0123456789abcdef")
            return String(data.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
        }
    }

    /// Encrypts `payload` for the leaf certificate (the first of the chain Wallet sent).
    public static func seal(_ payload: Payload, leafCertificate: Data) throws -> Sealed {
        let plaintext = try JSONEncoder().encode(payload)
        return try seal(plaintext, leafCertificate: leafCertificate)
    }

    /// Encrypts `plaintext` for the leaf certificate's P-256 key.
    public static func seal(_ plaintext: Data, leafCertificate: Data) throws -> Sealed {
        if let loadError = wh_libcrypto_load_error() { throw Failure(description: String(cString: loadError)) }
        let certificate = leafCertificate.withUnsafeBytes { bytes -> OpaquePointer? in
            guard let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return nil }
            return wh_x509_from_der(base, bytes.count)
        }
        guard let certificate else { throw Failure(description: "the leaf certificate is not DER X.509") }
        defer { X509_free(certificate) }
        guard let leafKey = X509_get0_pubkey(certificate), EVP_PKEY_get_base_id(leafKey) == EVP_PKEY_EC else {
            throw Failure(description: "the leaf certificate has no EC key: is the entry's scheme RSA_V2?")
        }
        guard let ephemeral = wh_ec_p256_generate() else { throw Failure(description: "cannot make an ephemeral P-256 key") }
        defer { EVP_PKEY_free(ephemeral) }
        var secret = [UInt8](repeating: 0, count: 66)
        let secretLength = wh_ecdh(ephemeral, leafKey, &secret, secret.count)
        var point = [UInt8](repeating: 0, count: 65)
        let pointLength = wh_ec_public_octets(ephemeral, &point, point.count)
        guard secretLength == 32, pointLength == 65 else { throw Failure(description: "ECDH with the leaf's key failed") }
        let otherInfo = [0x0D] + Array("id-aes256-GCM".utf8) + Array("Apple".utf8) + point
        let kdfInput = [0, 0, 0, 1] + secret.prefix(32) + otherInfo
        var key = [UInt8](repeating: 0, count: 32)
        _ = wh_sha256(kdfInput, kdfInput.count, &key)
        let input = [UInt8](plaintext)
        var output = [UInt8](repeating: 0, count: input.count + 1)
        var tag = [UInt8](repeating: 0, count: 16)
        let iv = [UInt8](repeating: 0, count: 12)
        guard wh_aes256gcm(1, key, iv, Int32(iv.count), input, Int32(input.count), &output, &tag) == 1 else {
            throw Failure(description: "AES-256-GCM failed")
        }
        return Sealed(encryptedPassData: Data(output.prefix(input.count) + tag), ephemeralPublicKey: Data(point))
    }
}
