import Foundation
import WalletWire

/// Checks a `generateAddPaymentPassRequest` result as Wallet does before it adds the card
/// (DESIGN §9 step 5), for the encryption scheme of the entry it was made for.
///
/// Rules, each reported as an ``EntryFinding`` naming the field:
/// - a `null` result (the handler completed with nil) is an error: the card is not added;
/// - `encryptedPassData` and `activationData` are present and not empty (error);
/// - `ECC_V2`: `ephemeralPublicKey` is an uncompressed P-256 point, 65 bytes starting `0x04` (error);
/// - `RSA_V2`: `wrappedKey` is present and not empty (error);
/// - the other scheme's key set as well is a warning (the issuer's server may be configured
///   for the wrong scheme).
public struct AddPaymentPassRequestValidator: Sendable {
    /// Length of an uncompressed P-256 point: `0x04`, then 32 bytes of x and 32 of y.
    public static let uncompressedPointLength = 65

    /// Creates a validator. The rules are Wallet's and take no configuration.
    public init() {}

    /// Validates the request made for `entry`.
    /// - Parameters:
    ///   - result: The `generateAddPaymentPassRequest` result; `nil` when the handler completed with nil.
    ///   - entry: The pass entry the request was made for: its identifier names the findings, its
    ///     `encryptionScheme` decides which key the request needs.
    /// - Returns: The findings; the request is usable when none is an error (`containsErrors`).
    public func validate(_ result: AddPaymentPassRequestResult?, for entry: WirePassEntry) -> [EntryFinding] {
        validate(result, encryptionScheme: entry.addRequestConfiguration.encryptionScheme, entryIdentifier: entry.identifier)
    }

    /// Validates a request for the given encryption scheme.
    /// - Parameters:
    ///   - result: The `generateAddPaymentPassRequest` result; `nil` when the handler completed with nil.
    ///   - encryptionScheme: The entry's `addRequestConfiguration.encryptionScheme`: `ECC_V2` or `RSA_V2`.
    ///   - entryIdentifier: The entry's identifier, to name in the findings; empty leaves it out.
    /// - Returns: The findings; the request is usable when none is an error (`containsErrors`).
    public func validate(_ result: AddPaymentPassRequestResult?, encryptionScheme: String,
                         entryIdentifier: String = "") -> [EntryFinding] {
        func finding(_ severity: EntryFinding.Severity, _ field: String, _ problem: String) -> EntryFinding {
            EntryFinding(severity, entryIdentifier: entryIdentifier, field: field, problem: problem)
        }
        guard let result else {
            return [finding(.error, EntryFinding.Field.result, "the handler completed with nil, so Wallet does not add the card")]
        }
        var findings: [EntryFinding] = []
        for (field, value) in [(EntryFinding.Field.encryptedPassData, result.encryptedPassData),
                               (EntryFinding.Field.activationData, result.activationData)] {
            if let problem = absence(of: value) {
                findings.append(finding(.error, field, "\(field) is \(problem); Wallet needs it to add the card"))
            }
        }
        switch encryptionScheme {
        case "ECC_V2":
            if let problem = pointProblem(result.ephemeralPublicKey) {
                findings.append(finding(.error, EntryFinding.Field.ephemeralPublicKey, problem))
            }
            if result.wrappedKey.map({ !$0.isEmpty }) ?? false {
                findings.append(finding(.warning, EntryFinding.Field.wrappedKey,
                                        "wrappedKey is set, but ECC_V2 does not use it; is the issuer's server configured for RSA_V2?"))
            }
        case "RSA_V2":
            if let problem = absence(of: result.wrappedKey) {
                findings.append(finding(.error, EntryFinding.Field.wrappedKey,
                                        "wrappedKey is \(problem); RSA_V2 needs the wrapped AES key"))
            }
            if result.ephemeralPublicKey.map({ !$0.isEmpty }) ?? false {
                findings.append(finding(.warning, EntryFinding.Field.ephemeralPublicKey,
                                        "ephemeralPublicKey is set, but RSA_V2 does not use it; is the issuer's server configured for ECC_V2?"))
            }
        default:
            findings.append(finding(.error, EntryFinding.Field.encryptionScheme,
                                    "encryptionScheme \"\(encryptionScheme)\" is not ECC_V2 or RSA_V2, so Wallet cannot use the request"))
        }
        return findings
    }

    private func absence(of value: Data?) -> String? {
        guard let value else { return "missing" }
        return value.isEmpty ? "empty" : nil
    }

    /// What is wrong with an ECC_V2 ephemeral public key, or nil when it is an uncompressed point.
    private func pointProblem(_ key: Data?) -> String? {
        let requirement = "ECC_V2 needs an uncompressed point: \(Self.uncompressedPointLength) bytes starting 0x04"
        guard let key, let first = key.first else {
            return "ephemeralPublicKey is \(key == nil ? "missing" : "empty"); \(requirement)"
        }
        if key.count == Self.uncompressedPointLength && first == 0x04 { return nil }
        let firstByte = "0x" + (first < 0x10 ? "0" : "") + String(first, radix: 16)
        let kind: String
        switch first {
        case 0x02, 0x03: kind = "a compressed point, which Wallet refuses"
        case 0x04: kind = "an uncompressed point of the wrong length (not P-256)"
        default: kind = "not an EC point encoding"
        }
        return "ephemeralPublicKey is \(byteCountText(key.count)) starting \(firstByte): \(kind); \(requirement)"
    }
}
