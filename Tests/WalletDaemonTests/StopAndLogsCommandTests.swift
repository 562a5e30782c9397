import Foundation
import Testing
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `wallet-host stop` and `wallet-host logs [-f]` against a real daemon (issue 35).
@Suite("wallet-host stop and logs", .serialized, .timeLimit(.minutes(2)))
struct StopAndLogsCommandTests {
    @Test func stopEndsTheDaemonAndWaitsForIt() async throws {
        let daemon = try await DaemonProcess().waitUntilServing()
        let run = try WalletHostCommand.run(["stop", "--state", daemon.state.path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput == "stopped the wallet-host daemon (pid \(daemon.pid)) on \(daemon.socketPath)\n")
        // stop returned after the daemon exited: nothing answers on its socket any more.
        #expect(try await daemon.waitForExit(timeout: .seconds(5)) == 0)
        let again = try WalletHostCommand.run(["stop", "--state", daemon.state.path])
        #expect(again.status == 0)
        #expect(again.standardOutput == "no wallet-host daemon is running on \(daemon.socketPath)\n")
    }

    @Test func logsPrintsTheEventLogAndFollowsIt() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let appex = apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex").path
        let daemon = try await DaemonProcess(apps: apps).waitUntilServing()
        #expect(try WalletHostCommand.run(["call", appex, "status", "--deadline", "status=5s", "--state", daemon.state.path]).status == 0)
        let logs = try WalletHostCommand.run(["logs", "--state", daemon.state.path])
        #expect(logs.status == 0, "\(logs.standardError)")
        #expect(logs.standardOutput.contains("  call  "), "\(logs.standardOutput)")
        #expect(logs.standardOutput.contains("com.example.testhelper"), "\(logs.standardOutput)")
        let raw = try WalletHostCommand.run(["logs", "--json", "--tail", "1", "--state", daemon.state.path])
        #expect(raw.standardOutput.split(separator: "\n").count == 1)
        #expect((try? JSONSerialization.jsonObject(with: Data(raw.standardOutput.utf8))) is [String: Any], "\(raw.standardOutput)")

        // -f prints what is logged after it started, as it is logged.
        let follow = Process()
        follow.executableURL = BuildProducts.walletHost
        follow.arguments = ["logs", "-f", "--tail", "0", "--state", daemon.state.path]
        let output = Pipe()
        follow.standardOutput = output
        follow.standardError = FileHandle.nullDevice
        try follow.run()
        defer { if follow.isRunning { follow.terminate() } }
        let lines = LineCollector(output.fileHandleForReading)
        #expect(try WalletHostCommand.run(["call", appex, "passEntries", "--state", daemon.state.path]).status == 0)
        try await waitFor("passEntries in logs -f", timeout: .seconds(10)) { lines.text.contains("passEntries") }
        #expect(follow.isRunning, "-f keeps following")
    }

    @Test func logsWithoutALogSaysNothingRanThere() throws {
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-no-log")
        let run = try WalletHostCommand.run(["logs", "--state", state.path])
        #expect(run.status == 1)
        #expect(run.standardError.contains("no event log at \(state.path)/logs/events.jsonl"), "\(run.standardError)")
    }
}
