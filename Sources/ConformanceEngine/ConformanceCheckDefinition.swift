/// One check the engine can run: its identity and how to reach a verdict.
public struct ConformanceCheckDefinition: Sendable {
    /// The stable identifier, such as `entries-valid`.
    public var id: String
    /// What the check proves, for people.
    public var title: String
    /// Runs the check against the extension of `context`.
    public var run: @Sendable (ConformanceContext) async -> ConformanceVerdict

    /// Creates a check.
    /// - Parameters:
    ///   - id: The stable identifier.
    ///   - title: What the check proves.
    ///   - run: Reaches the verdict; it must stop every runner it starts.
    public init(id: String, title: String, run: @escaping @Sendable (ConformanceContext) async -> ConformanceVerdict) {
        self.id = id
        self.title = title
        self.run = run
    }
}
