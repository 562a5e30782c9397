import Foundation
import Testing
import WalletTestSupport

/// Long work shows progress (issue 35): `conform` prints each check as it ends and `call` on a
/// slow method says it is waiting, on a pipe and at a terminal, never all at once at the end;
/// `call … passEntries` shows card art as its size and the file it wrote.
@Suite("wallet-host progress as it goes", .serialized, .timeLimit(.minutes(3)))
struct ProgressAsItGoesTests {
    /// Starts `wallet-host` with stdout and stderr on pipes, collected as they come.
    private func start(_ arguments: [String]) throws -> (Process, output: LineCollector, errors: LineCollector) {
        let process = Process()
        process.executableURL = BuildProducts.walletHost
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, LineCollector(output.fileHandleForReading), LineCollector(errors.fileHandleForReading))
    }

    @Test func conformOnAPipePrintsEachCheckAsItEnds() async throws {
        // passEntries takes 3 s: the checks that call it come seconds after the first line, however loaded the machine.
        let appex = try ExampleBundles.testHelper(mode: "slow-entries 3000")
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-conform-pipe")
        let (process, output, _) = try start(["conform", appex.path, "--no-daemon", "--deadline", "status=5s", "--state", state.path])
        defer { if process.isRunning { process.terminate() } }
        try await waitFor("the first check", timeout: .seconds(30)) { output.text.contains("PASS manifest-valid") }
        // Printed while the later checks still run: neither the summary nor the run-wide checks are there yet.
        #expect(!output.text.contains("checks,"), "\(output.text)")
        #expect(!output.text.contains("exactly-once"))
        process.waitUntilExit()
        #expect(output.text.contains("exactly-once") && output.text.contains("checks,"), "\(output.text)")
    }

    @Test func conformAtATerminalPrintsEachCheckAsItEnds() throws {
        let appex = ExampleBundles.testHelperApp.appendingPathComponent("PlugIns/TestHelperExt.appex")
        let terminal = try PseudoTerminal(BuildProducts.walletHost, ["conform", appex.path, "--no-daemon", "--deadline", "status=5s"])
        #expect(terminal.read(until: "PASS handshake"), "\(terminal.output)")
        #expect(!terminal.output.contains("checks,"), "\(terminal.output)")
        #expect(terminal.finish() == 0, "\(terminal.output)")
        #expect(terminal.output.contains("conform: every check passed"))
    }

    @Test func aSlowCallSaysItIsWaitingBeforeItsAnswer() async throws {
        let appex = try ExampleBundles.testHelper(mode: "slow-entries 4000")
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-slow-call")
        let (process, output, errors) = try start(["call", appex.path, "passEntries", "--no-daemon", "--state", state.path])
        defer { if process.isRunning { process.terminate() } }
        try await waitFor("the waiting line", timeout: .seconds(10)) { errors.text.contains("no answer yet") }
        #expect(process.isRunning, "said while the call was still running")
        #expect(output.text.isEmpty)
        #expect(errors.text.hasPrefix("wallet-host: calling passEntries on TestHelperExt, no answer yet (deadline 20 s)"), "\(errors.text)")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(errors.text)")
    }

    @Test func aSlowCallAtATerminalSaysItIsWaitingBeforeItsAnswer() throws {
        let appex = try ExampleBundles.testHelper(mode: "slow-entries 4000")
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-slow-call-tty")
        let terminal = try PseudoTerminal(BuildProducts.walletHost, ["call", appex.path, "passEntries", "--no-daemon", "--state", state.path])
        #expect(terminal.read(until: "no answer yet", timeout: .seconds(10)), "\(terminal.output)")
        #expect(!terminal.output.contains("passEntries -> "), "the waiting line comes before the answer: \(terminal.output)")
        #expect(terminal.finish() == 0, "\(terminal.output)")
        #expect(terminal.output.contains("passEntries -> TestHelperExt"))
    }

    @Test func aQuickCallSaysNothingOnStandardError() throws {
        let appex = ExampleBundles.testHelperApp.appendingPathComponent("PlugIns/TestHelperExt.appex")
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-quick-call")
        let run = try WalletHostCommand.run(["call", appex.path, "status", "--no-daemon", "--state", state.path, "--deadline", "status=5s"])
        #expect(run.status == 0)
        #expect(!run.standardError.contains("no answer yet"))
    }

    @Test func passEntriesShowsCardArtAsItsSizeAndAFileNotBase64() throws {
        let appex = ExampleBundles.testHelperApp.appendingPathComponent("PlugIns/TestHelperExt.appex")
        let state = try TemporaryDirectory(prefix: "wallet-host-art")
        defer { state.remove() }
        let run = try WalletHostCommand.run(["call", appex.path, "passEntries", "--no-daemon", "--state", state.url.path])
        #expect(run.status == 0, "\(run.standardError)")
        let file = state.url.appendingPathComponent("art/helper-card-0001.png")
        #expect(run.standardOutput.contains("\"png\" : \"PNG 1536 x 969, 279 bytes, written to \(file.path)\""), "\(run.standardOutput)")
        #expect(try Data(contentsOf: file).starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(!run.standardOutput.contains("iVBOR"), "no base64 PNG in the transcript")
        let json = try WalletHostCommand.run(["call", appex.path, "passEntries", "--json", "--no-daemon", "--state", state.url.path])
        let entries = try #require((json.json()["result"] as? [String: Any])?["entries"] as? [[String: Any]])
        let bytes = try Data(contentsOf: file).base64EncodedString()
        #expect((entries.first?["art"] as? [String: Any])?["png"] as? String == bytes, "--json keeps the bytes")
    }
}
