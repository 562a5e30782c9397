import Foundation
import Testing
import Wallet
import WalletHostRuntime
import WalletHostTestSupport
import WalletTestSupport
import WalletWire

/// The sample issuer's extension is plain iOS code (`import PassKit`, `UserDefaults(suiteName:)`,
/// `Logger`, `UIImage(named:)`, WatchConnectivity); these tests run its real executable.
@Suite("iOS source compatibility with real processes", .serialized, .timeLimit(.minutes(2)))
struct SourceCompatibilityTests {
    static let group = "group.com.example.sampleissuer"
    static var sampleNonUI: URL { ExampleBundles.sampleIssuerApp.appendingPathComponent("PlugIns/WNonUIExt.appex") }

    /// What the containing app writes at login: the cards as JSON and the authentication flag,
    /// in the App Group's defaults file, as Foundation's UserDefaults writes it.
    static func writeDefaultsAsTheAppWould(container: String, cards: [String]) throws {
        let credentials = Dictionary(uniqueKeysWithValues: cards.map { card in
            (card, ["primaryAccountIdentifier": card, "primaryAccountSuffix": String(card.suffix(4)),
                    "cardholderName": "Jane Appleseed", "paymentNetwork": "Visa", "expiration": "11/28",
                    "encryptionScheme": "ECC_V2", "label": "Card \(card)", "localizedDescription": "A card",
                    "assetName": "card-ocean"])
        })
        let json = try JSONSerialization.data(withJSONObject: credentials)
        let plist: [String: Any] = ["PaymentPassCredentials": json, "ShouldRequireAuthenticationForAppleWallet": true]
        let directory = URL(fileURLWithPath: container).appendingPathComponent("Library/Preferences")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
            .write(to: directory.appendingPathComponent("\(group).plist"), options: .atomic)
    }

    @Test("Logger lines reach the extension's log with their level, subsystem and category; Bundle.main is the .appex")
    func loggerLinesReachTheLog() async throws {
        let (runner, events, _) = try ExampleBundles.runner(appex: Self.sampleNonUI)
        let status = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        await runner.stop()
        #expect((try? status.result.get())?.passEntriesAvailable == false)
        // The subsystem is Bundle.main.bundleIdentifier: the runtime found the .appex's Info.plist.
        let warning = "log.error: [com.example.sampleissuer.WNonUIExt:provisioning] no PaymentPassCredentials in the App Group"
        #expect(events.outputLines.contains { $0.hasPrefix(warning) }, "\(events.outputLines)")
    }

    @Test("UserDefaults(suiteName:) reads the App Group file the app wrote")
    func appGroupDefaultsAreShared() async throws {
        let (runner, _, state) = try ExampleBundles.runner(appex: Self.sampleNonUI)
        defer { Task { await runner.stop() } }
        let container = try #require(try state.appGroupContainers([Self.group], team: "com.example.sampleissuer")[Self.group])
        try Self.writeDefaultsAsTheAppWould(container: container, cards: ["FPANID-A-1111"])
        let first = try await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self).result.get()
        #expect(first.passEntriesAvailable)
        #expect(first.requiresAuthentication)
        let entries = try await runner.call(WireMethod.passEntries, params: NoParams(), resultType: PassEntriesResult.self).result.get()
        #expect(entries.entries.map(\.identifier) == ["FPANID-A-1111"])
        // UIImage(named: "card-ocean") found the art in the .appex and it travelled as PNG.
        #expect(entries.entries.first?.art.png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test("an extension already running when the app first logs in sees what the app wrote")
    func aWarmExtensionSeesTheAppsLogin() async throws {
        let (runner, _, state) = try ExampleBundles.runner(appex: Self.sampleNonUI)
        defer { Task { await runner.stop() } }
        let before = try await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self).result.get()
        #expect(!before.passEntriesAvailable, "no login yet")
        // The real app logs in while the extension stays warm. Foundation writes a new file,
        // mode 0600, as the host's user: root here, while a sandboxed extension runs as nobody.
        let app = try #require(InstalledApps(directory: ExampleBundles.directory).app(named: "SampleIssuer"))
        _ = try AppLauncher(device: SimulatedDevice(state: state)).open(app)
        // The SDK synchronizes the defaults before each call, and Foundation rereads a file that
        // changed; poll briefly all the same, since the test only needs the write to arrive.
        let giveUp = ContinuousClock.now + .seconds(5)
        var count = 0
        while count != 3, ContinuousClock.now < giveUp {
            count = try await runner.call(WireMethod.passEntries, params: NoParams(), resultType: PassEntriesResult.self)
                .result.get().entries.count
            if count != 3 { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(count == 3, "the warm extension never saw the three cards the app wrote")
    }

    @Test("the preferences directory links every App Group's defaults file and never replaces a file")
    func preferencesLinks() throws {
        let root = TemporaryDirectory.uniqueURL(prefix: "wallet-host-prefs")
        defer { try? FileManager.default.removeItem(at: root) }
        let first = root.appendingPathComponent("A").path
        let second = root.appendingPathComponent("B").path
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try AppGroupPreferences.prepare(appGroups: ["group.b": second, "group.a": first])
        let home = try #require(AppGroupPreferences.home(appGroups: ["group.b": second, "group.a": first]))
        #expect(home == first + "/Library/Preferences")
        let link = home + "/group.b.plist"
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == second + "/Library/Preferences/group.b.plist")
        // Run twice: the link stays; a regular file the app put there is never replaced.
        try AppGroupPreferences.prepare(appGroups: ["group.b": second, "group.a": first])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == second + "/Library/Preferences/group.b.plist")
        try FileManager.default.removeItem(atPath: link)
        try Data("mine".utf8).write(to: URL(fileURLWithPath: link))
        try AppGroupPreferences.prepare(appGroups: ["group.b": second, "group.a": first])
        #expect(try String(contentsOfFile: link, encoding: .utf8) == "mine")
        #expect(AppGroupPreferences.home(appGroups: [:]) == nil)
    }
}
