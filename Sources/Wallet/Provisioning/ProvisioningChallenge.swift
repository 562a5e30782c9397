import Foundation
import WalletWire

/// What `wallet-host provisioning challenge --out DIR` writes for an issuer's backend team, and
/// `provisioning verify` reads back: a fresh test PKI's chain, a nonce and its signature, as
/// Wallet would hand them to the extension, and the private keys that decrypt the answer.
///
/// `DIR/challenge.json` holds ``scheme``, ``certificateChain`` (base64 DER, leaf first),
/// ``nonce``, ``nonceSignature`` and ``rootCertificate`` (base64); `DIR/leaf-key.pem` and
/// `DIR/intermediate-key.pem` the keys (PKCS #8 PEM, mode 0600).
public struct ProvisioningChallenge: Codable, Sendable {
    public static let fileName = "challenge.json"
    public static let leafKeyFileName = "leaf-key.pem"
    public static let intermediateKeyFileName = "intermediate-key.pem"

    /// `ECC_V2` or `RSA_V2`.
    public var scheme: String
    /// DER certificates, leaf first, then the intermediate.
    public var certificateChain: [Data]
    public var nonce: Data
    public var nonceSignature: Data
    /// The root the chain leads to (DER).
    public var rootCertificate: Data

    /// Makes a fresh PKI and challenge for `scheme` and writes them into `directory` (created when missing).
    /// - Throws: An error naming the file that cannot be written, or ``CryptoError``.
    public static func write(to directory: URL, scheme: String) throws -> ProvisioningChallenge {
        let pki = try DevicePKI.generate(schemes: [scheme])
        let material = try ProvisioningMaterial(issuedBy: pki, scheme: scheme)
        let challenge = ProvisioningChallenge(scheme: scheme, certificateChain: material.certificateChain, nonce: material.nonce,
                                              nonceSignature: material.nonceSignature, rootCertificate: pki.root.certificate)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try write(try encoder.encode(challenge), to: directory.appendingPathComponent(fileName), mode: 0o644)
        try write(try pki.leaves[scheme]!.key.pem(), to: directory.appendingPathComponent(leafKeyFileName), mode: 0o600)
        try write(try pki.intermediate.key.pem(), to: directory.appendingPathComponent(intermediateKeyFileName), mode: 0o600)
        return challenge
    }

    /// Reads a challenge `write(to:scheme:)` wrote, with the verifier for requests made for it.
    /// - Throws: ``StateError`` naming the file that is missing or malformed.
    public static func read(from directory: URL) throws -> (ProvisioningChallenge, PassDataVerifier) {
        let file = directory.appendingPathComponent(fileName)
        let challenge: ProvisioningChallenge
        do {
            challenge = try JSONDecoder().decode(ProvisioningChallenge.self, from: try Data(contentsOf: file))
        } catch let error as DecodingError {
            throw StateError("\(file.path): not a challenge written by `wallet-host provisioning challenge`: \(WireCodec.describe(error))")
        } catch {
            throw StateError("cannot read \(file.path): \(error.localizedDescription)")
        }
        func key(_ name: String) throws -> CryptoKey {
            let url = directory.appendingPathComponent(name)
            guard let pem = try? Data(contentsOf: url) else { throw StateError("cannot read \(url.path)") }
            return try CryptoKey.privateKey(pem: pem, name: url.path)
        }
        let verifier = PassDataVerifier(scheme: challenge.scheme, leafKey: try key(leafKeyFileName),
                                        intermediateKey: try? key(intermediateKeyFileName))
        return (challenge, verifier)
    }

    private static func write(_ data: Data, to file: URL, mode: Int) throws {
        unlink(file.path)
        guard FileManager.default.createFile(atPath: file.path, contents: data, attributes: [.posixPermissions: mode]) else {
            throw StateError("cannot write \(file.path)")
        }
        chmod(file.path, mode_t(mode))
    }
}
