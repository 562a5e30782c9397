/// What a reload changed, by bundle identifier (`apps.reload`'s result).
public struct ReloadSummary: Sendable, Codable, Equatable {
    /// Bundles installed since the last read of the apps directory.
    public var added: [String] = []
    /// Bundles rebuilt since then.
    public var replaced: [String] = []
    /// Bundles gone since then.
    public var removed: [String] = []

    /// An empty summary: nothing changed.
    public init() {}
}
