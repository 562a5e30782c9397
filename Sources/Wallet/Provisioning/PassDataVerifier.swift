import Foundation
import WalletWire

/// Decrypts an `ECC_V2` request's `encryptedPassData` with the leaf's private key and checks
/// its JSON as Wallet's servers would (docs/PROVISIONING.md): the nonce and its signature are
/// the ones sent for this card, the card number is digits, passes the Luhn check and ends with
/// the entry's `primaryAccountSuffix`, the expiration is `MM/YY` and not past, a name is there.
/// When the tag does not verify, it tries the usual mistakes (``ECCV2Variant``) and names the
/// one that decrypts. `RSA_V2` is checked by shape only: its scheme is not public.
public struct PassDataVerifier: Sendable {
    /// What the request must match: what Wallet sent and what the entry says.
    public struct Expectations: Sendable {
        public var nonce: Data
        public var nonceSignature: Data
        /// The entry's `primaryAccountSuffix`; nil or empty skips the check.
        public var primaryAccountSuffix: String?
        /// The entry's `cardholderName`; a payload name that differs is a warning.
        public var cardholderName: String?
        /// Nonces sent for earlier cards: one coming back is named as replayed.
        public var earlierNonces: [Data]
        /// When the expiration is judged.
        public var now: Date

        public init(nonce: Data, nonceSignature: Data, primaryAccountSuffix: String? = nil, cardholderName: String? = nil,
                    earlierNonces: [Data] = [], now: Date = Date()) {
            self.nonce = nonce
            self.nonceSignature = nonceSignature
            self.primaryAccountSuffix = primaryAccountSuffix
            self.cardholderName = cardholderName
            self.earlierNonces = earlierNonces
            self.now = now
        }

        /// What `params` sent, and the entry's suffix and name from its configuration.
        public init(_ params: GenerateAddPaymentPassRequestParams, earlierNonces: [Data] = []) {
            self.init(nonce: params.nonce, nonceSignature: params.nonceSignature,
                      primaryAccountSuffix: params.configuration.primaryAccountSuffix,
                      cardholderName: params.configuration.cardholderName, earlierNonces: earlierNonces)
        }
    }

    /// The scheme of the leaf.
    public var scheme: String
    /// The leaf certificate's private key.
    public var leafKey: CryptoKey
    /// The intermediate's private key, to recognise a backend that encrypted for it.
    public var intermediateKey: CryptoKey?

    public init(scheme: String, leafKey: CryptoKey, intermediateKey: CryptoKey?) {
        self.scheme = scheme
        self.leafKey = leafKey
        self.intermediateKey = intermediateKey
    }

    /// The verifier for a chain `pki` issued; nil when the chain's leaf is not one of its.
    public init?(pki: DevicePKI, chain: [Data]) {
        guard let (scheme, leaf) = pki.leaf(startingChain: chain) else { return nil }
        self.init(scheme: scheme, leafKey: leaf.key, intermediateKey: pki.intermediate.key)
    }

    /// Checks a request made for a chain `pki` may or may not have issued.
    /// - Returns: The verification; ``PassDataVerification/Status/unknownChain`` when `pki` did not issue the chain.
    public static func verify(_ request: AddPaymentPassRequestResult, params: GenerateAddPaymentPassRequestParams, pki: DevicePKI,
                              earlierNonces: [Data] = []) -> PassDataVerification {
        guard let verifier = PassDataVerifier(pki: pki, chain: params.certificateChain) else {
            return PassDataVerification(scheme: params.configuration.encryptionScheme, status: .unknownChain, decrypted: false,
                                        problems: [], summary: "not decrypted: the certificate chain is not one this host issued")
        }
        return verifier.verify(request, expecting: Expectations(params, earlierNonces: earlierNonces),
                               entryIdentifier: params.identifier)
    }

    /// Checks `request` against what was sent.
    /// - Parameters:
    ///   - request: The extension's request.
    ///   - expecting: What Wallet sent and what the entry says.
    ///   - entryIdentifier: Names the findings.
    public func verify(_ request: AddPaymentPassRequestResult, expecting: Expectations,
                       entryIdentifier: String = "") -> PassDataVerification {
        guard scheme == "ECC_V2" else {
            return PassDataVerification(scheme: scheme, status: .shapeOnly, decrypted: false, problems: [],
                                        summary: "\(scheme): checked by shape only (its encryption scheme is not public)")
        }
        var report = PayloadReport(entryIdentifier: entryIdentifier)
        guard let sealed = request.encryptedPassData, !sealed.isEmpty,
              let ephemeral = request.ephemeralPublicKey, !ephemeral.isEmpty else {
            // The shape validator names the missing field.
            return report.verification(scheme: scheme, decrypted: false, variant: nil,
                                       summary: "not decrypted: encryptedPassData or ephemeralPublicKey is missing")
        }
        var opened: (variant: ECCV2Variant, plaintext: Data)?
        for variant in ECCV2Variant.allCases {
            if let plaintext = variant.open(sealed, ephemeralPublicKey: ephemeral, leafKey: leafKey, intermediateKey: intermediateKey) {
                opened = (variant, plaintext)
                break
            }
        }
        guard let opened else {
            report.error(EntryFinding.Field.encryptedPassData,
                         "the AES-256-GCM tag does not verify under Apple's ECC_V2 recipe nor under any known variant "
                            + "(X9.63 KDF, KDF fields reordered or without \"Apple\", 16-byte IV, the intermediate's key, "
                            + "a compressed ephemeral key, hex or base64 where bytes belong): was it encrypted for this "
                            + "request's leaf certificate and ephemeral key?")
            return report.verification(scheme: scheme, decrypted: false, variant: nil,
                                       summary: "not decrypted: the tag does not verify under any known variant")
        }
        if opened.variant != .correct {
            report.error(EntryFinding.Field.encryptedPassData,
                         "the AES-256-GCM tag does not verify under Apple's ECC_V2 recipe; it does with \(opened.variant.mistake) "
                            + "(\(opened.variant.rawValue)), so the issuer's backend has that mistake")
        }
        let payload = report.check(opened.plaintext, expecting: expecting)
        var summary = opened.variant == .correct ? "decrypted (ECC_V2)" : "decrypted only with a mistake (\(opened.variant.rawValue))"
        if let payload {
            summary += ": card \(payload.primaryAccountNumber ?? "(no number)"), expires \(payload.expiration ?? "(none)"), "
                + "name \(payload.name.map { "\"\($0)\"" } ?? "(none)"); "
                + (payload.nonceMatches && payload.nonceSignatureMatches
                    ? "nonce and signature match" : "nonce \(payload.nonceMatches ? "matches" : "does not match"), "
                        + "signature \(payload.nonceSignatureMatches ? "matches" : "does not match")")
        } else {
            summary += ", but the payload is not a JSON object"
        }
        var verification = report.verification(scheme: scheme, decrypted: true,
                                               variant: opened.variant == .correct ? nil : opened.variant.rawValue, summary: summary)
        verification.payload = payload
        return verification
    }
}
