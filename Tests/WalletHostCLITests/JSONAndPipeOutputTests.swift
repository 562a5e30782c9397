import Foundation
import Testing
import WalletTestSupport

/// Output people and scripts can use (issue 35): `--json` prints one JSON document on stdout
/// even when the command fails, with `/` unescaped; a reader that stops early (`| head`) gets
/// no complaint on stderr.
@Suite("wallet-host output for scripts and pipes", .timeLimit(.minutes(2)))
struct JSONAndPipeOutputTests {
    @Test("--json with an error prints {\"error\": ...} on stdout, the sentence on stderr", arguments: [
        (["call", "/nonexistent/X.appex", "status", "--json", "--no-daemon"], Int32(1), "failure"),
        (["call", "X.appex", "status", "--json", "--memory-limit", "10"], Int32(2), "usage"),
        (["stress", "--json"], Int32(2), "usage"),
        (["doctor", "--json", "--frobnicate"], Int32(2), "usage"),
    ])
    func errorsAsJSON(_ arguments: [String], _ status: Int32, _ kind: String) throws {
        let run = try WalletHostCommand.run(arguments)
        #expect(run.status == status)
        let error = try #require(try run.json()["error"] as? [String: Any], "\(run.standardOutput)")
        #expect(error["kind"] as? String == kind)
        #expect(error["exitStatus"] as? Int == Int(status))
        let message = try #require(error["message"] as? String)
        #expect(run.standardError.hasPrefix("wallet-host: \(message)"), "\(run.standardError)")
        // Paths stay readable: JSONEncoder's default would write \/nonexistent\/X.appex.
        #expect(!run.standardOutput.contains("\\/"), "\(run.standardOutput)")
    }

    @Test("validate --json writes paths with plain slashes")
    func validatePaths() throws {
        let missing = TemporaryDirectory.uniqueURL(prefix: "wallet-host-validate-json").appendingPathComponent("Nothing.app")
        let run = try WalletHostCommand.run(["validate", missing.path, "--json"])
        #expect(run.standardOutput.contains(missing.path), "\(run.standardOutput)")
        #expect(!run.standardOutput.contains("\\/"), "\(run.standardOutput)")
    }

    @Test("without --json an error prints nothing on stdout")
    func errorsWithoutJSON() throws {
        let run = try WalletHostCommand.run(["call", "/nonexistent/X.appex", "status", "--no-daemon"])
        #expect(run.status == 1)
        #expect(run.standardOutput.isEmpty)
    }

    @Test("a reader that stops early, as head does, gets no broken-pipe complaint")
    func brokenPipeIsSilent() async throws {
        let state = try TemporaryDirectory(prefix: "wallet-host-pipe")
        defer { state.remove() }
        // An event log far longer than a pipe holds, so that wallet-host writes after head left.
        let logs = state.url.appendingPathComponent("logs")
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        let line = #"{"kind":"call","time":"2026-11-29T09:00:00.000Z","bundleIdentifier":"com.example.x","pid":7,"message":"status #1"}"#
        try Data(String(repeating: line + "\n", count: 20_000).utf8).write(to: logs.appendingPathComponent("events.jsonl"))
        let errors = state.url.appendingPathComponent("stderr")
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "\"$0\" logs --state \"$1\" 2>\"$2\" | head -n 1 >/dev/null", BuildProducts.walletHost.path,
                           state.url.path, errors.path]
        try shell.run()
        shell.waitUntilExit()
        let written = try String(contentsOf: errors, encoding: .utf8)
        #expect(written.isEmpty, "\(written)")

        // logs -f stops following once its reader left, instead of following into a closed pipe.
        let follow = Process()
        follow.executableURL = URL(fileURLWithPath: "/bin/sh")
        follow.arguments = ["-c", "\"$0\" logs -f --state \"$1\" 2>/dev/null | head -n 1 >/dev/null", BuildProducts.walletHost.path,
                            state.url.path]
        try follow.run()
        try await waitFor("logs -f to end after head left", timeout: .seconds(20)) { !follow.isRunning }
    }
}
