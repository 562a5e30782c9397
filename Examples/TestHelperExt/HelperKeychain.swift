import Foundation
import Security

/// The helper's keychain token, kept the way an iOS extension keeps one: a generic password
/// written with `SecItemDelete` then `SecItemAdd`, read with `SecItemCopyMatching`, in plain
/// Security code. The `keychain-write` and `keychain-read` modes report what it returns.
enum HelperKeychain {
    static let service = "com.example.testhelper.token"
    static let account = "helper"

    /// Saves `token`, in `accessGroup` or the bundle's default group.
    /// - Returns: `SecItemAdd`'s status.
    static func save(_ token: String, accessGroup: String?) -> OSStatus {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
        if let accessGroup {
            query[kSecAttrAccessGroup as String] = accessGroup
        }
        SecItemDelete(query as CFDictionary)
        query[kSecValueData as String] = Data(token.utf8)
        query[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
        return SecItemAdd(query as CFDictionary, nil)
    }

    /// Reads the token back.
    /// - Returns: `SecItemCopyMatching`'s status, and the token when there is one.
    static func load() -> (status: OSStatus, token: String?) {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
            kSecReturnData as String: kCFBooleanTrue!,
            kSecMatchLimit as String: kSecMatchLimitOne,
        ]
        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        guard status == errSecSuccess, let data = item as? Data else { return (status, nil) }
        return (status, String(data: data, encoding: .utf8))
    }
}
