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

    /// Adds (or replaces) the seed's items when `app` is a stand-in with a seed, each as the app
    /// itself would: removing and adding in one change of the keychain, through the app's
    /// ``KeychainAccess``, so that an item naming a group the app may not use (another issuer's)
    /// is refused with a line and touches nothing.
    /// - Returns: The lines saying what was added and what was refused; empty when there is nothing to add.
    /// - Throws: ``StateError`` naming the file that cannot be read or the item that cannot be added.
    func addKeychainSeed(of app: AppBundle) throws -> [String] {
        guard app.infoDictionary[Self.standInInfoKey] == .bool(true) else { return [] }
        let file = app.url.appendingPathComponent(Self.keychainSeedPath)
        guard let data = FileManager.default.contents(atPath: file.path) else { return [] }
        let seed: KeychainSeed
        do {
            seed = try JSONDecoder().decode(KeychainSeed.self, from: data)
        } catch {
            throw StateError("\(file.path): not a keychain seed ({\"items\": [{\"service\", \"account\", \"secret\"}]}): \(error)")
        }
        let access = try device.keychainAccess(team: app.team, groups: app.keychainAccessGroups)
        var lines: [String] = []
        var added = 0
        for item in seed.items {
            let name = "service \"\(item.service ?? "")\" account \"\(item.account ?? "")\""
            guard let group = item.accessGroup ?? access.defaultGroup else {
                throw StateError("\(file.path): item \(name) cannot be added: \(app.name) has no keychain access group")
            }
            guard access.allows(group) else {
                let groups = access.groups.map { "\"\($0)\"" }.joined(separator: ", ")
                lines.append("keychain: item \(name) of \(Self.keychainSeedPath) not added: the access group \"\(group)\" is not one of "
                    + "\(app.name)'s keychain access groups (\(groups.isEmpty ? "none" : groups))")
                continue
            }
            let query = KeychainAttributes(service: item.service ?? "", account: item.account ?? "", accessGroup: group)
            let params = KeychainAddParams(itemClass: KeychainStatus.genericPasswordClass,
                                           attributes: KeychainAttributes(service: item.service, account: item.account,
                                                                          accessGroup: group, label: item.label),
                                           data: Data(item.secret.utf8), returning: KeychainReturn(attributes: true))
            // Replacing is one change: the app's own item with this service and account goes, the new one comes,
            // or, when either is refused, nothing changes.
            let result = try device.changeKeychain(for: access) { store in
                var changed = store
                let removed = changed.delete(KeychainDeleteParams(itemClass: KeychainStatus.genericPasswordClass, query: query), access: access)
                guard removed.status == KeychainStatus.success || removed.status == KeychainStatus.itemNotFound else { return removed }
                let result = changed.add(params, access: access)
                if result.status == KeychainStatus.success { store = changed }
                return result
            }
            guard result.status == KeychainStatus.success else {
                throw StateError("\(file.path): item \(name) cannot be added: \(result.message ?? "status \(result.status)")")
            }
            added += 1
        }
        return ["keychain: \(added) items from \(Self.keychainSeedPath) (added by wallet-host for the stand-in)"] + lines
    }
}
