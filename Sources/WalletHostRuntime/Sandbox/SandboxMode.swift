/// Whether the host runs extensions in the sandbox (`--sandbox auto|required|off`).
public enum SandboxMode: String, Sendable, CaseIterable {
    /// Sandboxed where the kernel allows the namespaces; elsewhere unsandboxed, with one warning
    /// per run and a note in every report.
    case auto
    /// Sandboxed, or the launch fails.
    case required
    /// Never sandboxed: extensions run as the host's user and see what it sees.
    case off

    /// Parses `auto`, `required` or `off`.
    /// - Throws: ``ConfigurationError`` naming the text.
    public static func parse(_ text: String) throws -> SandboxMode {
        guard let mode = SandboxMode(rawValue: text) else {
            throw ConfigurationError("--sandbox expects auto, required or off, not \"\(text)\"")
        }
        return mode
    }
}
