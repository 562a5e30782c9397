import Foundation
import Testing
import WalletTestSupport

/// `app open Name.app --apps DIR`, the next command `import` and `bundle` print: a bare bundle
/// name that is no folder where the command runs is looked up in the apps folder (it was taken
/// as a path from the working directory, and failed with "cannot load").
@Suite(.timeLimit(.minutes(2)))
struct AppOpenByBundleNameTests {
    @Test func aBareBundleNameIsFoundInTheAppsFolder() throws {
        let elsewhere = try TemporaryDirectory(prefix: "wallet-host-app-open-cwd")
        let state = try TemporaryDirectory(prefix: "wallet-host-app-open-state")
        defer { elsewhere.remove(); state.remove() }
        let opened = try WalletHostCommand.run(
            ["app", "open", "SampleIssuer.app", "--apps", ExampleBundles.directory.path, "--state", state.url.path],
            workingDirectory: elsewhere.url)
        #expect(opened.status == 0, "\(opened.standardError)")

        let missing = try WalletHostCommand.run(
            ["app", "open", "NoSuchBank.app", "--apps", ExampleBundles.directory.path, "--state", state.url.path],
            workingDirectory: elsewhere.url)
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("no app called NoSuchBank.app in \(ExampleBundles.directory.path)"))
    }
}
