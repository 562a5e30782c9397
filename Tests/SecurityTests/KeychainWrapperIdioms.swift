// Keychain code as iOS developers write it, kept exactly in that style: `import Security`,
// `[String: Any]` queries cast `as CFDictionary`, `var item: CFTypeRef?` passed as `&item`,
// `kCFBooleanTrue!`, `NSMutableDictionary`, `[String: AnyObject]` with `as CFString` values.
// KeychainWrapperIdiomsTests checks that it builds and that each call reaches the keychain.
import Foundation
import Security

/// The wrapper of Apple's "Adding a password to the keychain" and "Searching for keychain
/// items" articles, for a generic password.
struct CredentialsKeychain {
    struct Credentials {
        var username: String
        var password: String
    }

    enum KeychainError: Error, Equatable {
        case noPassword
        case unexpectedPasswordData
        case unhandledError(status: OSStatus)
    }

    let service: String

    func add(_ credentials: Credentials) throws {
        let account = credentials.username
        let password = credentials.password.data(using: String.Encoding.utf8)!
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                    kSecAttrAccount as String: account,
                                    kSecAttrService as String: service,
                                    kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
                                    kSecValueData as String: password]
        let status = SecItemAdd(query as CFDictionary, nil)
        guard status == errSecSuccess else { throw KeychainError.unhandledError(status: status) }
    }

    func read() throws -> Credentials {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword,
                                    kSecAttrService as String: service,
                                    kSecMatchLimit as String: kSecMatchLimitOne,
                                    kSecReturnAttributes as String: true,
                                    kSecReturnData as String: true]
        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        guard status != errSecItemNotFound else { throw KeychainError.noPassword }
        guard status == errSecSuccess else { throw KeychainError.unhandledError(status: status) }
        guard let existingItem = item as? [String: Any],
              let passwordData = existingItem[kSecValueData as String] as? Data,
              let password = String(data: passwordData, encoding: String.Encoding.utf8),
              let account = existingItem[kSecAttrAccount as String] as? String
        else {
            throw KeychainError.unexpectedPasswordData
        }
        return Credentials(username: account, password: password)
    }

    func update(_ credentials: Credentials) throws {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
        let account = credentials.username
        let password = credentials.password.data(using: String.Encoding.utf8)!
        let attributes: [String: Any] = [kSecAttrAccount as String: account, kSecValueData as String: password]
        let status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
        guard status != errSecItemNotFound else { throw KeychainError.noPassword }
        guard status == errSecSuccess else { throw KeychainError.unhandledError(status: status) }
    }

    func delete() throws {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError.unhandledError(status: status) }
    }

    static func describe(_ status: OSStatus) -> String {
        if let message = SecCopyErrorMessageString(status, nil) as String? {
            return message
        }
        return "OSStatus \(status)"
    }
}

/// The older "KeychainWrapper" style: `[CFString: Any]`, `kCFBooleanTrue!`, `AnyObject?`,
/// delete-then-add, and a token saved with an access group shared with the app.
final class TokenKeychain {
    let service = "com.example.bank.token"
    let accessGroup: String?

    init(accessGroup: String? = nil) {
        self.accessGroup = accessGroup
    }

    @discardableResult
    func save(_ token: String, account: String) -> OSStatus {
        var query: [CFString: Any] = [
            kSecClass: kSecClassGenericPassword,
            kSecAttrService: service,
            kSecAttrAccount: account,
            kSecAttrSynchronizable: kCFBooleanFalse!,
            kSecUseDataProtectionKeychain: true,
        ]
        if let accessGroup {
            query[kSecAttrAccessGroup] = accessGroup
        }
        SecItemDelete(query as CFDictionary)
        query[kSecValueData] = token.data(using: .utf8)
        return SecItemAdd(query as CFDictionary, nil)
    }

    func load(account: String) -> String? {
        let query = [
            kSecClass: kSecClassGenericPassword,
            kSecAttrService: service,
            kSecAttrAccount: account,
            kSecReturnData: kCFBooleanTrue!,
            kSecMatchLimit: kSecMatchLimitOne,
        ] as CFDictionary
        var dataTypeRef: AnyObject?
        let status: OSStatus = SecItemCopyMatching(query, &dataTypeRef)
        if status == noErr, let data = dataTypeRef as? Data {
            return String(data: data, encoding: .utf8)
        }
        return nil
    }

    func allAccounts() -> [String] {
        let query: NSMutableDictionary = NSMutableDictionary()
        query[kSecClass] = kSecClassGenericPassword
        query[kSecAttrService] = service
        query[kSecReturnAttributes] = kCFBooleanTrue
        query[kSecMatchLimit] = kSecMatchLimitAll
        var result: CFTypeRef?
        guard SecItemCopyMatching(query, &result) == errSecSuccess, let items = result as? [[String: Any]] else { return [] }
        return items.compactMap { $0[kSecAttrAccount as String] as? String }
    }

    /// The riptutorial style: `[String: AnyObject]`, values cast `as CFString` and `as CFData`.
    func relabel(account: String, label: String) -> OSStatus {
        var dict = [String: AnyObject]()
        dict[kSecClass as String] = kSecClassGenericPassword
        dict[kSecAttrAccount as String] = account as CFString
        var newDict = [String: AnyObject]()
        newDict[kSecAttrLabel as String] = label as CFString
        newDict[kSecAttrGeneric as String] = Data(label.utf8) as CFData
        return SecItemUpdate(dict as CFDictionary, newDict as CFDictionary)
    }
}
