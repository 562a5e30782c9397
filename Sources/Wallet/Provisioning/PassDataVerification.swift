import Foundation

/// What the host made of a request's encrypted payload: decrypted or not (and if not, the
/// mistake that explains it), and what the payload says. Never holds the card number: only
/// its last four digits, as `•••• 4242`.
public struct PassDataVerification: Sendable, Codable, Hashable {
    /// How far the host could check the request.
    public enum Status: String, Sendable, Codable {
        /// Decrypted and every check passed (warnings aside).
        case verified
        /// Not decrypted, or a check of the payload failed: Wallet would not add the card.
        case failed
        /// RSA_V2: its scheme is not public, so only the request's shape was checked.
        case shapeOnly = "shape-only"
        /// The chain the request was made for is not one this host issued, so it cannot be decrypted.
        case unknownChain = "unknown-chain"
    }

    /// What the decrypted payload says (the card number masked).
    public struct Payload: Sendable, Codable, Hashable {
        /// `•••• 4242`, or nil when the payload has no usable number.
        public var primaryAccountNumber: String?
        public var expiration: String?
        public var name: String?
        public var nonceMatches: Bool
        public var nonceSignatureMatches: Bool
    }

    public var scheme: String
    public var status: Status
    /// Whether the payload decrypted (under Apple's recipe or, see ``variant``, a mistaken one).
    public var decrypted: Bool
    /// The mistaken variant the payload decrypts under (``ECCV2Variant``'s raw value), when not Apple's recipe.
    public var variant: String?
    public var payload: Payload?
    /// Errors and warnings, each as `severity: field: problem`.
    public var problems: [String]
    /// One line for people: what was checked and what came out.
    public var summary: String
    /// The same problems as findings, for the add-card flow and conformance (not encoded).
    public var findings: [EntryFinding] = []

    private enum CodingKeys: String, CodingKey {
        case scheme, status, decrypted, variant, payload, problems, summary
    }

    /// Whether the request passes (a shape-only or unknown-chain check does: there is nothing more to hold against it).
    public var passed: Bool { status != .failed }

    /// `•••• 4242`: how a card number is shown anywhere the host writes it.
    public static func masked(_ number: String) -> String {
        "•••• " + String(number.suffix(4))
    }
}
