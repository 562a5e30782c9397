import Foundation
import Testing
import WalletTestSupport

/// `--quiet` where the output is long (issue 35): conform and add-card print what failed and
/// their last lines only.
@Suite("wallet-host --quiet", .serialized, .timeLimit(.minutes(2)))
struct QuietOutputTests {
    @Test func conformQuietPrintsTheSummariesOfAPassingRun() throws {
        let appex = ExampleBundles.testHelperApp.appendingPathComponent("PlugIns/TestHelperExt.appex")
        let run = try WalletHostCommand.run(["conform", appex.path, "--quiet", "--no-daemon", "--deadline", "status=5s"])
        #expect(run.status == 0, "\(run.standardOutput)")
        let lines = run.standardOutput.split(separator: "\n")
        #expect(lines.count == 2, "\(run.standardOutput)")
        #expect(lines.first?.hasPrefix("TestHelperExt: 17 checks, 17 passed") == true)
        #expect(lines.last == "conform: every check passed for 1 extension")
    }

    @Test func conformQuietKeepsTheFailedChecks() throws {
        let appex = try ExampleBundles.testHelper(mode: "wrong-shape")
        // A failing run keeps its device for diagnosis: give it one that goes with the test.
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-quiet-conform")
        let run = try WalletHostCommand.run(["conform", appex.path, "--quiet", "--no-daemon", "--state", state.path])
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("  FAIL "), "\(run.standardOutput)")
        #expect(!run.standardOutput.contains("  PASS "))
        #expect(run.standardOutput.contains("conform FAILED: TestHelperExt ("))
    }

    @Test func addCardQuietPrintsTheLastLine() throws {
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-quiet")
        #expect(try WalletHostCommand.run(["app", "open", ExampleBundles.testHelperApp.path, "--state", state.path]).status == 0)
        let run = try WalletHostCommand.run(["add-card", "--quiet", "--apps", ExampleBundles.directory.path, "--state", state.path,
                                             "--issuer", "com.example.testhelper", "--deadline", "status=5s", "--no-daemon"])
        #expect(run.status == 0, "\(run.standardOutput)")
        #expect(!run.standardOutput.contains("Discovery") && !run.standardOutput.contains("✔"), "\(run.standardOutput)")
        #expect(run.standardOutput.hasSuffix("Added 1 card(s) to iPhone.\n"))
    }
}

/// `call --verbose`: what the host saw of the call, after the report.
@Suite("wallet-host call --verbose", .timeLimit(.minutes(2)))
struct VerboseCallTests {
    @Test func verboseListsTheCallsEvents() throws {
        let appex = ExampleBundles.testHelperApp.appendingPathComponent("PlugIns/TestHelperExt.appex")
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-verbose")
        let run = try WalletHostCommand.run(["call", appex.path, "status", "--verbose", "--state", state.path, "--deadline", "status=5s"])
        #expect(run.status == 0, "\(run.standardError)")
        let events = try #require(run.standardOutput.components(separatedBy: "\nevents:\n").last)
        for kind in ["spawn", "handshake", "call", "result", "stop"] {
            #expect(events.contains("\n  \(kind): ") || events.hasPrefix("  \(kind): "), "\(kind) missing: \(events)")
        }
        let quiet = try WalletHostCommand.run(["call", appex.path, "status", "--state", state.path, "--deadline", "status=5s"])
        #expect(!quiet.standardOutput.contains("events:"))
    }
}
