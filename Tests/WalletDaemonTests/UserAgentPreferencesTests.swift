import Foundation
import Testing
import WalletDaemon
import WalletTestSupport
import WalletWire

/// `add-card --user-agent FILE` with the README's own file, on a device where a second bank is
/// listed first: the script's `issuer` picks the named bank and its `select` adds only the
/// cards it names, in process and through a daemon. (The flow once learned both by downcasting
/// its user agent, which the CLI had wrapped in two recorders: in process it picked the first
/// bank listed and added every card it offered.)
@Suite(.serialized, .timeLimit(.minutes(2)))
struct UserAgentPreferencesTests {
    /// The README's user agent script: the JSON block after "`--user-agent FILE` plays a script".
    static func readmeScript() throws -> URL {
        let readme = try String(contentsOf: BuildProducts.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let mention = try #require(readme.range(of: "`--user-agent FILE` plays a script"), "README.md no longer shows a user agent file")
        let opening = try #require(readme.range(of: "```json\n", range: mention.upperBound..<readme.endIndex))
        let closing = try #require(readme.range(of: "```", range: opening.upperBound..<readme.endIndex))
        let json = readme[opening.upperBound..<closing.lowerBound]
        let file = try TemporaryDirectory(prefix: "wallet-host-readme-agent").url.appendingPathComponent("agent.json")
        try Data(json.utf8).write(to: file)
        return file
    }

    /// The sample issuer, and the test helper's app as `AnotherBank.app`, which Wallet lists first.
    static func appsWithTwoBanks() throws -> URL {
        let apps = try appsDirectory(with: [ExampleBundles.sampleIssuerApp])
        try FileManager.default.copyItem(at: ExampleBundles.testHelperApp, to: apps.appendingPathComponent("AnotherBank.app"))
        return apps
    }

    /// Opens both banks' apps on the device of `state` (Wallet lists only apps opened once).
    static func openBothBanks(apps: URL, state: URL) throws {
        for app in ["SampleIssuer", "AnotherBank"] {
            let opened = try WalletHostCommand.run(["app", "open", app, "--apps", apps.path, "--state", state.path])
            #expect(opened.status == 0, "\(opened.standardError)")
        }
    }

    /// What the README's script asks for, checked in the `--json` report of `run`.
    static func expectTheScriptsChoices(_ run: WalletHostRun, script: URL, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let stated = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: script)) as? [String: Any])
        let issuer = try #require(stated["issuer"] as? String)
        let selected = try #require(stated["select"] as? [String], "the README's script selects cards by identifier")
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)", sourceLocation: sourceLocation)
        let report = try run.json()
        let discovery = try #require(report["discovery"] as? [[String: Any]])
        #expect(discovery.filter { $0["listed"] as? Bool == true }.compactMap { $0["name"] as? String } == ["AnotherBank", "SampleIssuer"],
                "both banks are listed, the other first: picking the first listed would be visible", sourceLocation: sourceLocation)
        #expect(report["issuer"] as? String == issuer, sourceLocation: sourceLocation)
        let cards = try #require(report["cards"] as? [[String: Any]])
        #expect(cards.compactMap { $0["identifier"] as? String } == selected, sourceLocation: sourceLocation)
        #expect(cards.allSatisfy { $0["added"] as? Bool == true }, "\(cards)", sourceLocation: sourceLocation)
    }

    @Test func withoutADaemonTheScriptsIssuerAndSelectionAreUsed() throws {
        let script = try Self.readmeScript()
        let apps = try Self.appsWithTwoBanks()
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-preferences")
        defer { try? FileManager.default.removeItem(at: state) }
        try Self.openBothBanks(apps: apps, state: state)
        let run = try WalletHostCommand.run(["add-card", "--no-daemon", "--user-agent", script.path, "--json", "--deadline", "status=5s",
                                             "--apps", apps.path, "--state", state.path])
        try Self.expectTheScriptsChoices(run, script: script)
    }

    @Test func throughADaemonTheScriptsIssuerAndSelectionAreUsed() async throws {
        let script = try Self.readmeScript()
        let apps = try Self.appsWithTwoBanks()
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--deadline", "status=5s"]).waitUntilServing()
        try Self.openBothBanks(apps: apps, state: daemon.state)
        let before = try DaemonClient.decode(DaemonAPI.Status.self, from: try await daemon.call("host.status")).requestsServed
        let run = try WalletHostCommand.run(["add-card", "--user-agent", script.path, "--json", "--apps", apps.path,
                                             "--state", daemon.state.path])
        let after = try DaemonClient.decode(DaemonAPI.Status.self, from: try await daemon.call("host.status")).requestsServed
        #expect(after > before + 1, "host.status and wallet.addCard went through the daemon")
        try Self.expectTheScriptsChoices(run, script: script)
    }
}
