import Foundation
import Testing
import WalletTestSupport

/// Values no command can use are usage errors, exit 2, with a sentence naming the option and the
/// value, before anything runs or is written; none crashes the host (issue 16, bad input).
@Suite("wallet-host with values it cannot use", .timeLimit(.minutes(1)))
struct BadInputTests {
    let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-bad-input")

    /// Runs `arguments` and checks the usage error: exit 2, `message` first on stderr, no trap.
    private func expectUsageError(_ arguments: [String], _ message: String,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try WalletHostCommand.run(arguments)
        #expect(run.status == 2, "\(run.standardError)", sourceLocation: sourceLocation)
        #expect(run.standardError.hasPrefix("wallet-host: \(message)\n"), "\(run.standardError)", sourceLocation: sourceLocation)
        #expect(!run.standardError.contains("Fatal error"), sourceLocation: sourceLocation)
        #expect(run.standardOutput.isEmpty, sourceLocation: sourceLocation)
    }

    @Test("a huge duration is a usage error for every option that takes one (it trapped converting to Int64)", arguments: [
        (["call", "X.appex", "status", "--deadline", "status=1e300s"], "--deadline status: \"1e300s\""),
        (["call", "X.appex", "status", "--hang-grace", "1e300s"], "--hang-grace: \"1e300s\""),
        (["serve", "--idle-timeout", "1e300s"], "--idle-timeout: \"1e300s\""),
        (["serve", "--drain-grace", "1e300s"], "--drain-grace: \"1e300s\""),
        (["stress", "X.appex", "--duration", "1e300s"], "--duration: \"1e300s\""),
    ])
    func hugeDurations(_ arguments: [String], _ named: String) throws {
        try expectUsageError(arguments + ["--state", state.path], "\(named) is longer than 24 h, the longest duration accepted")
        #expect(!FileManager.default.fileExists(atPath: state.path), "a usage error touches no state")
    }

    @Test("NaN, infinite and negative durations name the option and the text", arguments: [
        (["serve", "--drain-grace", "nan"], "--drain-grace expects a duration such as 20s or 500ms, not \"nan\""),
        (["serve", "--idle-timeout", "infs"], "--idle-timeout expects a duration such as 30s or 500ms, not \"infs\""),
        (["stress", "X.appex", "--duration", "-5s"], "--duration expects a duration of zero or more, not \"-5s\""),
        (["call", "X.appex", "status", "--memory-limit", "1e300MB"],
         "--memory-limit expects a size such as 55MB or 60MiB, up to 1 TiB, not \"1e300MB\""),
    ])
    func unusableDurations(_ arguments: [String], _ message: String) throws {
        try expectUsageError(arguments + ["--state", state.path], message)
    }

    @Test("--deadline for a method no extension point has names it and the known ones")
    func unknownDeadlineMethod() throws {
        try expectUsageError(["call", "X.appex", "status", "--deadline", "frobnicate=5ms"],
                             "--deadline: \"frobnicate\" is not a method of any extension point; the methods are "
                                 + "status, passEntries, remotePassEntries, generateAddPaymentPassRequest, authorize")
    }

    @Test("--params must be a JSON object", arguments: ["[1,2]", "42", "\"status\"", "null"])
    func paramsNotAnObject(_ params: String) throws {
        try expectUsageError(["call", "X.appex", "status", "--params", params],
                             "--params must be a JSON object such as {\"key\": 1}, not \(params)")
    }

    @Test("passes add and remove refuse an empty, blank or newline identifier; no pass is stored", arguments: [
        (["passes", "add", ""], "passes add: the primary account identifier \"\" is empty"),
        (["passes", "add", " "], "passes add: the primary account identifier \" \" is blank"),
        (["passes", "add", "\n"], "passes add: the primary account identifier \"\\n\" holds a control character (a newline, a tab)"),
        (["passes", "add", "ACCT\t1"], "passes add: the primary account identifier \"ACCT\\t1\" holds a control character (a newline, a tab)"),
        (["passes", "remove", ""], "passes remove: the primary account identifier \"\" is empty"),
        (["passes", "remove", "\n"], "passes remove: the primary account identifier \"\\n\" holds a control character (a newline, a tab)"),
    ])
    func passIdentifiers(_ arguments: [String], _ message: String) throws {
        defer { try? FileManager.default.removeItem(at: state) }
        try expectUsageError(arguments + ["--state", state.path, "--no-daemon"], message)
        #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("passes.json").path))
    }

    @Test("--suffix takes the card number's last 4 or 5 digits", arguments: ["abcd", "12", "123456", "12a4", "１２３４"])
    func suffixes(_ suffix: String) throws {
        defer { try? FileManager.default.removeItem(at: state) }
        try expectUsageError(["passes", "add", "ACCT-1", "--suffix", suffix, "--state", state.path, "--no-daemon"],
                             "--suffix expects the card number's last 4 or 5 digits, such as 1234, not \"\(suffix)\"")
        #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("passes.json").path))
    }

    @Test("--suffix 4 or 5 digits is stored as given")
    func goodSuffix() throws {
        defer { try? FileManager.default.removeItem(at: state) }
        for (account, suffix) in [("ACCT-4", "4242"), ("ACCT-5", "04242")] {
            let run = try WalletHostCommand.run(["passes", "add", account, "--suffix", suffix, "--state", state.path, "--no-daemon"])
            #expect(run.status == 0, "\(run.standardError)")
        }
        let list = try WalletHostCommand.run(["passes", "--state", state.path, "--no-daemon"])
        #expect(list.standardOutput.contains("ACCT-4 ••4242") && list.standardOutput.contains("ACCT-5 ••04242"), "\(list.standardOutput)")
    }

    @Test("add-card --select refuses an empty identifier in its list", arguments: [("", ""), ("a,,b", ""), ("a,\n", "\\n")])
    func selections(_ select: String, _ shown: String) throws {
        try expectUsageError(["add-card", "--select", select, "--state", state.path, "--no-daemon"],
                             "--select \(select.debugDescription): the entry identifier \"\(shown)\" "
                                 + (shown.isEmpty ? "is empty" : "holds a control character (a newline, a tab)")
                                 + "; give all, or identifiers separated by commas")
    }
}
