import ExtensionModel
import WalletWire

extension ValidationFinding.Key {
    /// The team that signed a bundle (entitlements; Xcode writes it into every signed build).
    public static let teamIdentifier = "com.apple.developer.team-identifier"
}

extension BundleEntitlements {
    /// `com.apple.developer.team-identifier`, nil when absent or not a Team ID (``isTeamIdentifier(_:)``).
    public var teamIdentifier: String? {
        guard let team = values[ValidationFinding.Key.teamIdentifier]?.stringValue, Self.isTeamIdentifier(team) else { return nil }
        return team
    }

    /// The team prefix of `application-identifier` (`ABCDE12345` of `ABCDE12345.com.example.issuer`),
    /// nil when there is none or it is not a Team ID.
    public var applicationIdentifierPrefix: String? {
        guard let identifier = values[ValidationFinding.Key.applicationIdentifier]?.stringValue,
              let dot = identifier.firstIndex(of: "."), Self.isTeamIdentifier(String(identifier[..<dot])) else { return nil }
        return String(identifier[..<dot])
    }

    /// Whether `text` has the shape of an Apple Team ID: ten uppercase letters and digits. Only
    /// such a value declares a team: an unsigned bundle's team is a bundle identifier (dotted,
    /// lowercase), which no entitlement can therefore claim.
    public static func isTeamIdentifier(_ text: String) -> Bool {
        text.utf8.count == 10 && text.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// The team a bundle with these entitlements belongs to, which owns its App Groups and
    /// keychain items on a simulated device (on iOS, a provisioning profile grants a team its
    /// own groups only).
    ///
    /// It is `com.apple.developer.team-identifier`, else the prefix of `application-identifier`,
    /// else `unsignedTeam`: a bundle assembled for the host carries no signature, so its issuer
    /// is its team. Nothing on the host verifies a signature: the team is what the bundle
    /// declares, which keeps one issuer's groups from another that names them.
    /// - Parameter unsignedTeam: The team of an unsigned bundle: its containing app's bundle
    ///   identifier (the app's own for the app; see ``ExtensionDescriptor/unsignedTeam(bundleIdentifier:containingAppBundleIdentifier:)``).
    /// - Returns: The team, never empty when `unsignedTeam` is not.
    public func team(unsignedTeam: String) -> String {
        teamIdentifier ?? applicationIdentifierPrefix ?? unsignedTeam
    }

    /// Whether a `keychain-access-groups` value may be used by a bundle of `team`: it carries
    /// the team prefix (`TEAM.`), as iOS requires, or is one of Apple's own groups (`com.apple.`).
    /// - Parameters:
    ///   - group: A `keychain-access-groups` value.
    ///   - team: The bundle's ``team(unsignedTeam:)``.
    public static func keychainGroup(_ group: String, belongsTo team: String) -> Bool {
        group.hasPrefix(team + ".") || group.hasPrefix("com.apple.")
    }
}

extension AppBundle {
    /// The app's team (see ``BundleEntitlements/team(unsignedTeam:)``); an unsigned app is its own team.
    public var team: String { entitlements.team(unsignedTeam: bundleIdentifier) }

    /// The app's keychain access groups, the default first (see
    /// ``BundleEntitlements/keychainAccessGroups(bundleIdentifier:team:)``).
    public var keychainAccessGroups: [String] {
        entitlements.keychainAccessGroups(bundleIdentifier: bundleIdentifier, team: team)
    }
}

extension ExtensionBundle {
    /// The extension's team (see ``BundleEntitlements/team(unsignedTeam:)``): an unsigned
    /// extension belongs to its containing app's team (see ``ExtensionDescriptor/unsignedTeam(bundleIdentifier:containingAppBundleIdentifier:)``).
    public var team: String {
        entitlements.team(unsignedTeam: ExtensionDescriptor.unsignedTeam(bundleIdentifier: bundleIdentifier,
                                                          containingAppBundleIdentifier: containingAppBundleIdentifier))
    }

    /// The extension's keychain access groups, the default first (see
    /// ``BundleEntitlements/keychainAccessGroups(bundleIdentifier:team:)``).
    public var keychainAccessGroups: [String] {
        entitlements.keychainAccessGroups(bundleIdentifier: bundleIdentifier, team: team)
    }
}
