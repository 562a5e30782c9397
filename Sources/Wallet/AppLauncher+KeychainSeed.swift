import Foundation
import WalletBundleInspection
import WalletWire

/// The keychain half of the stand-in that `wallet-host import` puts in a containing app that cannot
/// run here: the stand-in writes the App Group defaults itself, but an app opened by `app open` has
/// no keychain of its own, so the launcher adds the items of the stand-in's `seed/keychain.json`, as
/// the app would after its login, in its default access group unless an item names one.
extension AppLauncher {
    /// The Info.plist key (boolean) that marks an app as an import stand-in.
    public static let standInInfoKey = "WalletHostImportStandIn"
    /// The file in a stand-in's bundle whose generic passwords are added when it is opened.
    public static let keychainSeedPath = "seed/keychain.json"

    /// One generic password of `seed/keychain.json`.
    struct KeychainSeedItem: Decodable {
        var service: String?
        var account: String?
        var secret: String
        var accessGroup: String?
        var label: String?
    }

    struct KeychainSeed: Decodable {
        var items: [KeychainSeedItem]
    }

    /// Adds (or replaces) the seed's items when `app` is a stand-in with a seed.
    /// - Returns: A line saying what was added, nil when there is nothing to add.
    /// - Throws: ``StateError`` naming the file or item that cannot be added.
    func addKeychainSeed(of app: AppBundle) throws -> String? {
        guard app.infoDictionary[Self.standInInfoKey] == .bool(true) else { return nil }
        let file = app.url.appendingPathComponent(Self.keychainSeedPath)
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        let seed: KeychainSeed
        do {
            seed = try JSONDecoder().decode(KeychainSeed.self, from: data)
        } catch {
            throw StateError("\(file.path): not a keychain seed ({\"items\": [{\"service\", \"account\", \"secret\"}]}): \(error)")
        }
        let access = try device.keychainAccess(team: app.team, groups: app.keychainAccessGroups)
        for item in seed.items {
            let attributes = KeychainAttributes(service: item.service, account: item.account, accessGroup: item.accessGroup, label: item.label)
            _ = try device.removeKeychainItems(matching: KeychainAttributes(service: item.service ?? "", account: item.account ?? "",
                                                                            accessGroup: item.accessGroup ?? access.defaultGroup))
            let params = KeychainAddParams(itemClass: KeychainStatus.genericPasswordClass, attributes: attributes,
                                           data: Data(item.secret.utf8), returning: KeychainReturn(attributes: true))
            let result = try device.changeKeychain { $0.add(params, access: access) }
            guard result.status == KeychainStatus.success else {
                throw StateError("\(file.path): item service \"\(item.service ?? "")\" account \"\(item.account ?? "")\" "
                    + "cannot be added: \(result.message ?? "status \(result.status)")")
            }
        }
        return "keychain: \(seed.items.count) items from \(Self.keychainSeedPath) (added by wallet-host for the stand-in)"
    }
}
