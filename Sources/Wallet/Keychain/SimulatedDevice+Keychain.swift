import Foundation
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

// The keychain on disk: `keychain/<team>.json` per team (``StateDirectory/keychainURL(team:)``),
// and the single `keychain.json` of older hosts (``StateDirectory/keychainURL``), read until each
// team's first write moves its items out of it.

extension SimulatedDevice {
    /// Every item in the device's keychain, of every team and access group.
    /// - Throws: ``StateError`` naming a file when it exists but cannot be read.
    public func keychainItems() throws -> [KeychainItemRecord] {
        var items = try legacyKeychainItems()
        for file in try teamKeychainFiles() {
            let teamItems = try cachedItems(file)
            let keys = Set(teamItems.map { [$0.team ?? ""] + $0.primaryKey })
            // An item a team's first write moved into its file, still in keychain.json: once.
            items.removeAll { item in item.team.map { keys.contains([$0] + item.primaryKey) } ?? false }
            items += teamItems
        }
        return items
    }

    /// Runs a keychain operation that only reads, over the items of `access`'s team.
    /// - Throws: ``StateError`` naming a file when it exists but cannot be read.
    public func readKeychain(for access: KeychainAccess, _ operation: (KeychainStore) -> KeychainResult) throws -> KeychainResult {
        operation(KeychainStore(items: try items(of: access)))
    }

    /// Runs a keychain operation that may change items, over the items of `access`'s team only,
    /// under the team's own lock, and writes the team's file atomically. The team's items in an
    /// older host's `keychain.json` move into its file then.
    /// - Throws: ``StateError`` naming a file when it cannot be read or written; a failed write
    ///   leaves the old file intact.
    public func changeKeychain(for access: KeychainAccess, _ operation: (inout KeychainStore) -> KeychainResult) throws -> KeychainResult {
        var result = KeychainResult.failure(KeychainStatus.param)
        let file = try state.keychainURL(team: access.team)
        // The move out of keychain.json is made under the team's lock too (then the directory's,
        // always in that order): a writer of the team that read keychain.json before an item
        // moved and was deleted would otherwise bring it back.
        try state.withLock(try state.keychainLockURL(team: access.team)) {
            let inherited = try legacyKeychainItems().filter(access.owns)
            try state.update([KeychainItemRecord].self, in: file, empty: [], locking: .held) { items in
                var store = KeychainStore(items: Self.merged(items, inherited))
                result = operation(&store)
                items = store.items.map { item in
                    var item = item
                    item.team = access.team
                    return item
                }
            }
            // Written to the team's file first: a writer killed in between leaves an item in
            // both, which ``merged(_:_:)`` counts once, never in neither.
            if !inherited.isEmpty {
                try state.update([KeychainItemRecord].self, in: state.keychainURL, empty: []) { $0.removeAll(where: access.owns) }
            }
        }
        return result
    }

    /// Removes every item, of any team and access group, that has all the attributes `query` gives.
    /// - Returns: How many went.
    /// - Throws: ``StateError`` naming a file when it cannot be read or written.
    @discardableResult
    public func removeKeychainItems(matching query: KeychainAttributes) throws -> Int {
        var removed = 0
        let legacy = state.keychainURL
        // An older host's file only when there is one: removing makes none.
        var status = stat()
        let files = (lstat(legacy.path, &status) == 0 ? [legacy] : []) + (try teamKeychainFiles())
        for file in files {
            // A file of older hosts may list items of several teams: it is written under the directory's lock.
            let lock = file == legacy ? nil : file.deletingLastPathComponent().appendingPathComponent("." + file.deletingPathExtension().lastPathComponent + ".lock")
            try state.update([KeychainItemRecord].self, in: file, empty: [], lock: lock) { items in
                let before = items.count
                items.removeAll { $0.matches(query) }
                removed += before - items.count
            }
        }
        return removed
    }

    /// The keychain as a bundle of `team` with `groups` sees it, with the App Groups the team
    /// owns on this device (for items written before teams).
    /// - Throws: ``StateError`` naming `app-group-owners.json` when it exists but cannot be read.
    public func keychainAccess(team: String, groups: [String]) throws -> KeychainAccess {
        let owned = try state.appGroupOwners().filter { $0.value == team }.keys
        return KeychainAccess(team: team, groups: groups, ownedAppGroups: Set(owned))
    }

    // Files

    /// `access`'s team's items: its file's, and its items still in `keychain.json`.
    private func items(of access: KeychainAccess) throws -> [KeychainItemRecord] {
        Self.merged(try cachedItems(try state.keychainURL(team: access.team)), try legacyKeychainItems().filter(access.owns))
    }

    /// `own` and those of `inherited` that none of `own` has the key of (a move that stopped halfway).
    private static func merged(_ own: [KeychainItemRecord], _ inherited: [KeychainItemRecord]) -> [KeychainItemRecord] {
        let keys = Set(own.map(\.primaryKey))
        return own + inherited.filter { !keys.contains($0.primaryKey) }
    }

    private func legacyKeychainItems() throws -> [KeychainItemRecord] {
        try cachedItems(state.keychainURL)
    }

    private func cachedItems(_ file: URL) throws -> [KeychainItemRecord] {
        try StateFileCache.shared.value(at: file) {
            try state.read([KeychainItemRecord].self, from: file, empty: [])
        }
    }

    /// The team files in `keychain/`, in name order.
    private func teamKeychainFiles() throws -> [URL] {
        let directory = state.keychainDirectoryURL
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return []
        } catch {
            throw StateError("cannot read the keychain \(directory.path): \(StateDirectory.reason(error))")
        }
        return names.filter { !$0.hasPrefix(".") && $0.hasSuffix(".json") }.sorted().map { directory.appendingPathComponent($0) }
    }
}
