import WalletWire

extension String {
    /// At most `limit` UTF-8 bytes of the text, with its full size when cut, for logs and
    /// messages: an extension chooses its own ids, method names and log text, and a 10 MB one
    /// must not become a 10 MB log line.
    func cappedForLog(_ limit: Int = 80) -> String {
        let bytes = utf8.count
        guard bytes > limit else { return self }
        return String(decoding: utf8.prefix(limit), as: UTF8.self) + "... (\(bytes) bytes)"
    }

    /// One log line's worth: newlines and carriage returns escaped (`\n`, `\r`), so text an
    /// extension sends cannot forge lines of its own in a log, and at most `limit` bytes.
    func escapedForLogLine(limit: Int) -> String {
        var text = self
        if text.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            text = text.replacingOccurrences(of: "\r\n", with: "\\r\\n")
                .replacingOccurrences(of: "\n", with: "\\n")
                .replacingOccurrences(of: "\r", with: "\\r")
        }
        return text.cappedForLog(limit)
    }
}

extension RequestID {
    /// The id as events and messages show it, capped (``String/cappedForLog(_:)``).
    var logged: String { description.cappedForLog() }
}
