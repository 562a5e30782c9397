import Testing
import WalletHostRuntime

/// ``TerminalText``: what is escaped, and how it reads.
@Suite("TerminalText: control characters shown, not sent")
struct TerminalTextTests {
    @Test("ESC, BEL, CR, DEL and C1 controls are shown as \\u{HEX}; tab, line feed and other text stay")
    func escapes() {
        #expect(TerminalText.escaped("a\u{1B}]0;t\u{7}b") == #"a\u{1B}]0;t\u{7}b"#)
        #expect(TerminalText.escaped("FAILED\rPASSED") == #"FAILED\u{D}PASSED"#)
        #expect(TerminalText.escaped("x\u{7F}y\u{9B}z\u{80}\u{9F}") == #"x\u{7F}y\u{9B}z\u{80}\u{9F}"#)
        #expect(TerminalText.escaped("\u{0}") == #"\u{0}"#)
        #expect(TerminalText.escaped("two\nlines\twith a tab") == "two\nlines\twith a tab")
        #expect(TerminalText.escaped("two\nlines", multiline: false) == #"two\u{A}lines"#)
        #expect(TerminalText.escaped("café ✔ •• \u{A0}¡") == "café ✔ •• \u{A0}¡")
        #expect(TerminalText.escaped("") == "")
    }
}
