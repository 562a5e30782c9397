import Foundation
import Testing
@testable import os

/// `Logger` and `os_log` follow the device's privacy rules.
struct LoggingCompatibilityTests {
    @Test("interpolated strings are private unless marked public; numbers and booleans are shown")
    func loggerPrivacy() {
        let account = "FPANID-1234"
        let name = "Jane"
        let message: OSLogMessage = "card \(account) of \(name, privacy: .public): \(3) left, ok \(true), pin \(1234, privacy: .private)"
        #expect(message.text == "card <private> of Jane: 3 left, ok true, pin <private>")
    }

    @Test("a hash mask replaces the value with a stable hash, and formats apply")
    func masksAndFormats() {
        let first: OSLogMessage = "\("secret", privacy: .private(mask: .hash))"
        let second: OSLogMessage = "\("secret", privacy: .private(mask: .hash))"
        #expect(first.text.hasPrefix("<mask.hash: '"))
        #expect(first.text == second.text)
        let formatted: OSLogMessage = "\(255, format: .hex) \(2.5, format: .fixed(precision: 2))"
        #expect(formatted.text == "0xff 2.50")
    }

    @Test("os_log formats: %@ and %s are private by default, %{public}@ is shown, numbers are shown")
    func osLogFormat() {
        let text = OSLogFormat.render("user %@ (%{public}@) has %d cards, %{private}d hidden, %.1f%% done, %ld",
                                      ["jane", "Gold", 3, 7, 99.5, 12])
        #expect(text == "user <private> (Gold) has 3 cards, <private> hidden, 99.5% done, 12")
        #expect(OSLogFormat.render("missing %d", []) == "missing <missing>")
    }

    @Test("levels map to the host log's names and subsystem/category prefix the line")
    func levelsAndPrefix() {
        #expect(OSLogType.default.name == "notice")
        #expect(OSLogType.debug.name == "debug")
        #expect(OSLogType.error.name == "error")
        #expect(OSLogType.fault.name == "fault")
        #expect(OSLog(subsystem: "com.example", category: "status").prefix == "[com.example:status] ")
        #expect(OSLog.default.prefix == "")
    }
}
