import Foundation
import Testing
@testable import WalletHostRuntime

/// Which stderr line a crash report quotes.
@Suite("ExtensionExit's telltale stderr line")
struct TelltaleStderrLineTests {
    private func exit(_ stderr: [String]) -> ExtensionExit {
        ExtensionExit(status: .signaled(4), cause: .ended, executableName: "X", pid: 1, memoryLimitDescription: "55 MB",
                      stderrTail: stderr)
    }

    @Test("Swift's fatal error wins over the backtrace that follows it, and over frames naming assertions")
    func swiftFatalError() {
        let stderr = ["X/Handler.swift:19: Fatal error: out of cards", "Current stack trace:",
                      "0    libswiftCore.so    0x00007f82 swift_reportError + 33",
                      "3    libswiftCore.so    0x00007f82 _assertionFailure(_:_:file:line:flags:) + 221",
                      "21   libc.so.6          0x00007f82 <unavailable> + 1087724"]
        #expect(exit(stderr).telltaleStderrLine == "X/Handler.swift:19: Fatal error: out of cards")
    }

    @Test("Python's exception line, the last of its traceback")
    func pythonTraceback() {
        let stderr = ["Traceback (most recent call last):", #"  File "ext.py", line 3, in <module>"#,
                      "ValueError: no cards"]
        #expect(exit(stderr).telltaleStderrLine == "ValueError: no cards")
    }

    @Test("without a crash message, the last non-empty line")
    func plainLines() {
        #expect(exit(["loading", "done", "  "]).telltaleStderrLine == "done")
        #expect(exit([]).telltaleStderrLine == nil)
    }
}
