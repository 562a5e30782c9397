import CLibcrypto
import Foundation

/// An `ECC_V2` request's two encrypted fields, as an issuer's backend returns them.
public struct SealedPassData: Sendable, Hashable {
    /// The payload's ciphertext with its 16-byte GCM tag (or, for a mistake in the field's
    /// encoding, that text).
    public var encryptedPassData: Data
    /// The ephemeral public key, 65 bytes uncompressed (or, for a mistake, that text).
    public var ephemeralPublicKey: Data
}

extension ECCV2Variant {
    /// Encrypts `plaintext` as an issuer's backend does for the chain Wallet sent: Apple's recipe
    /// for ``correct``, each other case the mistake it names, so that a development backend can
    /// show what the host reports for each (`provisioning verify` and `add-card` find the same
    /// variant again).
    /// - Parameters:
    ///   - plaintext: The payload (JSON: primaryAccountNumber, expiration, name, nonce, nonceSignature).
    ///   - certificateChain: DER certificates, leaf first, then the intermediate.
    /// - Returns: The request's `encryptedPassData` and `ephemeralPublicKey`.
    /// - Throws: ``CryptoError`` naming the certificate that has no P-256 key, or what libcrypto refused.
    public func seal(_ plaintext: Data, certificateChain: [Data]) throws -> SealedPassData {
        let recipientIndex = self == .intermediateKey ? 1 : 0
        guard certificateChain.indices.contains(recipientIndex) else {
            throw CryptoError("find certificate \(recipientIndex + 1) of the chain (it has \(certificateChain.count))")
        }
        let recipient = try CryptoKey.publicKey(ofCertificate: certificateChain[recipientIndex])
        let ephemeral = try CryptoKey.generateP256()
        let point = try ephemeral.publicPoint()
        guard let kdfKey = keyInKDF(point) else { throw CryptoError("encode the ephemeral key for the KDF") }
        let key = derivedKey(sharedSecret: try ephemeral.sharedSecret(with: recipient), keyInKDF: kdfKey)
        var sealed = SealedPassData(encryptedPassData: try Crypto.sealAES256GCM(plaintext, key: key, iv: iv),
                                    ephemeralPublicKey: point)
        switch self {
        case .hexPassData: sealed.encryptedPassData = Data(TextBytes.hexString(sealed.encryptedPassData).utf8)
        case .base64PassData: sealed.encryptedPassData = Data(sealed.encryptedPassData.base64EncodedString().utf8)
        case .hexEphemeralKey: sealed.ephemeralPublicKey = Data(TextBytes.hexString(point).utf8)
        case .base64EphemeralKey: sealed.ephemeralPublicKey = Data(point.base64EncodedString().utf8)
        default: break
        }
        return sealed
    }
}

extension CryptoKey {
    /// The P-256 public key of a DER certificate.
    /// - Throws: ``CryptoError`` when the bytes are not a certificate or its key is not P-256.
    public static func publicKey(ofCertificate der: Data) throws -> CryptoKey {
        let certificate = der.withUnsafeBytes { bytes -> OpaquePointer? in
            guard let base = bytes.bindMemory(to: UInt8.self).baseAddress else { return nil }
            return wh_x509_from_der(base, bytes.count)
        }
        guard let certificate else { throw CryptoError("read the certificate (not DER X.509)") }
        defer { X509_free(certificate) }
        var point = [UInt8](repeating: 0, count: 65)
        guard let key = X509_get0_pubkey(certificate), EVP_PKEY_get_base_id(key) == EVP_PKEY_EC,
              wh_ec_public_octets(key, &point, point.count) == 65,
              let publicKey = p256PublicKey(Data(point)) else {
            throw CryptoError("use the certificate's key (not P-256: is the scheme RSA_V2?)")
        }
        return publicKey
    }
}
