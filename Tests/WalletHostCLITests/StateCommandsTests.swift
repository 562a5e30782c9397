import Foundation
import Testing
import WalletTestSupport

/// `passes` and `device` with every option they take, on a fresh state directory (no extension runs).
@Suite("wallet-host passes and device", .timeLimit(.minutes(1)))
struct StateCommandsTests {
    let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-cli")

    @Test("passes add with --device, --suffix and --issuer; list per device; remove; reset")
    func passes() throws {
        defer { try? FileManager.default.removeItem(at: state) }
        let add = try WalletHostCommand.run(["passes", "add", "ACCT-1", "--device", "watch", "--suffix", "4242",
                                             "--issuer", "com.example.cli", "--state", state.path, "--json"])
        #expect(add.status == 0, "\(add.standardError)")
        let added = try add.json()
        #expect(added["primaryAccountIdentifier"] as? String == "ACCT-1")
        #expect(added["primaryAccountNumberSuffix"] as? String == "4242")
        #expect(added["issuer"] as? String == "com.example.cli")

        #expect(try WalletHostCommand.run(["passes", "add", "ACCT-2", "--state=\(state.path)"]).status == 0)
        let watch = try WalletHostCommand.run(["passes", "list", "--device", "watch", "--state", state.path])
        #expect(watch.standardOutput.contains("ACCT-1") && !watch.standardOutput.contains("ACCT-2"), "\(watch.standardOutput)")
        let all = try WalletHostCommand.run(["passes", "--state", state.path])
        #expect(all.standardOutput.contains("ACCT-1") && all.standardOutput.contains("ACCT-2"), "\(all.standardOutput)")

        let remove = try WalletHostCommand.run(["passes", "remove", "ACCT-2", "--state", state.path])
        #expect(remove.status == 0 && remove.standardOutput == "removed 1 pass(es)\n", "\(remove.standardOutput)")
        #expect(try WalletHostCommand.run(["passes", "remove", "ACCT-2", "--state", state.path]).status == 1)
        #expect(try WalletHostCommand.run(["passes", "reset", "--state", state.path]).status == 0)
        #expect(try WalletHostCommand.run(["passes", "list", "--state", state.path]).standardOutput == "no passes\n")

        let wrong = try WalletHostCommand.run(["passes", "add", "--state", state.path])
        #expect(wrong.status == 2)
        #expect(wrong.standardError.contains("passes add needs a PRIMARY_ACCOUNT_ID"))
    }

    @Test("device --watch pairs and unpairs the watch")
    func device() throws {
        defer { try? FileManager.default.removeItem(at: state) }
        let unpaired = try WalletHostCommand.run(["device", "--watch", "unpaired", "--state", state.path, "--json"])
        #expect(unpaired.status == 0, "\(unpaired.standardError)")
        #expect(try unpaired.json()["watchPaired"] as? Bool == false)
        let paired = try WalletHostCommand.run(["device", "--watch", "paired", "--state", state.path])
        #expect(paired.standardOutput.hasPrefix("Apple Watch: paired\n"), "\(paired.standardOutput)")
        let wrong = try WalletHostCommand.run(["device", "--watch", "maybe", "--state", state.path])
        #expect(wrong.status == 2)
        #expect(wrong.standardError.contains("--watch takes paired or unpaired"))
    }
}
