import Foundation
import WalletExtensionRuntime
import WalletWire

// Security's keychain item functions with iOS's signatures, answered by the simulated device's
// keychain over the `keychain.*` host services. Generic passwords only; items are shared between
// bundles whose entitlements name the same keychain access group (see docs/PROTOCOL.md 8.6).
// Like iOS's, each call is synchronous: the calling thread waits for the host.

/// Adds a generic password to the keychain.
///
/// - Parameters:
///   - attributes: `kSecClass` (`kSecClassGenericPassword`), the item's attributes
///     (`kSecAttrService`, `kSecAttrAccount`, `kSecAttrAccessGroup`, `kSecAttrLabel`,
///     `kSecAttrGeneric`, `kSecAttrAccessible`) and its secret (`kSecValueData`); optionally
///     `kSecReturnData` / `kSecReturnAttributes` to get the new item back.
///   - result: Where the new item goes when a return key asks for it; may be nil.
/// - Returns: ``errSecSuccess``, ``errSecDuplicateItem`` when an item with the same service,
///   account and access group exists, ``errSecMissingEntitlement`` for an access group the
///   bundle is not entitled to, ``errSecParam`` / ``errSecUnimplemented`` for a dictionary the
///   simulated keychain cannot take (the reason goes to the extension's log).
@discardableResult
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    KeychainCall.perform("SecItemAdd") { () throws(KeychainCallFailure) -> OSStatus in
        let request = try KeychainDictionary(attributes, purpose: .add, function: "SecItemAdd")
        let params = KeychainAddParams(itemClass: try KeychainCall.itemClass(of: request, function: "SecItemAdd"),
                                       attributes: request.attributes, data: request.data, returning: request.returning)
        let answer = try KeychainCall.send(WireMethod.keychainAdd, params: params, function: "SecItemAdd")
        if answer.status == errSecSuccess, let item = answer.items.first {
            result?.pointee = KeychainResultObject.item(item, returning: request.returning)
        }
        return answer.status
    }
}

/// Finds generic passwords matching a query.
///
/// - Parameters:
///   - query: `kSecClass`, the attributes every match must have, what to return
///     (`kSecReturnData`, `kSecReturnAttributes`) and `kSecMatchLimit` (one by default).
///   - result: Where the matches go: `Data` (secret only), `[String: Any]` (attributes, with
///     `kSecValueData` when the secret was asked for too), or an array of those for
///     `kSecMatchLimitAll`. Untouched when nothing was asked back.
/// - Returns: ``errSecSuccess``, ``errSecItemNotFound`` when nothing the bundle may see
///   matches, or a status as for ``SecItemAdd(_:_:)``.
@discardableResult
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    KeychainCall.perform("SecItemCopyMatching") { () throws(KeychainCallFailure) -> OSStatus in
        let request = try KeychainDictionary(query, purpose: .search, function: "SecItemCopyMatching")
        let params = KeychainCopyMatchingParams(itemClass: try KeychainCall.itemClass(of: request, function: "SecItemCopyMatching"),
                                                query: request.attributes, returning: request.returning,
                                                limit: request.wireLimit)
        let answer = try KeychainCall.send(WireMethod.keychainCopyMatching, params: params, function: "SecItemCopyMatching")
        if answer.status == errSecSuccess, request.returning != .nothing {
            result?.pointee = KeychainResultObject.make(answer.items, returning: request.returning, limit: request.limit)
        }
        return answer.status
    }
}

/// Changes every generic password matching a query.
///
/// - Parameters:
///   - query: `kSecClass` and the attributes every item to change has.
///   - attributesToUpdate: The attributes to set, and `kSecValueData` for a new secret.
/// - Returns: ``errSecSuccess``, ``errSecItemNotFound`` when nothing the bundle may see
///   matches, ``errSecDuplicateItem`` when the change would make two items share service,
///   account and access group, or a status as for ``SecItemAdd(_:_:)``.
@discardableResult
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    KeychainCall.perform("SecItemUpdate") { () throws(KeychainCallFailure) -> OSStatus in
        let request = try KeychainDictionary(query, purpose: .filter, function: "SecItemUpdate")
        let changes = try KeychainDictionary(attributesToUpdate, purpose: .changes, function: "SecItemUpdate")
        let itemClass = try KeychainCall.itemClass(of: request, function: "SecItemUpdate")
        if let changedClass = changes.itemClass, changedClass != itemClass {
            throw KeychainCallFailure(status: errSecParam, message: "SecItemUpdate: an item's kSecClass cannot be changed")
        }
        let params = KeychainUpdateParams(itemClass: itemClass, query: request.attributes, changes: changes.attributes,
                                          data: changes.data)
        return try KeychainCall.send(WireMethod.keychainUpdate, params: params, function: "SecItemUpdate").status
    }
}

/// Deletes every generic password matching a query.
///
/// - Parameter query: `kSecClass` and the attributes every item to delete has.
/// - Returns: ``errSecSuccess``, ``errSecItemNotFound`` when nothing the bundle may see
///   matches, or a status as for ``SecItemAdd(_:_:)``.
@discardableResult
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    KeychainCall.perform("SecItemDelete") { () throws(KeychainCallFailure) -> OSStatus in
        let request = try KeychainDictionary(query, purpose: .filter, function: "SecItemDelete")
        let params = KeychainDeleteParams(itemClass: try KeychainCall.itemClass(of: request, function: "SecItemDelete"),
                                          query: request.attributes)
        return try KeychainCall.send(WireMethod.keychainDelete, params: params, function: "SecItemDelete").status
    }
}

/// What the four functions share: sending, and turning every failure into a status and a log line.
enum KeychainCall {
    /// Runs a call; a failure becomes its status, and its reason goes to the extension's log.
    static func perform(_ function: String, _ body: () throws(KeychainCallFailure) -> OSStatus) -> OSStatus {
        do {
            return try body()
        } catch {
            Diagnostics.log(error.message)
            return error.status
        }
    }

    /// The dictionary's `kSecClass`, which every call needs.
    static func itemClass(of request: KeychainDictionary, function: String) throws(KeychainCallFailure) -> String {
        guard let itemClass = request.itemClass else {
            throw KeychainCallFailure(status: errSecParam, message: "\(function): the dictionary has no kSecClass (use kSecClassGenericPassword)")
        }
        return itemClass
    }

    /// Sends a `keychain.*` request; a status with a message from the host is logged.
    static func send<Params: Encodable & Sendable>(_ method: String, params: Params, function: String)
        throws(KeychainCallFailure) -> KeychainResult {
        let answer: KeychainResult
        do {
            answer = try HostServiceCall.send(method, params: params, expecting: KeychainResult.self)
        } catch {
            throw KeychainCallFailure(status: errSecNotAvailable, message: "\(function): no keychain is available: \(error)")
        }
        if let message = answer.message {
            Diagnostics.log("\(function): \(message)")
        }
        return answer
    }
}
