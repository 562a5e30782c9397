import Foundation
import WalletWire

/// What Wallet hands `generateAddPaymentPassRequest` for one card (DESIGN §9 step 5): a
/// certificate chain (leaf first), a one-time nonce and the device's signature of it.
///
/// On a real device the chain leads to Apple's certificate authority, the nonce comes from
/// Apple's servers and the signature from the secure element. There is no Apple certificate
/// authority here, so everything is **simulated**: each certificate has the outer shape of a
/// DER certificate (a SEQUENCE header `30 82 <length>` followed by that many random bytes)
/// but is not a parseable X.509 certificate, and the signature signs nothing. What an
/// extension can rely on is the shape: two certificates, leaf first; a 4-byte nonce; a
/// signature of ``nonceSignatureLength`` bytes; all fresh for every card, as on iOS, so an
/// extension that caches or reuses them is caught.
public struct ProvisioningMaterial: Sendable, Hashable {
    /// Length of the nonce. Issuers' servers receive Apple's nonce as 8 hex digits (4 bytes).
    public static let nonceLength = 4
    /// Length of the simulated nonce signature: the size of a raw ECDSA P-256 signature (r and s).
    public static let nonceSignatureLength = 64
    /// Content lengths of the simulated certificates, leaf first; about the size of real ones.
    public static let certificateContentLengths = [640, 896]

    /// DER certificates, leaf first, then the intermediate (simulated; see the type's documentation).
    public var certificateChain: [Data]
    /// The one-time nonce.
    public var nonce: Data
    /// The device's signature of the nonce (simulated).
    public var nonceSignature: Data

    /// Creates material from given values, for tests and replays.
    public init(certificateChain: [Data], nonce: Data, nonceSignature: Data) {
        self.certificateChain = certificateChain
        self.nonce = nonce
        self.nonceSignature = nonceSignature
    }

    /// Makes new material for one card from the system's random number generator: a new chain,
    /// nonce and signature, unrelated to any made before. Make one per card.
    public init() {
        var generator = SystemRandomNumberGenerator()
        self.init(using: &generator)
    }

    /// Makes new material for one card: two simulated certificates (leaf first), a nonce and a signature.
    /// - Parameter generator: Where the random bytes come from (a seeded one for reproducible tests).
    public init<Generator: RandomNumberGenerator>(using generator: inout Generator) {
        certificateChain = Self.certificateContentLengths.map { contentLength in
            Data([0x30, 0x82, UInt8(contentLength >> 8), UInt8(contentLength & 0xFF)])
                + Self.randomBytes(contentLength, using: &generator)
        }
        nonce = Self.randomBytes(Self.nonceLength, using: &generator)
        nonceSignature = Self.randomBytes(Self.nonceSignatureLength, using: &generator)
    }

    /// The `generateAddPaymentPassRequest` parameters for `entry` with this material.
    /// - Parameter entry: The pass entry the user chose.
    /// - Returns: The entry's identifier and configuration with this chain, nonce and signature.
    public func requestParams(for entry: WirePassEntry) -> GenerateAddPaymentPassRequestParams {
        GenerateAddPaymentPassRequestParams(identifier: entry.identifier, configuration: entry.addRequestConfiguration,
                                            certificateChain: certificateChain, nonce: nonce, nonceSignature: nonceSignature)
    }

    private static func randomBytes<Generator: RandomNumberGenerator>(_ count: Int, using generator: inout Generator) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
