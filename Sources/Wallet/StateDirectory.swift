import Foundation
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// The simulated device's state directory (DESIGN §10): pass library, device settings and
/// App Group containers. Every write is atomic (temp file, fsync, rename) and made under an
/// exclusive `flock` (the directory's `.lock`, or one team's keychain lock), so several host
/// processes can share one directory without losing a write. Every path in it is opened beneath
/// the directory's descriptor without following a link, after the directory was checked as ssh's
/// StrictModes checks (``withDirectory(creating:_:)``).
///
/// It holds secrets (the keychain, issuers' tokens): the directory is made mode 0700 and every
/// state file 0600. A directory the host did not make keeps its mode: one that is not this
/// user's, or that others may write to, is refused (``prepareDirectory()``).
///
/// A state file that is missing is empty; one that exists but cannot be read or decoded is a
/// ``StateError`` naming it, and nothing is ever written over it.
public struct StateDirectory: Sendable {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// `$WALLET_HOST_STATE`, else `$XDG_STATE_HOME/wallet-host`, else `~/.local/state/wallet-host`.
    public static var defaultURL: URL {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["WALLET_HOST_STATE"], !explicit.isEmpty { return URL(fileURLWithPath: explicit) }
        if let xdg = environment["XDG_STATE_HOME"], !xdg.isEmpty {
            return URL(fileURLWithPath: xdg).appendingPathComponent("wallet-host")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/state/wallet-host")
    }

    public var passesURL: URL { url.appendingPathComponent("passes.json") }
    public var deviceURL: URL { url.appendingPathComponent("device.json") }
    /// The keychain of older hosts, every team's generic passwords in one file: read until each
    /// team's first write moves its items into its own file (``keychainURL(team:)``).
    public var keychainURL: URL { url.appendingPathComponent("keychain.json") }
    public var logsURL: URL { url.appendingPathComponent("logs") }
    public var appGroupsURL: URL { url.appendingPathComponent("AppGroups") }
    var lockURL: URL { url.appendingPathComponent(".lock") }

    /// What a state file holds, for messages: "the pass library", "the device settings".
    func role(of file: URL) -> String {
        switch file.standardizedFileURL.path {
        case passesURL.standardizedFileURL.path: return "the pass library"
        case deviceURL.standardizedFileURL.path: return "the device settings"
        case keychainURL.standardizedFileURL.path: return "the keychain"
        case appGroupOwnersURL.standardizedFileURL.path: return "the App Group owners"
        case provisioningURL.standardizedFileURL.path: return "the provisioning keys"
        case let path where path.hasPrefix(keychainDirectoryURL.standardizedFileURL.path + "/"): return "the keychain"
        default: return "the state file"
        }
    }

    /// The container directory of an App Group, created on demand: always a direct child of
    /// ``appGroupsURL``. The group belongs to the first team that uses it on this device
    /// (``claimAppGroups(_:team:)``); a bundle of another team gets no container.
    /// - Parameters:
    ///   - groupIdentifier: The App Group identifier.
    ///   - team: The team of the bundle that uses it (``ExtensionBundle/team``, ``AppBundle/team``).
    /// - Throws: ``StateError`` naming the identifier when it cannot name a directory
    ///   (``AppGroupIdentifier/problem(_:)``), naming the group and both teams when another team
    ///   owns it, or naming the directory when it cannot be created.
    public func appGroupContainer(_ groupIdentifier: String, team: String) throws -> URL {
        if let problem = AppGroupIdentifier.problem(groupIdentifier) {
            throw StateError("the App Group identifier \"\(groupIdentifier)\" \(problem), so it cannot name a container in \(appGroupsURL.path)")
        }
        let container = appGroupsURL.appendingPathComponent(groupIdentifier, isDirectory: true)
        // The rule above keeps the identifier one path component; this keeps that promise checked.
        guard container.standardizedFileURL.deletingLastPathComponent().path == appGroupsURL.standardizedFileURL.path else {
            throw StateError("the App Group identifier \"\(groupIdentifier)\" would put its container outside \(appGroupsURL.path)")
        }
        try claimAppGroups([groupIdentifier], team: team)
        // AppGroups and the container are opened beneath the state directory, one component at
        // a time, following no link: a link planted there is refused, and nothing is made
        // where it points.
        try withDirectory(creating: true) { root in
            guard let groups = try Self.openDirectory(appGroupsURL.lastPathComponent, in: root!, path: appGroupsURL.path, creating: true,
                                                      mode: 0o755) else {
                throw StateError("cannot create the App Group container \(container.path)")
            }
            defer { SystemCall.close(groups) }
            do {
                // Made the way every path in a container is made: no link followed, and given to
                // the sandbox's user when new (extensions and containing apps write there as that user).
                try ContainerDirectory.ensure(groupIdentifier, in: groups, path: container.path)
            } catch {
                throw StateError("cannot create the App Group container \(container.path): \(error)")
            }
        }
        return container
    }

    /// Containers for each of `groups`, as the `appGroups` map extensions receive. Either the
    /// team owns (or now claims) every group, or it gets none of them.
    /// - Parameters:
    ///   - groups: The bundle's App Groups.
    ///   - team: The bundle's team.
    /// - Throws: ``StateError`` as ``appGroupContainer(_:team:)`` does.
    public func appGroupContainers(_ groups: [String], team: String) throws -> [String: String] {
        // An identifier that cannot name a container throws here, before any group is claimed.
        for group in groups where AppGroupIdentifier.problem(group) != nil { _ = try appGroupContainer(group, team: team) }
        try claimAppGroups(groups, team: team)
        var containers: [String: String] = [:]
        for group in groups { containers[group] = try appGroupContainer(group, team: team).path }
        return containers
    }
}
