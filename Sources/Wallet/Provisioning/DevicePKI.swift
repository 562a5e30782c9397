import CLibcrypto
import Foundation

/// The simulated device's test PKI, made by the host in Apple's shape (docs/PROVISIONING.md):
/// a root, an intermediate and, per encryption scheme, a leaf whose key the issuer's backend
/// encrypts the card for. Real X.509 (DER), parseable by any library:
///
/// - root and intermediate: P-256, CA certificates (basic constraints, keyCertSign), signed
///   with ECDSA SHA-256;
/// - leaf: P-256 for `ECC_V2` (key usage keyAgreement), RSA 2048 for `RSA_V2` (key usage
///   keyEncipherment), both carrying Apple's marker extension ``leafMarkerOID``;
/// - a device key (P-256) that signs every nonce.
///
/// Wallet hands an extension the leaf and the intermediate (leaf first); the root is the trust
/// anchor, as Apple's is on a device. Nothing here chains to Apple: it is a test PKI.
public struct DevicePKI: Sendable {
    /// The extension Apple's leaf certificates carry to mark them for In-App Provisioning.
    public static let leafMarkerOID = "1.2.840.113635.100.6.39"
    /// The encryption schemes a leaf is made for.
    public static let schemes = ["ECC_V2", "RSA_V2"]

    /// A certificate with its private key.
    public struct Identity: Sendable {
        /// The DER certificate.
        public var certificate: Data
        /// Its private key.
        public var key: CryptoKey
    }

    public var root: Identity
    public var intermediate: Identity
    /// Leaves by encryption scheme (``schemes``).
    public var leaves: [String: Identity]
    /// The simulated device's key that signs nonces.
    public var deviceKey: CryptoKey

    /// A new PKI with a leaf for each of `schemes`.
    public static func generate(schemes: [String] = DevicePKI.schemes) throws -> DevicePKI {
        let rootKey = try CryptoKey.generateP256()
        let root = Identity(certificate: try makeCertificate(subject: rootKey, name: "wallet-host Test Root CA", issuer: nil,
                                                             issuerKey: rootKey, serial: 1, role: WH_CERTIFICATE_ROOT),
                            key: rootKey)
        let intermediateKey = try CryptoKey.generateP256()
        let intermediate = Identity(
            certificate: try makeCertificate(subject: intermediateKey, name: "wallet-host Test Provisioning Intermediate CA",
                                             issuer: root, issuerKey: rootKey, serial: 2, role: WH_CERTIFICATE_INTERMEDIATE),
            key: intermediateKey)
        var pki = DevicePKI(root: root, intermediate: intermediate, leaves: [:], deviceKey: try CryptoKey.generateP256())
        for scheme in schemes { try pki.addLeaf(for: scheme) }
        return pki
    }

    /// Adds (or replaces) the leaf for `scheme`.
    public mutating func addLeaf(for scheme: String) throws {
        let rsa = scheme == "RSA_V2"
        let key = rsa ? try CryptoKey.generateRSA() : try CryptoKey.generateP256()
        let certificate = try Self.makeCertificate(
            subject: key, name: "wallet-host Test Provisioning Leaf (\(scheme))", issuer: intermediate, issuerKey: intermediate.key,
            serial: rsa ? 4 : 3, role: WH_CERTIFICATE_LEAF,
            keyUsage: rsa ? "critical,keyEncipherment" : "critical,keyAgreement")
        leaves[scheme] = Identity(certificate: certificate, key: key)
    }

    /// The chain Wallet hands an extension for `scheme`: the leaf, then the intermediate.
    public func chain(for scheme: String) -> [Data]? {
        leaves[scheme].map { [$0.certificate, intermediate.certificate] }
    }

    /// The leaf a chain starts with, when it is one of this PKI's, with its scheme.
    public func leaf(startingChain chain: [Data]) -> (scheme: String, identity: Identity)? {
        guard let first = chain.first else { return nil }
        return leaves.first { $0.value.certificate == first }.map { ($0.key, $0.value) }
    }

    private static func makeCertificate(subject: CryptoKey, name: String, issuer: Identity?, issuerKey: CryptoKey, serial: Int,
                                        role: wh_certificate_role, keyUsage: String? = nil) throws -> Data {
        let issuerCertificate = try issuer.map { identity -> OpaquePointer in
            let parsed = identity.certificate.withUnsafeBytes {
                wh_x509_from_der($0.bindMemory(to: UInt8.self).baseAddress!, $0.count)
            }
            guard let parsed else { throw CryptoError("read the issuer's certificate") }
            return parsed
        }
        defer { if let issuerCertificate { X509_free(issuerCertificate) } }
        var count: Int32 = 0
        let marker = role == WH_CERTIFICATE_LEAF ? leafMarkerOID : nil
        // Ten years: a device's PKI outlives any test run.
        guard let der = wh_x509_make(subject.pointer, name, issuerCertificate, issuerKey.pointer, serial, 3650,
                                     Int32(role.rawValue), keyUsage, marker, &count) else {
            throw CryptoError("make the certificate \"\(name)\"")
        }
        defer { wh_openssl_free(der) }
        return Data(bytes: der, count: Int(count))
    }
}
