import WalletWire

/// The keychain access groups one bundle may use, and the rule that follows from them.
///
/// As on iOS, a bundle's groups are its `keychain-access-groups` entitlement values, then its
/// application identifier, then its App Groups (`com.apple.security.application-groups`); a new
/// item goes to the first unless the caller names another. A bundle sees and changes only items
/// of its own groups, so an app and its extensions that name the same group share items, while
/// another issuer, whose entitlements cannot name that group, never sees them.
public struct KeychainAccess: Sendable, Hashable {
    /// The groups in order; the first is the default for new items.
    public var groups: [String]

    /// - Parameter groups: The bundle's groups in iOS's order (see ``ServiceRequest/keychainAccessGroups``).
    public init(groups: [String]) {
        self.groups = groups
    }

    /// The group of an item added without `kSecAttrAccessGroup`.
    public var defaultGroup: String? { groups.first }

    /// Whether the bundle may use items of `group`.
    public func allows(_ group: String) -> Bool {
        groups.contains(group)
    }

    /// Whether the bundle sees `item`.
    public func sees(_ item: KeychainItemRecord) -> Bool {
        allows(item.accessGroup)
    }

    /// The answer for a request that names a group the bundle may not use, or nil when the
    /// group is absent or allowed.
    func refusal(naming group: String?) -> KeychainResult? {
        guard let group, !allows(group) else { return nil }
        let entitled = groups.isEmpty ? "none" : groups.map { "\"\($0)\"" }.joined(separator: ", ")
        return .failure(KeychainStatus.missingEntitlement,
                        "the access group \"\(group)\" is not one of this bundle's keychain access groups (\(entitled)); add it to the keychain-access-groups entitlement")
    }
}
