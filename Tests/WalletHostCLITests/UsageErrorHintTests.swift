import Foundation
import Testing
import WalletTestSupport

/// Errors that say what to do (issue 35): one error and a short usage line, "did you mean" for
/// commands, options and methods, units and the minimum for --memory-limit, an app's extensions
/// for `call X.app`, the line and column of bad JSON, the apps directory when it is missing.
@Suite("wallet-host errors that say what to do", .timeLimit(.minutes(2)))
struct UsageErrorHintTests {
    /// Runs `arguments`, expecting a usage error whose first line is `message`, then one short usage line.
    private func expectUsageError(_ arguments: [String], _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let run = try WalletHostCommand.run(arguments)
        #expect(run.status == 2, "\(run.standardError)", sourceLocation: sourceLocation)
        let lines = run.standardError.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first.map(String.init) == "wallet-host: \(message)", "\(run.standardError)", sourceLocation: sourceLocation)
        #expect(lines.count == 3 && lines[1].hasPrefix("usage: wallet-host ") && lines[2].isEmpty,
                "one error and one usage line: \(run.standardError)", sourceLocation: sourceLocation)
    }

    @Test("a mistyped command, option or method is named with the one meant", arguments: [
        (["confrom", "X.appex"], "unknown command \"confrom\" (did you mean conform?)"),
        (["add-crad"], "unknown command \"add-crad\" (did you mean add-card?)"),
        (["call", "X.appex", "status", "--user-agnet", "f"], "unknown option --user-agnet for call (did you mean --user-agent?)"),
        (["add-card", "--isuer", "x"], "unknown option --isuer for add-card (did you mean --issuer?)"),
        (["call", "X.appex", "Status"], "\"Status\" is not a method of Wallet's extension points (did you mean status?)"),
        (["call", "X.appex", "passEntires"], "\"passEntires\" is not a method of Wallet's extension points (did you mean passEntries?)"),
        (["frobnicate"], "unknown command \"frobnicate\""),
    ])
    func didYouMean(_ arguments: [String], _ message: String) throws {
        try expectUsageError(arguments, message)
    }

    @Test("--memory-limit needs a unit and at least 8 MB, and says so before anything runs", arguments: [
        ("10", "--memory-limit 10 has no unit: write it with one, such as 10MB (MB is taken as MiB; the defaults are Wallet's 55MB non-UI, 60MB UI)"),
        ("10KB", "--memory-limit 10KB is below 8MB: a Swift extension's runtime alone needs about 6MB, so it would be killed at launch "
         + "(stress --find-memory-limit finds the real floor; the defaults are Wallet's 55MB non-UI, 60MB UI)"),
        ("1MB", "--memory-limit 1MB is below 8MB: a Swift extension's runtime alone needs about 6MB, so it would be killed at launch "
         + "(stress --find-memory-limit finds the real floor; the defaults are Wallet's 55MB non-UI, 60MB UI)"),
    ])
    func memoryLimit(_ value: String, _ message: String) throws {
        try expectUsageError(["call", ExampleBundles.testHelperApp.appendingPathComponent("PlugIns/TestHelperExt.appex").path, "status",
                              "--memory-limit", value], message)
    }

    @Test("call X.app names the app's extensions")
    func callAnApp() throws {
        let app = ExampleBundles.testHelperApp.path
        try expectUsageError(["call", app, "status"], "\(app) is an app, and call runs one extension: give one of its extensions, "
                                 + "\(app)/PlugIns/TestHelperExt.appex")
    }

    @Test("bad JSON is named by line and column; an empty file or /dev/null is empty, not a permission problem")
    func badJSON() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-bad-json")
        defer { directory.remove() }
        let script = directory.url.appendingPathComponent("agent.json")
        try Data("{\n  \"answers\": [\n    {\"action\" \"Log In\"}\n  ]\n}\n".utf8).write(to: script)
        let apps = ["--apps", ExampleBundles.directory.path, "--state", directory.url.appendingPathComponent("state").path, "--no-daemon"]
        let bad = try WalletHostCommand.run(["add-card", "--user-agent", script.path] + apps)
        #expect(bad.status == 1)
        #expect(bad.standardError.hasPrefix("wallet-host: \(script.path): not valid JSON: line 3, column 15: "), "\(bad.standardError)")
        let empty = try WalletHostCommand.run(["add-card", "--user-agent", "/dev/null"] + apps)
        #expect(empty.standardError == "wallet-host: /dev/null: not valid JSON: the text is empty\n", "\(empty.standardError)")
        try expectUsageError(["call", "X.appex", "status", "--params", "{\"a\": 1,, \"b\": 2}"],
                             "--params is not valid JSON: line 1, column 9: Invalid value")
    }

    @Test("a missing default apps directory names --apps and WALLET_HOST_APPS")
    func missingAppsDirectory() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-elsewhere")
        defer { directory.remove() }
        // As an installed binary run in a directory without .build/bundles.
        let run = try WalletHostCommand.run(["add-card", "--state", directory.url.appendingPathComponent("state").path, "--no-daemon"],
                                            workingDirectory: directory.url, environment: ["WALLET_HOST_APPS": nil])
        #expect(run.status == 1)
        #expect(run.standardError.contains("no apps directory at \(directory.url.path)/.build/bundles (the default"), "\(run.standardError)")
        #expect(run.standardError.contains("give --apps DIR, or set WALLET_HOST_APPS"))
        #expect(run.standardOutput.isEmpty)
    }

    @Test("--version prints the version and exits 0")
    func version() throws {
        let run = try WalletHostCommand.run(["--version"])
        #expect(run.status == 0)
        #expect(run.standardOutput.hasPrefix("wallet-host 2."), "\(run.standardOutput)")
        #expect(run.standardError.isEmpty)
    }
}
