import CLibcrypto
import Foundation

/// A failure of OpenSSL's libcrypto, naming what was being done: OpenSSL's reason, or why
/// libcrypto.so.3 (loaded on first use) cannot be loaded.
public struct CryptoError: Error, CustomStringConvertible, Sendable {
    public var description: String

    init(_ action: String) {
        if let loadError = wh_libcrypto_load_error() {
            description = "libcrypto could not \(action): \(String(cString: loadError))"
            return
        }
        let code = ERR_get_error()
        var reason = ""
        if code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reason = ": " + String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        ERR_clear_error()
        description = "libcrypto could not \(action)\(reason)"
    }
}

/// A key pair (or a public key alone) held by libcrypto: P-256 or RSA.
///
/// Immutable once made (libcrypto's key objects are safe to share between threads for
/// signing, derivation and encoding), hence `@unchecked Sendable`.
public final class CryptoKey: @unchecked Sendable {
    let pointer: OpaquePointer

    private init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// A new P-256 key pair.
    public static func generateP256() throws -> CryptoKey {
        guard let key = wh_ec_p256_generate() else { throw CryptoError("generate a P-256 key") }
        return CryptoKey(key)
    }

    /// A new RSA key pair.
    public static func generateRSA(bits: UInt32 = 2048) throws -> CryptoKey {
        guard let key = wh_rsa_generate(bits) else { throw CryptoError("generate a \(bits)-bit RSA key") }
        return CryptoKey(key)
    }

    /// A P-256 public key from its SEC 1 encoding (65 bytes uncompressed or 33 compressed);
    /// nil when the bytes are not a point on the curve.
    public static func p256PublicKey(_ encoded: Data) -> CryptoKey? {
        guard !encoded.isEmpty else { return nil }
        let key = encoded.withUnsafeBytes { wh_ec_p256_public_key($0.bindMemory(to: UInt8.self).baseAddress!, $0.count) }
        ERR_clear_error()
        return key.map(CryptoKey.init)
    }

    /// A private key from PEM (PKCS #8, as ``pem()`` writes it).
    /// - Parameter name: What the key is, for the error ("the leaf's private key in DIR/leaf-key.pem").
    public static func privateKey(pem: Data, name: String) throws -> CryptoKey {
        let key = pem.withUnsafeBytes { wh_private_key_from_pem($0.baseAddress!, Int32($0.count)) }
        guard let key else { throw CryptoError("read \(name) as a PEM private key") }
        return CryptoKey(key)
    }

    /// The private key as unencrypted PKCS #8 PEM (`BEGIN PRIVATE KEY`), readable by any library.
    public func pem() throws -> Data {
        var count = 0
        guard let bytes = wh_private_key_pem(pointer, &count) else { throw CryptoError("write a private key as PEM") }
        defer { free(bytes) }
        return Data(bytes: bytes, count: count)
    }

    /// Whether this is a P-256 key (else RSA).
    public var isEllipticCurve: Bool { EVP_PKEY_get_base_id(pointer) == EVP_PKEY_EC }

    /// The public point, SEC 1 encoded uncompressed: 65 bytes `04 x y`.
    public func publicPoint() throws -> Data {
        var buffer = [UInt8](repeating: 0, count: 65)
        let count = wh_ec_public_octets(pointer, &buffer, buffer.count)
        guard count > 0 else { throw CryptoError("encode an EC public key") }
        return Data(buffer.prefix(count))
    }

    /// ECDH: the shared secret of this private key and `peer`'s public key (32 bytes on P-256).
    public func sharedSecret(with peer: CryptoKey) throws -> Data {
        var buffer = [UInt8](repeating: 0, count: 66)
        let count = wh_ecdh(pointer, peer.pointer, &buffer, buffer.count)
        guard count > 0 else { throw CryptoError("derive an ECDH shared secret") }
        return Data(buffer.prefix(count))
    }

    /// This key's SHA-256 signature of `message` (ECDSA, DER encoded; or RSA PKCS #1 v1.5).
    public func signature(of message: Data) throws -> Data {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = wh_sign_sha256(pointer, [UInt8](message), message.count, &buffer, buffer.count)
        guard count > 0 else { throw CryptoError("sign") }
        return Data(buffer.prefix(count))
    }

    /// Whether `signature` is this key's SHA-256 signature of `message`.
    public func verifies(_ signature: Data, of message: Data) -> Bool {
        guard !signature.isEmpty else { return false }
        let ok = wh_verify_sha256(pointer, [UInt8](message), message.count, [UInt8](signature), signature.count)
        ERR_clear_error()
        return ok == 1
    }
}

/// Hashing, AES-256-GCM and random bytes, from libcrypto.
public enum Crypto {
    /// SHA-256 of `data`. Stops the process, naming why, when libcrypto.so.3 cannot be loaded
    /// (every caller already holds a key, so it has been).
    public static func sha256(_ data: Data) -> Data {
        var digest = [UInt8](repeating: 0, count: 32)
        let hashed = data.withUnsafeBytes { wh_sha256($0.baseAddress, $0.count, &digest) }
        precondition(hashed == 1, CryptoError("compute SHA-256").description)
        return Data(digest)
    }

    /// AES-256-GCM encryption: the ciphertext with its 16-byte tag appended.
    public static func sealAES256GCM(_ plaintext: Data, key: Data, iv: Data) throws -> Data {
        var tag = [UInt8](repeating: 0, count: 16)
        guard let ciphertext = cipher(encrypt: true, plaintext, key: key, iv: iv, tag: &tag) else {
            throw CryptoError("encrypt with AES-256-GCM")
        }
        return ciphertext + Data(tag)
    }

    /// AES-256-GCM decryption of `sealed` (ciphertext, then its 16-byte tag); nil when the tag
    /// does not verify.
    public static func openAES256GCM(_ sealed: Data, key: Data, iv: Data) -> Data? {
        guard sealed.count >= 16 else { return nil }
        var tag = [UInt8](sealed.suffix(16))
        let plaintext = cipher(encrypt: false, Data(sealed.dropLast(16)), key: key, iv: iv, tag: &tag)
        ERR_clear_error()
        return plaintext
    }

    private static func cipher(encrypt: Bool, _ input: Data, key: Data, iv: Data, tag: inout [UInt8]) -> Data? {
        guard key.count == 32, !iv.isEmpty else { return nil }
        let inputBytes = [UInt8](input)
        // One spare byte: the output is never empty, so its buffer always has an address.
        var output = [UInt8](repeating: 0, count: inputBytes.count + 1)
        let ok = wh_aes256gcm(encrypt ? 1 : 0, [UInt8](key), [UInt8](iv), Int32(iv.count), inputBytes, Int32(inputBytes.count),
                              &output, &tag) == 1
        return ok ? Data(output.prefix(inputBytes.count)) : nil
    }

    /// `count` bytes from libcrypto's random generator.
    public static func randomBytes(_ count: Int) -> Data {
        var bytes = [UInt8](repeating: 0, count: count)
        if RAND_bytes(&bytes, Int32(count)) != 1 {
            var generator = SystemRandomNumberGenerator()
            bytes = (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        }
        return Data(bytes)
    }
}
