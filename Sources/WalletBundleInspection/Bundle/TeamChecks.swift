import Foundation

/// The checks that follow from App Groups and keychain items belonging to a team
/// (``BundleEntitlements/team(unsignedTeam:)``): a bundle's `keychain-access-groups` carry its
/// team prefix, an app and its extensions are of one team, and two teams never name one App Group.
enum TeamChecks {
    private typealias Key = ValidationFinding.Key

    /// Reports each `keychain-access-groups` value without the bundle's team prefix: iOS refuses
    /// to install such a bundle, and the host leaves the group out of the bundle's keychain access.
    /// - Parameters:
    ///   - entitlements: The bundle's entitlements.
    ///   - unsignedTeam: The team the bundle has when unsigned: its containing app's bundle identifier.
    ///   - bundleURL: The bundle, for findings when the entitlements file has no URL.
    static func checkKeychainGroupPrefixes(_ entitlements: BundleEntitlements, unsignedTeam: String, bundleURL: URL,
                                           findings: inout [ValidationFinding]) {
        let team = entitlements.team(unsignedTeam: unsignedTeam)
        let path = entitlements.url?.path ?? bundleURL.path
        for (offset, group) in entitlements.keychainAccessGroupEntitlement.enumerated()
        where !group.isEmpty && !BundleEntitlements.keychainGroup(group, belongsTo: team) {
            findings.error(path, "\(Key.keychainAccessGroups)[\(offset)]",
                           "\"\(group)\" does not start with the bundle's team prefix \"\(team).\" (\(teamSource(entitlements))); "
                               + "iOS refuses to install it, and the host gives the bundle no access to the group")
        }
    }

    /// Where a bundle's team comes from, as a clause.
    static func teamSource(_ entitlements: BundleEntitlements) -> String {
        if entitlements.teamIdentifier != nil { return "its \(Key.teamIdentifier)" }
        if entitlements.applicationIdentifierPrefix != nil { return "the prefix of its \(Key.applicationIdentifier)" }
        return "it is unsigned, so its team is its containing app's bundle identifier"
    }

    /// Reports an extension whose team is not its containing app's: iOS installs an app only
    /// when one team signed it and its extensions, and the host keeps App Groups and keychain
    /// items per team, so the two would share nothing.
    static func checkSameTeam(extension manifest: BundleManifest, app: ContainingAppSummary, findings: inout [ValidationFinding]) {
        guard let appIdentifier = app.bundleIdentifier else { return }
        let appTeam = app.entitlements.team(unsignedTeam: appIdentifier)
        let extensionTeam = manifest.entitlements.team(unsignedTeam: appIdentifier)
        guard appTeam != extensionTeam else { return }
        let key = manifest.entitlements.teamIdentifier != nil ? Key.teamIdentifier : Key.applicationIdentifier
        findings.error(manifest.entitlements.url?.path ?? manifest.bundleURL.path, key,
                       "the extension's team \"\(extensionTeam)\" is not the containing app \(app.name)'s team \"\(appTeam)\"; "
                           + "iOS installs an app only when one team signed it and its extensions, and they would share no App Group or keychain item")
    }

    /// One bundle that names App Groups, for ``appGroupClashes(_:)``.
    struct Claimant {
        var name: String
        var team: String
        var appGroups: [String]
        var entitlementsPath: String
    }

    /// The bundles of loaded apps (each app, then its extensions) and of lone extensions, as claimants.
    static func claimants(apps: [AppBundle], extensions: [ExtensionBundle]) -> [Claimant] {
        func claimant(_ url: URL, _ team: String, _ entitlements: BundleEntitlements) -> Claimant {
            Claimant(name: url.lastPathComponent, team: team, appGroups: entitlements.appGroups,
                     entitlementsPath: entitlements.url?.path ?? url.path)
        }
        var all: [Claimant] = []
        for app in apps {
            all.append(claimant(app.url, app.team, app.entitlements))
            all += app.extensions.map { claimant($0.url, $0.team, $0.entitlements) }
        }
        all += extensions.map { claimant($0.url, $0.team, $0.entitlements) }
        return all
    }

    /// An error for each bundle that names an App Group a bundle of another team named before
    /// it: on a simulated device the group's container belongs to the first team that uses it,
    /// and a bundle of any other team that names it cannot be launched.
    static func appGroupClashes(_ claimants: [Claimant]) -> [ValidationFinding] {
        var firstClaimant: [String: Claimant] = [:]
        var reported = Set<[String]>()
        var findings: [ValidationFinding] = []
        for claimant in claimants {
            for group in claimant.appGroups {
                guard let owner = firstClaimant[group] else {
                    firstClaimant[group] = claimant
                    continue
                }
                guard owner.team != claimant.team, reported.insert([group, claimant.entitlementsPath]).inserted else { continue }
                findings.error(claimant.entitlementsPath, Key.applicationGroups,
                               "\"\(group)\" is also an App Group of \(owner.name), of team \"\(owner.team)\", but this bundle's team is "
                                   + "\"\(claimant.team)\"; an App Group belongs to one team, so on a device whichever team uses it first "
                                   + "owns its container and the other's bundles cannot be launched")
            }
        }
        return findings
    }
}
