/// Text for a terminal or a human-readable transcript, with every control character shown instead
/// of sent: an extension's error message, stderr line, identifier or pass title printed raw could
/// set the terminal's title (`ESC ] 0 ; ... BEL`), write the clipboard (OSC 52), move the cursor,
/// or return to the start of a line (`CR`) and print "PASSED" over "FAILED".
///
/// The form is Swift's own escape, `\u{HEX}` with upper-case hex digits: ESC is `\u{1B}`, BEL
/// `\u{7}`, CR `\u{D}`, DEL `\u{7F}`, the C1 control CSI `\u{9B}`. What is escaped: every C0
/// control (U+0000-U+001F) but tab and, in multi-line text, line feed; DEL (U+007F); every C1
/// control (U+0080-U+009F). A sequence that starts with ESC is harmless once its ESC is escaped;
/// the rest of it prints as the plain characters it is. Everything else, other scripts and emoji
/// included, prints as it is. A literal backslash is not escaped: text that itself holds `\u{1B}`
/// reads the same as an escaped ESC, which is harmless (no byte reaches the terminal) but not
/// reversible; JSON output (`--json`, the event log) keeps the exact text for whoever needs it.
public enum TerminalText {
    /// `text` with its control characters escaped as ``TerminalText`` describes.
    /// - Parameter multiline: Whether line feeds are the text's own line breaks (a transcript, a
    ///   report of several lines) and stay; false escapes them too, for a value that must stay on
    ///   its one line.
    public static func escaped(_ text: String, multiline: Bool = true) -> String {
        // Almost every line has nothing to escape: checked over the UTF-8 bytes, without a copy.
        guard text.utf8.contains(where: { mayNeedEscape($0, multiline: multiline) }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if isEscaped(scalar, multiline: multiline) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether `scalar` is shown escaped (see ``TerminalText``).
    public static func isEscaped(_ scalar: Unicode.Scalar, multiline: Bool = true) -> Bool {
        switch scalar.value {
        case 0x09: false
        case 0x0A: !multiline
        case 0x00...0x1F, 0x7F, 0x80...0x9F: true
        default: false
        }
    }

    /// Whether a UTF-8 byte may belong to a character that is escaped: a C0 control or DEL, or the
    /// lead byte 0xC2 of U+0080-U+00BF (C1 controls among them; the scalar check decides).
    private static func mayNeedEscape(_ byte: UInt8, multiline: Bool) -> Bool {
        switch byte {
        case 0x09: false
        case 0x0A: !multiline
        case 0x00...0x1F, 0x7F, 0xC2: true
        default: false
        }
    }
}
