import Foundation
import WalletHostRuntime

// Everything `wallet-host` prints for people goes through these, so that no control character an
// extension, an app, a project or a bundle put in a string reaches the terminal raw
// (``TerminalText``). Default deny: this module's `print` is this one, which escapes; a JSON
// document, whose bytes are exact (control characters are JSON escapes in it already, DEL and
// C1 controls are kept), is printed with ``printJSON(_:)`` on purpose.

/// Prints `items` as Swift's `print` does, with control characters escaped (``TerminalText``):
/// every human-readable line of `wallet-host` (transcripts, reports, messages).
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { "\($0)" }.joined(separator: separator)
    Swift.print(TerminalText.escaped(text), terminator: terminator)
}

/// Prints a JSON document (`--json`) exactly as it was encoded.
func printJSON(_ document: String) {
    Swift.print(document)
}

/// Standard error, for people: a line with its control characters escaped (``TerminalText``).
enum StandardError {
    /// Writes `text` (one or more lines, with their line feeds) with control characters escaped.
    static func write(_ text: String) {
        FileHandle.standardError.write(Data(TerminalText.escaped(text).utf8))
    }
}
