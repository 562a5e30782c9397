/// The pass and entry identifiers and the card number suffix typed on a command line, checked
/// before anything is read or written: an empty identifier, one with a newline or another control
/// character, or a suffix that is not digits would otherwise be stored or matched as they are.
enum PassArguments {
    /// A primary account identifier (`passes add ID`, `passes remove ID`): not empty or blank,
    /// no control characters.
    /// - Parameter context: The command, for the message (`passes add`).
    /// - Throws: ``UsageError`` naming the value, escaped so that a newline shows.
    static func accountIdentifier(_ text: String, in context: String) throws(UsageError) -> String {
        if let problem = identifierProblem(text) {
            throw UsageError("\(context): the primary account identifier \(text.debugDescription) \(problem)")
        }
        return text
    }

    /// `--select ID,...`: entry identifiers separated by commas, each a usable identifier.
    /// - Throws: ``UsageError`` naming the list and the identifier refused.
    static func entryIdentifiers(_ text: String) throws(UsageError) -> [String] {
        let identifiers = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        for identifier in identifiers {
            if let problem = identifierProblem(identifier) {
                throw UsageError("--select \(text.debugDescription): the entry identifier \(identifier.debugDescription) \(problem); "
                                 + "give all, or identifiers separated by commas")
            }
        }
        return identifiers
    }

    /// `--suffix DIGITS`: the last 4 or 5 digits of the card number, as PassKit shows it.
    /// - Throws: ``UsageError`` naming the value.
    static func accountNumberSuffix(_ text: String) throws(UsageError) -> String {
        guard (4...5).contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw UsageError("--suffix expects the card number's last 4 or 5 digits, such as 1234, not \(text.debugDescription)")
        }
        return text
    }

    /// Why `text` cannot be an identifier, as the end of a sentence; nil when it can.
    private static func identifierProblem(_ text: String) -> String? {
        if text.isEmpty { return "is empty" }
        if text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "holds a control character (a newline, a tab)"
        }
        if text.allSatisfy(\.isWhitespace) { return "is blank" }
        return nil
    }
}
