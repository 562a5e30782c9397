import PassKit

/// The app's session token in the keychain. This file imports only PassKit, which on iOS brings
/// Foundation and, through it, Security's `kSec*` constants and `SecItemCopyMatching`.
enum SessionToken {
    static var isStored: Bool {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                    kSecAttrService as String: "com.example.pattern.session",
                                    kSecReturnData as String: true]
        var item: CFTypeRef?
        return SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess && item != nil
    }
}
