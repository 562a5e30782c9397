/// A user agent could not answer: a script with no answer for a prompt, a scripted action the
/// prompt does not offer, input that ended. The message says which prompt and why.
///
/// The host sends it to the extension as a `-32015` (service failed) answer to `ui.prompt`.
public struct UserAgentError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as a sentence.
    public var description: String

    /// Creates an error.
    /// - Parameter description: What went wrong, as a sentence naming the prompt.
    public init(_ description: String) {
        self.description = description
    }
}
