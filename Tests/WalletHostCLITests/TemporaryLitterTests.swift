import Foundation
import Testing
import WalletTestSupport

/// Commands leave nothing in the temporary directory (issue 35: the demo left a
/// /tmp/wallet-host-demo-N per run). Each command runs with TMPDIR set to a fresh directory,
/// which must be empty once it exited.
@Suite("wallet-host leaves no temporary folders", .serialized, .timeLimit(.minutes(3)))
struct TemporaryLitterTests {
    /// Runs `arguments` with its own TMPDIR and gives what it left there.
    private func leftBehind(_ arguments: [String]) throws -> (run: WalletHostRun, left: [String]) {
        let temporary = try TemporaryDirectory(prefix: "wallet-host-tmpdir")
        defer { temporary.remove() }
        let run = try WalletHostCommand.run(arguments, environment: ["TMPDIR": temporary.url.path])
        return (run, try FileManager.default.contentsOfDirectory(atPath: temporary.url.path).sorted())
    }

    @Test func theDemoRemovesItsDevice() throws {
        // Passed or failed (Wallet's 100 ms status on a loaded machine), the demo's device goes with it.
        let (run, left) = try leftBehind(["demo", "--apps", ExampleBundles.directory.path])
        #expect(left.isEmpty, "left behind: \(left)")
        #expect(run.standardOutput.contains("run with --state DIR to keep it"))
    }

    @Test func aPassingConformAndStressRemoveTheirDevices() throws {
        let appex = ExampleBundles.testHelperApp.appendingPathComponent("PlugIns/TestHelperExt.appex").path
        for arguments in [["conform", appex, "--deadline", "status=5s"],
                          ["stress", appex, "--calls", "20", "--deadline", "status=5s"]] {
            let (run, left) = try leftBehind(arguments)
            #expect(run.status == 0, "\(arguments): \(run.standardOutput)\(run.standardError)")
            #expect(left.isEmpty, "\(arguments[0]) left behind: \(left)")
        }
    }
}
