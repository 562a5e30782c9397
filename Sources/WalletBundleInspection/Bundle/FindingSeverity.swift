/// How much a finding matters, for every kind of finding: a bundle's (``ValidationFinding``)
/// and Wallet's about what an extension returned (`EntryFinding`).
public enum FindingSeverity: String, Sendable, Hashable, CaseIterable {
    /// What was checked cannot be used as it is: a bundle does not load, Wallet refuses an
    /// entry or request.
    case error
    /// It can be used, but would misbehave or be refused on a real device.
    case warning
    /// Information about how the host treats it (bundles only).
    case note
}
