import Foundation

/// Which team owns each App Group on the simulated device, as `app-group-owners.json` keeps it:
/// App Group identifier -> team.
///
/// On iOS a provisioning profile grants a team its own App Groups only; here the first team
/// that uses a group on a device owns it. A state directory from before teams has containers but
/// no owners: the first team to use each group after the upgrade owns it.
extension StateDirectory {
    /// `app-group-owners.json`: App Group identifier -> the team that owns it.
    public var appGroupOwnersURL: URL { url.appendingPathComponent("app-group-owners.json") }

    /// The owner of every App Group used on the device so far.
    /// - Throws: ``StateError`` naming the file when it exists but cannot be read.
    public func appGroupOwners() throws -> [String: String] {
        try read([String: String].self, from: appGroupOwnersURL, empty: [:])
    }

    /// Makes `team` the owner of every group in `groups` that has none, or refuses them all.
    ///
    /// The owners are read and written under the directory's lock, so two hosts that claim one
    /// group at once cannot both get it; a group the team already owns costs no write.
    /// - Parameters:
    ///   - groups: App Group identifiers a bundle of `team` names.
    ///   - team: The bundle's team (``ExtensionBundle/team``, ``AppBundle/team``).
    /// - Throws: ``StateError`` naming the first group another team owns and both teams, or
    ///   naming `app-group-owners.json` when it cannot be read or written.
    public func claimAppGroups(_ groups: [String], team: String) throws {
        guard !groups.isEmpty else { return }
        let known = try appGroupOwners()
        if groups.allSatisfy({ known[$0] == team }) { return }
        try update([String: String].self, in: appGroupOwnersURL, empty: [:]) { owners in
            for group in groups {
                guard let owner = owners[group], owner != team else { continue }
                throw StateError("the App Group \"\(group)\" belongs to team \"\(owner)\" on this device, so a bundle of team \"\(team)\" "
                                     + "gets no container for it (\(appGroupOwnersURL.path)); on iOS a team's provisioning profile grants only its own App Groups")
            }
            for group in groups where owners[group] == nil { owners[group] = team }
        }
    }
}
