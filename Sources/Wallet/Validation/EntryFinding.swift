import WalletBundleInspection

/// One problem Wallet would have with what an extension returned for a card: a pass entry
/// from `passEntries` / `remotePassEntries`, or the request from `generateAddPaymentPassRequest`.
///
/// Its ``description`` is the line people read, for example:
///
///     error: card-4242: art.png: art is 1024 x 768 pixels; Wallet needs exactly 1536 x 969
public struct EntryFinding: Sendable, Hashable, CustomStringConvertible {
    /// How much a finding matters: an error means Wallet refuses the entry or the request
    /// (the card cannot be added); a warning, that something is likely to go wrong on a real
    /// device. Entry findings are never notes.
    public typealias Severity = FindingSeverity

    /// How much this finding matters.
    public var severity: Severity
    /// The identifier of the entry the finding is about, as the extension sent it (possibly empty).
    public var entryIdentifier: String
    /// The entry's position (0-based) in the list the extension returned, for entry findings;
    /// `nil` for findings about a request.
    public var entryIndex: Int?
    /// The field, dotted for nested fields: `title`, `art.png`,
    /// `addRequestConfiguration.cardholderName`, `ephemeralPublicKey`, ...; `result` for the
    /// request as a whole.
    public var field: String
    /// A sentence saying what is wrong, without a trailing period.
    public var problem: String

    /// Creates a finding.
    /// - Parameters:
    ///   - severity: How much it matters.
    ///   - entryIdentifier: The identifier of the entry it is about.
    ///   - entryIndex: The entry's position in the extension's list, when it is about an entry.
    ///   - field: The field it is about.
    ///   - problem: What is wrong, as a sentence.
    public init(_ severity: Severity, entryIdentifier: String, entryIndex: Int? = nil, field: String, problem: String) {
        self.severity = severity
        self.entryIdentifier = entryIdentifier
        self.entryIndex = entryIndex
        self.field = field
        self.problem = problem
    }

    /// Whether Wallet refuses the entry or request because of this finding.
    public var isError: Bool { severity == .error }

    /// The finding as one line: `severity: entry: field: problem`. An entry without an
    /// identifier is named by its position (`entry 2`); a request finding made without an
    /// identifier leaves the entry out.
    public var description: String {
        guard let entryLabel else { return "\(severity.rawValue): \(field): \(problem)" }
        return "\(severity.rawValue): \(entryLabel): \(field): \(problem)"
    }

    private var entryLabel: String? {
        if !entryIdentifier.isEmpty { return entryIdentifier }
        return entryIndex.map { "entry \($0)" }
    }
}

extension EntryFinding {
    /// Field names used in findings.
    public enum Field {
        public static let identifier = "identifier"
        public static let title = "title"
        public static let art = "art.png"
        public static let encryptionScheme = "addRequestConfiguration.encryptionScheme"
        public static let cardholderName = "addRequestConfiguration.cardholderName"
        public static let primaryAccountIdentifier = "addRequestConfiguration.primaryAccountIdentifier"
        public static let style = "addRequestConfiguration.style"
        /// The `generateAddPaymentPassRequest` result as a whole (for a `null` result).
        public static let result = "result"
        public static let activationData = "activationData"
        public static let encryptedPassData = "encryptedPassData"
        public static let ephemeralPublicKey = "ephemeralPublicKey"
        public static let wrappedKey = "wrappedKey"
    }
}

extension Array where Element == EntryFinding {
    /// Whether any finding is an error.
    public var containsErrors: Bool { contains(where: \.isError) }
}

/// A byte count for people: `4,194,304 bytes`. Locale-free, so findings read the same everywhere.
func byteCountText(_ count: Int) -> String {
    var digits = Array(String(count))
    var grouped: [Character] = []
    while digits.count > 3 {
        grouped.insert(contentsOf: [","] + digits.suffix(3), at: 0)
        digits.removeLast(3)
    }
    grouped.insert(contentsOf: digits, at: 0)
    return String(grouped) + (count == 1 ? " byte" : " bytes")
}
