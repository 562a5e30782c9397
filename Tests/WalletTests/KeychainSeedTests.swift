import Foundation
import Testing
import WalletBundleInspection
import WalletTestSupport
import WalletWire
@testable import Wallet

/// `app open` on an import stand-in adds its `seed/keychain.json` as the app would: through the
/// app's keychain access, so a seed naming another issuer's group changes nothing of that issuer.
@Suite("The stand-in's keychain seed")
struct KeychainSeedTests {
    private static let otherGroup = "OTHER12345.com.other.bank"

    /// An unsigned stand-in app `com.acme.app` (team and default group `com.acme.app`) with `seed`.
    private func standIn(seed: String, in directory: URL) throws -> AppBundle {
        let app = directory.appendingPathComponent("Acme.app")
        try FileManager.default.createDirectory(at: app.appendingPathComponent("seed"), withIntermediateDirectories: true)
        try Data(seed.utf8).write(to: app.appendingPathComponent(AppLauncher.keychainSeedPath))
        return AppBundle(url: app, bundleIdentifier: "com.acme.app", executableURL: nil, entitlements: .none, extensions: [],
                         infoDictionary: [AppLauncher.standInInfoKey: .bool(true)])
    }

    @Test("an item naming another issuer's access group is refused with a line and that issuer's item stays")
    func otherIssuersGroupIsRefused() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-keychain-seed")
        defer { directory.remove() }
        let device = SimulatedDevice(state: StateDirectory(url: directory.url.appendingPathComponent("state")))
        // The other issuer's session, as its own app added it.
        let other = KeychainAccess(team: "OTHER12345", groups: [Self.otherGroup])
        let added = try device.changeKeychain(for: other) {
            $0.add(KeychainAddParams(itemClass: KeychainStatus.genericPasswordClass,
                                     attributes: KeychainAttributes(service: "session", account: "ada"),
                                     data: Data("theirs".utf8), returning: KeychainReturn()), access: other)
        }
        try #require(added.status == KeychainStatus.success)

        let app = try standIn(seed: """
            {"items": [{"service": "session", "account": "ada", "secret": "mine", "accessGroup": "\(Self.otherGroup)"},
                       {"service": "session", "account": "ada", "secret": "mine"}]}
            """, in: directory.url)
        let lines = try AppLauncher(device: device).addKeychainSeed(of: app)
        #expect(lines.first == "keychain: 1 items from seed/keychain.json (added by wallet-host for the stand-in)", "\(lines)")
        #expect(lines.contains { $0.contains("item service \"session\" account \"ada\" of seed/keychain.json not added: the access group \"\(Self.otherGroup)\"") },
                "\(lines)")
        let items = try device.keychainItems()
        #expect(items.contains { $0.accessGroup == Self.otherGroup && $0.data == Data("theirs".utf8) }, "the other issuer's item stays: \(items)")
        #expect(items.contains { $0.accessGroup == "com.acme.app" && $0.data == Data("mine".utf8) })

        // Opening again replaces the app's own item, and only it.
        _ = try AppLauncher(device: device).addKeychainSeed(of: app)
        let again = try device.keychainItems()
        #expect(again.filter { $0.accessGroup == "com.acme.app" }.count == 1)
        #expect(again.contains { $0.accessGroup == Self.otherGroup })
    }
}
