import WalletWire

extension ValidationFinding.Key {
    /// The keychain access groups a bundle shares keychain items in (entitlements).
    public static let keychainAccessGroups = "keychain-access-groups"
    /// The bundle's application identifier, `TEAMID.bundle-id` on a signed iOS bundle (entitlements).
    public static let applicationIdentifier = "application-identifier"
}

extension BundleEntitlements {
    /// The `keychain-access-groups` values, in file order.
    public var keychainAccessGroupEntitlement: [String] {
        values[ValidationFinding.Key.keychainAccessGroups]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// The keychain access groups of a bundle with these entitlements, in iOS's order: its
    /// `keychain-access-groups`, then its application identifier (the `application-identifier`
    /// entitlement, else the bundle identifier: bundles built here carry no team prefix), then its
    /// App Groups. The first is the group of an item added without `kSecAttrAccessGroup`.
    ///
    /// A `keychain-access-groups` value without the team prefix (`TEAM.`, see
    /// ``keychainGroup(_:belongsTo:)``) is left out, as iOS refuses to install such a bundle;
    /// `validate` reports it as an error, so a loaded bundle has none.
    /// - Parameters:
    ///   - bundleIdentifier: The bundle's `CFBundleIdentifier`.
    ///   - team: The bundle's team (``team(unsignedTeam:)``).
    /// - Returns: The groups, without repeats.
    public func keychainAccessGroups(bundleIdentifier: String, team: String) -> [String] {
        let applicationIdentifier = values[ValidationFinding.Key.applicationIdentifier]?.stringValue ?? bundleIdentifier
        let entitled = keychainAccessGroupEntitlement.filter { Self.keychainGroup($0, belongsTo: team) }
        var seen = Set<String>()
        return (entitled + [applicationIdentifier] + appGroups).filter { seen.insert($0).inserted }
    }
}

extension EntitlementsReader {
    /// Reports a `keychain-access-groups` that is not an array of strings, or an
    /// `application-identifier` that is not a string: the host could not tell which keychain
    /// items the bundle may use.
    static func checkKeychainTypes(_ values: [String: PropertyListValue], path: String, findings: inout [ValidationFinding]) {
        let identifierKey = ValidationFinding.Key.applicationIdentifier
        if let identifier = values[identifierKey], identifier.stringValue == nil {
            findings.error(path, identifierKey, "is \(identifier.typeName), not a string")
        }
        let groupsKey = ValidationFinding.Key.keychainAccessGroups
        for (offset, group) in stringElements(of: groupsKey, in: values, path: path, findings: &findings) where group.isEmpty {
            findings.error(path, "\(groupsKey)[\(offset)]", "is empty, so it names no keychain access group")
        }
    }

    /// The string elements of an entitlement that must be an array of strings, with their
    /// offsets; reports the entitlement when it is not an array, and each element that is not a string.
    static func stringElements(of key: String, in values: [String: PropertyListValue], path: String,
                               findings: inout [ValidationFinding]) -> [(offset: Int, element: String)] {
        guard let value = values[key] else { return [] }
        guard let elements = value.arrayValue else {
            findings.error(path, key, "is \(value.typeName), not an array of strings")
            return []
        }
        var strings: [(offset: Int, element: String)] = []
        for (offset, element) in elements.enumerated() {
            guard let string = element.stringValue else {
                findings.error(path, "\(key)[\(offset)]", "is \(element.typeName), not a string")
                continue
            }
            strings.append((offset, string))
        }
        return strings
    }
}
