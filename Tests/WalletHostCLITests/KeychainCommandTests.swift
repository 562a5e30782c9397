import Foundation
import Testing
import WalletTestSupport

/// `wallet-host keychain` on a fresh state directory: a token stored as an app would, listed
/// without its secret, removed and reset.
@Suite("wallet-host keychain", .timeLimit(.minutes(1)))
struct KeychainCommandTests {
    let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-cli-keychain")

    @Test("add with --group or --app, list without secrets, remove by filter, reset")
    func keychain() throws {
        defer { try? FileManager.default.removeItem(at: state) }
        let add = try WalletHostCommand.run(["keychain", "add", "--group", "group.example", "--team", "com.example", "--service", "bank",
                                             "--account", "jane", "--secret", "s3cret", "--state", state.path, "--json"])
        #expect(add.status == 0, "\(add.standardError)")
        #expect(try add.json()["accessGroup"] as? String == "group.example")

        // The sample issuer's app has no keychain-access-groups: its default group is its bundle identifier.
        let asApp = try WalletHostCommand.run(["keychain", "add", "--app", ExampleBundles.sampleIssuerApp.path, "--account", "jane",
                                               "--secret", "app-token", "--state", state.path])
        #expect(asApp.status == 0, "\(asApp.standardError)")
        #expect(asApp.standardOutput == "added service \"\" account \"jane\" to com.example.sampleissuer\n", "\(asApp.standardOutput)")

        let duplicate = try WalletHostCommand.run(["keychain", "add", "--group", "group.example", "--team", "com.example", "--service", "bank",
                                                   "--account", "jane", "--secret", "again", "--state", state.path])
        #expect(duplicate.status == 1)
        #expect(duplicate.standardError.contains("an item with service \"bank\" and account \"jane\" is already in that access group"))

        let list = try WalletHostCommand.run(["keychain", "--state", state.path])
        #expect(list.standardOutput.contains("group.example: service \"bank\" account \"jane\", 6-byte secret"), "\(list.standardOutput)")
        #expect(!list.standardOutput.contains("s3cret") && !list.standardOutput.contains("app-token"))
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(
            WalletHostCommand.run(["keychain", "list", "--group", "com.example.sampleissuer", "--state", state.path, "--json"])
                .standardOutput.utf8)) as? [[String: Any]])
        #expect(listed.map { $0["secretBytes"] as? Int } == [9])
        #expect(listed.map { $0["team"] as? String } == ["com.example.sampleissuer"], "the app's team owns what it stores")

        let remove = try WalletHostCommand.run(["keychain", "remove", "--group", "group.example", "--state", state.path])
        #expect(remove.status == 0 && remove.standardOutput == "removed 1 item(s)\n", "\(remove.standardOutput)")
        #expect(try WalletHostCommand.run(["keychain", "remove", "--group", "group.example", "--state", state.path]).status == 1)
        #expect(try WalletHostCommand.run(["keychain", "reset", "--state", state.path]).status == 0)
        #expect(try WalletHostCommand.run(["keychain", "--state", state.path]).standardOutput == "no keychain items\n")
    }

    @Test("usage errors name what is missing")
    func usageErrors() throws {
        defer { try? FileManager.default.removeItem(at: state) }
        let noSecret = try WalletHostCommand.run(["keychain", "add", "--group", "g", "--state", state.path])
        #expect(noSecret.status == 2 && noSecret.standardError.contains("keychain add needs --secret TEXT"))
        let noGroup = try WalletHostCommand.run(["keychain", "add", "--secret", "x", "--state", state.path])
        #expect(noGroup.status == 2 && noGroup.standardError.contains("either --group GROUP or --app APP"))
        let noTeam = try WalletHostCommand.run(["keychain", "add", "--group", "group.example", "--secret", "x", "--state", state.path])
        #expect(noTeam.status == 2 && noTeam.standardError.contains("keychain add --group group.example needs --team TEAM"), "\(noTeam.standardError)")
        let unfiltered = try WalletHostCommand.run(["keychain", "remove", "--state", state.path])
        #expect(unfiltered.status == 2 && unfiltered.standardError.contains("keychain remove needs --group, --service or --account"))
    }
}
