import Foundation
import Synchronization
import WalletWire

/// What Wallet hands `generateAddPaymentPassRequest` for one card (DESIGN §9 step 5): a
/// certificate chain (leaf first), a one-time nonce and the device's signature of it.
///
/// On a device the chain leads to Apple's certificate authority, the nonce comes from Apple's
/// servers and the signature from the secure element. Here the chain is the simulated
/// device's test PKI (``DevicePKI``: real X.509, leaf and intermediate), the nonce is fresh
/// random bytes and the signature is the device key's ECDSA (SHA-256, DER) signature of the
/// nonce. Apple's real signature format is not public: what an extension can rely on is that
/// it gets bytes and must send them back, hex encoded, in the encrypted payload.
public struct ProvisioningMaterial: Sendable, Hashable {
    /// Length of the nonce. Issuers' servers receive Apple's nonce as 8 hex digits (4 bytes).
    public static let nonceLength = 4

    /// DER certificates, leaf first, then the intermediate.
    public var certificateChain: [Data]
    /// The one-time nonce.
    public var nonce: Data
    /// The device's signature of the nonce.
    public var nonceSignature: Data

    /// Creates material from given values, for tests and replays.
    public init(certificateChain: [Data], nonce: Data, nonceSignature: Data) {
        self.certificateChain = certificateChain
        self.nonce = nonce
        self.nonceSignature = nonceSignature
    }

    /// Fresh material for one card encrypted with `scheme`: the PKI's chain for it, a new nonce
    /// and the device key's signature of it. Make one per card.
    /// - Throws: ``CryptoError`` when the PKI has no leaf for `scheme` or the nonce cannot be signed.
    public init(issuedBy pki: DevicePKI, scheme: String) throws {
        guard let chain = pki.chain(for: scheme) ?? pki.chain(for: "ECC_V2") else {
            throw CryptoError("find a leaf certificate for \(scheme)")
        }
        let nonce = Crypto.randomBytes(Self.nonceLength)
        self.init(certificateChain: chain, nonce: nonce, nonceSignature: try pki.deviceKey.signature(of: nonce))
    }

    /// Fresh material for `entry` from the device in `state` (its PKI is made on first use).
    public init(for entry: WirePassEntry, state: StateDirectory) throws {
        let scheme = Self.scheme(of: entry)
        try self.init(issuedBy: DevicePKI.load(from: state, scheme: scheme), scheme: scheme)
    }

    /// Fresh material for `entry` from ``DevicePKI/processWide``, a PKI that lives as long as
    /// the process: for runs with no device to keep one (conformance, stress).
    public init(forProcessWidePKI entry: WirePassEntry) throws {
        let scheme = Self.scheme(of: entry)
        try self.init(issuedBy: DevicePKI.processWide(), scheme: scheme)
    }

    /// The scheme whose leaf an entry's request is encrypted for; an unknown one gets ECC_V2's
    /// (the validator reports the unknown scheme).
    static func scheme(of entry: WirePassEntry) -> String {
        let scheme = entry.addRequestConfiguration.encryptionScheme
        return DevicePKI.schemes.contains(scheme) ? scheme : "ECC_V2"
    }

    /// The `generateAddPaymentPassRequest` parameters for `entry` with this material.
    /// - Parameter entry: The pass entry the user chose.
    /// - Returns: The entry's identifier and configuration with this chain, nonce and signature.
    public func requestParams(for entry: WirePassEntry) -> GenerateAddPaymentPassRequestParams {
        GenerateAddPaymentPassRequestParams(identifier: entry.identifier, configuration: entry.addRequestConfiguration,
                                            certificateChain: certificateChain, nonce: nonce, nonceSignature: nonceSignature)
    }
}

extension DevicePKI {
    private static let shared = Mutex<DevicePKI?>(nil)

    /// One PKI for the whole process, made on first use with a leaf for each scheme.
    public static func processWide() throws -> DevicePKI {
        try shared.withLock { pki in
            if let pki { return pki }
            let made = try DevicePKI.generate()
            pki = made
            return made
        }
    }
}
