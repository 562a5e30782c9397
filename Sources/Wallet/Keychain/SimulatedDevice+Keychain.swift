import Foundation
import WalletWire

extension SimulatedDevice {
    /// Every item in the device's keychain (`keychain.json`), of every access group.
    /// - Throws: ``StateError`` naming the file when it exists but cannot be read.
    public func keychainItems() throws -> [KeychainItemRecord] {
        try StateFileCache.shared.value(at: state.keychainURL) {
            try state.read([KeychainItemRecord].self, from: state.keychainURL, empty: [])
        }
    }

    /// Runs a keychain operation that only reads.
    /// - Throws: ``StateError`` naming the file when it exists but cannot be read.
    public func readKeychain(_ operation: (KeychainStore) -> KeychainResult) throws -> KeychainResult {
        operation(KeychainStore(items: try keychainItems()))
    }

    /// Runs a keychain operation that may change items, under the state directory's lock, and
    /// writes `keychain.json` atomically when it succeeded.
    /// - Throws: ``StateError`` naming the file when it cannot be read or written; a failed
    ///   write leaves the old file intact.
    public func changeKeychain(_ operation: (inout KeychainStore) -> KeychainResult) throws -> KeychainResult {
        var result = KeychainResult.failure(KeychainStatus.param)
        try state.update([KeychainItemRecord].self, in: state.keychainURL, empty: []) { items in
            var store = KeychainStore(items: items)
            result = operation(&store)
            items = store.items
        }
        return result
    }
}

extension SimulatedDevice {
    /// Removes every item, of any access group, that has all the attributes `query` gives.
    /// - Returns: How many went.
    /// - Throws: ``StateError`` naming `keychain.json` when it cannot be read or written.
    @discardableResult
    public func removeKeychainItems(matching query: KeychainAttributes) throws -> Int {
        var removed = 0
        try state.update([KeychainItemRecord].self, in: state.keychainURL, empty: []) { items in
            let before = items.count
            items.removeAll { $0.matches(query) }
            removed = before - items.count
        }
        return removed
    }
}

extension SimulatedDevice {
    /// The keychain as a bundle of `team` with `groups` sees it, with the App Groups the team
    /// owns on this device (for items written before teams).
    /// - Throws: ``StateError`` naming `app-group-owners.json` when it exists but cannot be read.
    public func keychainAccess(team: String, groups: [String]) throws -> KeychainAccess {
        let owned = try state.appGroupOwners().filter { $0.value == team }.keys
        return KeychainAccess(team: team, groups: groups, ownedAppGroups: Set(owned))
    }
}
