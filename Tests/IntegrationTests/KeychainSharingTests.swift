import Foundation
import Testing
import Wallet
import WalletBundleInspection
import WalletHostRuntime
import WalletTestSupport
import WalletWire

/// The keychain with real extension processes on one simulated device: the test helper's
/// plain Security code (HelperKeychain.swift) saves a token, a second bundle of the same issuer
/// whose `keychain-access-groups` names the same group reads it, and a bundle of another issuer
/// finds nothing and may not write into that group.
@Suite("Keychain shared by access group", .serialized, .timeLimit(.minutes(2)))
struct KeychainSharingTests {
    static let sharedGroup = "ABCDE12345.com.example.testhelper.shared"
    static let otherGroup = "ZZZZZ99999.com.example.otherbank.shared"

    /// A copy of the test helper app, renamed and entitled as asked, its extension in `mode`.
    /// - Parameter team: The `com.apple.developer.team-identifier` of the app and its extension, as
    ///   signing writes it; nil leaves them unsigned (their team is the app's bundle identifier).
    /// - Returns: The copy's extension bundle.
    static func helper(mode: String, appIdentifier: String = "com.example.testhelper",
                       extensionIdentifier: String = "com.example.testhelper.TestHelperExt", team: String? = nil,
                       keychainGroups: [String]) throws -> URL {
        let appex = try ExampleBundles.testHelper(mode: mode)
        let app = appex.deletingLastPathComponent().deletingLastPathComponent()
        try rewrite(app.appendingPathComponent("Info.plist")) { $0["CFBundleIdentifier"] = appIdentifier }
        try rewrite(appex.appendingPathComponent("Info.plist")) { $0["CFBundleIdentifier"] = extensionIdentifier }
        try rewrite(appex.appendingPathComponent("TestHelperExt.entitlements")) { $0["keychain-access-groups"] = keychainGroups }
        if let team {
            for entitlements in [app.appendingPathComponent("TestHelper.entitlements"), appex.appendingPathComponent("TestHelperExt.entitlements")] {
                try rewrite(entitlements) { $0["com.apple.developer.team-identifier"] = team }
            }
        }
        return appex
    }

    static func rewrite(_ plist: URL, _ change: (inout [String: Any]) -> Void) throws {
        var dictionary = try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: plist), format: nil)
                                      as? [String: Any])
        change(&dictionary)
        try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0).write(to: plist)
    }

    /// Runs the extension's passEntries on `device` and returns its first entry's card details.
    static func cardDetails(_ appex: URL, device: SimulatedDevice) async throws -> [String: String] {
        let (bundle, findings) = BundleLoader.wallet.loadExtension(at: appex)
        let loaded = try #require(bundle, "\(findings)")
        var configuration = HostConfiguration()
        configuration.services = DeviceServices(device: device)
        configuration.idleTimeout = nil
        let runner = ExtensionRunner(descriptor: ExtensionDescriptor(bundle: loaded, appGroups: [:]), configuration: configuration)
        let outcome = await runner.call(WireMethod.passEntries, params: NoParams(), resultType: PassEntriesResult.self)
        await runner.stop()
        let entry = try #require(try outcome.result.get().entries.first)
        let details = entry.addRequestConfiguration.cardDetails
        return Dictionary(details.map { ($0.label, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    @Test("an extension's token is read by a second bundle naming the same group, and not by another issuer")
    func sharedWithinTheGroupOnly() async throws {
        let device = SimulatedDevice(state: StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-keychain")))

        let writer = try Self.helper(mode: "keychain-write token-1", team: "ABCDE12345", keychainGroups: [Self.sharedGroup])
        #expect(try await Self.cardDetails(writer, device: device)["keychainStatus"] == "0")
        let items = try device.keychainItems()
        #expect(items.map(\.accessGroup) == [Self.sharedGroup], "the token goes to the first keychain-access-groups value")
        #expect(items.first?.data == Data("token-1".utf8))
        #expect(items.first?.accessible == "ck")

        let sibling = try Self.helper(mode: "keychain-read", extensionIdentifier: "com.example.testhelper.SecondExt",
                                      team: "ABCDE12345", keychainGroups: [Self.sharedGroup])
        let read = try await Self.cardDetails(sibling, device: device)
        #expect(read["keychainStatus"] == "0")
        #expect(read["keychainToken"] == "token-1")

        let stranger = try Self.helper(mode: "keychain-read", appIdentifier: "com.example.otherbank",
                                       extensionIdentifier: "com.example.otherbank.TestHelperExt", team: "ZZZZZ99999",
                                       keychainGroups: [Self.otherGroup])
        let strangerRead = try await Self.cardDetails(stranger, device: device)
        #expect(strangerRead["keychainStatus"] == "-25300", "errSecItemNotFound")
        #expect(strangerRead["keychainToken"] == nil)

        // Naming the bank's group outright is refused, and the bank's token stays as it was.
        try ExampleBundles.setMode("keychain-write stolen \(Self.sharedGroup)", appex: stranger)
        #expect(try await Self.cardDetails(stranger, device: device)["keychainStatus"] == "-34018", "errSecMissingEntitlement")
        #expect(try device.keychainItems().map(\.data) == [Data("token-1".utf8)])
    }

    @Test("without keychain-access-groups an extension keeps its token to itself")
    func privateWithoutTheEntitlement() async throws {
        let device = SimulatedDevice(state: StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-keychain")))
        let writer = try Self.helper(mode: "keychain-write token-2", keychainGroups: [])
        #expect(try await Self.cardDetails(writer, device: device)["keychainStatus"] == "0")
        #expect(try device.keychainItems().map(\.accessGroup) == ["com.example.testhelper.TestHelperExt"])
        try ExampleBundles.setMode("keychain-read", appex: writer)
        #expect(try await Self.cardDetails(writer, device: device)["keychainToken"] == "token-2")

        let sibling = try Self.helper(mode: "keychain-read", extensionIdentifier: "com.example.testhelper.SecondExt", keychainGroups: [])
        #expect(try await Self.cardDetails(sibling, device: device)["keychainStatus"] == "-25300")
    }

    @Test("a bundle of another team that names the bank's group in keychain-access-groups is not loaded, and would get no access")
    func anotherTeamCannotNameTheGroup() throws {
        let thief = try Self.helper(mode: "keychain-read", appIdentifier: "com.example.otherbank",
                                    extensionIdentifier: "com.example.otherbank.TestHelperExt", team: "ZZZZZ99999",
                                    keychainGroups: [Self.sharedGroup])
        let (bundle, findings) = BundleLoader.wallet.loadExtension(at: thief)
        #expect(bundle == nil)
        #expect(findings.contains { $0.severity == .error && $0.key == "keychain-access-groups[0]"
                                        && $0.problem.contains("does not start with the bundle's team prefix \"ZZZZZ99999.\"") },
                "\(findings)")
        let entitlements = BundleEntitlements(url: nil, values: ["keychain-access-groups": .array([.string(Self.sharedGroup)]),
                                                                 "com.apple.developer.team-identifier": .string("ZZZZZ99999")])
        #expect(!entitlements.keychainAccessGroups(bundleIdentifier: "com.example.otherbank.TestHelperExt", team: "ZZZZZ99999")
            .contains(Self.sharedGroup))
    }
}
