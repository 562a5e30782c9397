import WalletBundleInspection
import WalletWire

/// The keychain items one bundle may use: those of its team in its access groups.
///
/// As on iOS, a bundle's groups are its `keychain-access-groups` entitlement values (each with
/// its team prefix), then its application identifier, then its App Groups
/// (`com.apple.security.application-groups`); a new item goes to the first unless the caller
/// names another. Items are kept per team (``BundleEntitlements/team(unsignedTeam:)``) and access
/// group: a bundle sees and changes only its own team's items of its own groups, so an app and
/// its extensions that name the same group share items, while a bundle of another team that
/// names the same group (its own App Group entitlement, say) sees none of them.
public struct KeychainAccess: Sendable, Hashable {
    /// The bundle's team, which owns every item it adds.
    public var team: String
    /// The groups in order; the first is the default for new items.
    public var groups: [String]
    /// The App Groups the team owns on the device (``StateDirectory/appGroupOwners()``): items
    /// in them written before teams are the team's.
    public var ownedAppGroups: Set<String>

    /// - Parameters:
    ///   - team: The bundle's team (see ``ServiceRequest/team``).
    ///   - groups: The bundle's groups in iOS's order (see ``ServiceRequest/keychainAccessGroups``).
    ///   - ownedAppGroups: The App Groups the team owns on the device, for items written before teams.
    public init(team: String, groups: [String], ownedAppGroups: Set<String> = []) {
        self.team = team
        self.groups = groups
        self.ownedAppGroups = ownedAppGroups
    }

    /// The group of an item added without `kSecAttrAccessGroup`.
    public var defaultGroup: String? { groups.first }

    /// Whether the bundle may use items of `group`.
    public func allows(_ group: String) -> Bool {
        groups.contains(group)
    }

    /// Whether `item` is the team's. An item written before teams (no ``KeychainItemRecord/team``)
    /// is the team's when its group is the team's App Group on the device, or the team itself or
    /// starts with it and a dot: `ABCDE12345.com.example.shared` is team `ABCDE12345`'s, and an
    /// unsigned issuer's own groups (`com.example.issuer`, `com.example.issuer.WNonUIExt`) are
    /// team `com.example.issuer`'s.
    public func owns(_ item: KeychainItemRecord) -> Bool {
        if let owner = item.team { return owner == team }
        return ownedAppGroups.contains(item.accessGroup) || item.accessGroup == team || item.accessGroup.hasPrefix(team + ".")
    }

    /// Whether the bundle sees `item`: the team's, in one of the bundle's groups.
    public func sees(_ item: KeychainItemRecord) -> Bool {
        allows(item.accessGroup) && owns(item)
    }

    /// The answer for a request that names a group the bundle may not use, or nil when the
    /// group is absent or allowed.
    func refusal(naming group: String?) -> KeychainResult? {
        guard let group, !allows(group) else { return nil }
        let entitled = groups.isEmpty ? "none" : groups.map { "\"\($0)\"" }.joined(separator: ", ")
        let remedy = BundleEntitlements.keychainGroup(group, belongsTo: team)
            ? "add it to the keychain-access-groups entitlement"
            : "a keychain-access-groups value must start with this bundle's team prefix \"\(team).\""
        return .failure(KeychainStatus.missingEntitlement,
                        "the access group \"\(group)\" is not one of this bundle's keychain access groups (\(entitled)); \(remedy)")
    }
}
