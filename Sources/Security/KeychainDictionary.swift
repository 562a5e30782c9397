import Foundation
import WalletWire

/// A SecItem call that cannot be sent: its status, and the sentence the SDK logs.
struct KeychainCallFailure: Error, Equatable {
    var status: OSStatus
    var message: String
}

/// A SecItem dictionary read into the wire's types, with Apple's rules for what each call accepts.
///
/// Keys the simulated keychain keeps are read; keys iOS accepts that change nothing here
/// (synchronization, the data-protection keychain, authentication UI) are ignored; keys iOS
/// knows that this keychain does not keep (references, access control, other attributes) are
/// `errSecUnimplemented`; anything else, or a value of the wrong type, is `errSecParam`.
struct KeychainDictionary: Equatable {
    /// What the dictionary is passed as.
    enum Purpose {
        /// `SecItemAdd`'s attributes: the secret and return keys count, match keys are ignored.
        case add
        /// A search (`SecItemCopyMatching`): return and match keys count, the secret is ignored.
        case search
        /// The query of `SecItemUpdate` or `SecItemDelete`: only attributes count; the secret,
        /// return and match keys are ignored (wrappers often reuse their add dictionary).
        case filter
        /// `SecItemUpdate`'s attributes to update: attributes and the secret only.
        case changes
    }

    var itemClass: String?
    var attributes = KeychainAttributes()
    var data: Data?
    var returning = KeychainReturn()
    /// `kSecMatchLimit`: nil for one (the default), otherwise at most that many (`Int.max` for all).
    var limit: Int?

    /// The wire's limit: one, or all (a number above one is applied after the answer).
    var wireLimit: KeychainMatchLimit { (limit ?? 1) == 1 ? .one : .all }

    /// Reads a dictionary passed to `function`.
    /// - Throws: ``KeychainCallFailure`` naming the first key that cannot be used.
    init(_ dictionary: NSDictionary, purpose: Purpose, function: String) throws(KeychainCallFailure) {
        for (rawKey, value) in dictionary {
            guard let key = rawKey as? String else {
                throw KeychainCallFailure(status: errSecParam, message: "\(function): the key \(rawKey) is not a string")
            }
            try read(key, value, purpose: purpose, function: function)
        }
    }

    private mutating func read(_ key: String, _ value: Any, purpose: Purpose, function: String) throws(KeychainCallFailure) {
        func fail(_ status: OSStatus, _ problem: String) -> KeychainCallFailure {
            KeychainCallFailure(status: status, message: "\(function): \(KeychainKeyNames.describe(key)) \(problem)")
        }
        func string() throws(KeychainCallFailure) -> String {
            guard let text = value as? String else { throw fail(errSecParam, "must be a string, not \(type(of: value))") }
            return text
        }
        func bytes() throws(KeychainCallFailure) -> Data {
            guard let bytes = value as? Data else { throw fail(errSecParam, "must be Data, not \(type(of: value))") }
            return bytes
        }
        func flag() throws(KeychainCallFailure) -> Bool {
            guard let flag = value as? Bool else { throw fail(errSecParam, "must be a Boolean, not \(type(of: value))") }
            return flag
        }
        let isAttributeOnly = purpose == .filter || purpose == .changes
        guard let known = KeychainKey(rawValue: key) else { throw fail(errSecParam, "is not a keychain key") }
        switch known {
        case .itemClass: itemClass = try string()
        case .service: attributes.service = try string()
        case .account: attributes.account = try string()
        case .accessGroup: attributes.accessGroup = try string()
        case .label: attributes.label = try string()
        case .generic: attributes.generic = try bytes()
        case .accessible: attributes.accessible = try string()
        case .valueData:
            let secret = try bytes()
            if purpose == .add || purpose == .changes { data = secret }
        case .returnData, .returnAttributes:
            let wanted = try flag()
            if purpose == .changes { throw fail(errSecParam, "is not an attribute to update") }
            guard !isAttributeOnly else { return }
            if known == .returnData { returning.data = wanted } else { returning.attributes = wanted }
        case .matchLimit:
            if purpose == .changes { throw fail(errSecParam, "is not an attribute to update") }
            guard purpose == .search else { return }
            limit = try matchLimit(value, fail: fail)
        case .synchronizable, .dataProtectionKeychain, .authenticationUI, .operationPrompt:
            return
        case .returnRef, .returnPersistentRef:
            if isAttributeOnly { return }
            throw fail(errSecUnimplemented, "is not supported: the simulated keychain has no item references")
        case .description, .comment, .creator, .type, .isInvisible, .isNegative, .creationDate, .modificationDate,
             .accessControl, .server, .valueRef, .valuePersistentRef:
            throw fail(errSecUnimplemented, "is not kept by the simulated keychain, which keeps a generic password's service, account, access group, label, generic data, accessibility and secret only")
        }
    }

    private func matchLimit(_ value: Any, fail: (OSStatus, String) -> KeychainCallFailure) throws(KeychainCallFailure) -> Int {
        if let name = value as? String {
            if name == kSecMatchLimitOne as String { return 1 }
            if name == kSecMatchLimitAll as String { return Int.max }
            throw fail(errSecParam, "must be kSecMatchLimitOne, kSecMatchLimitAll or a number, not \"\(name)\"")
        }
        if !(value is Bool), let count = value as? Int, count > 0 { return count }
        throw fail(errSecParam, "must be kSecMatchLimitOne, kSecMatchLimitAll or a positive number, not \(value)")
    }
}

/// Every SecItem dictionary key Security defines that the simulated keychain recognises, by
/// Apple's value; the `kSec*` constants carry the same values.
enum KeychainKey: String, CaseIterable {
    // Read.
    case itemClass = "class", service = "svce", account = "acct", accessGroup = "agrp", label = "labl", generic = "gena"
    case accessible = "pdmn", valueData = "v_Data", returnData = "r_Data", returnAttributes = "r_Attributes"
    case matchLimit = "m_Limit"
    // Accepted and ignored.
    case synchronizable = "sync", dataProtectionKeychain = "nleg", authenticationUI = "u_AuthUI", operationPrompt = "u_OpPrompt"
    // Known to iOS, not supported here.
    case returnRef = "r_Ref", returnPersistentRef = "r_PersistentRef", valueRef = "v_Ref", valuePersistentRef = "v_PersistentRef"
    case description = "desc", comment = "icmt", creator = "crtr", type = "type", isInvisible = "invi", isNegative = "nega"
    case creationDate = "cdat", modificationDate = "mdat", accessControl = "accc", server = "srvr"

    /// The constant's name in Security, e.g. `kSecAttrService`.
    var constantName: String {
        switch self {
        case .itemClass: return "kSecClass"
        case .valueData: return "kSecValueData"
        case .valueRef: return "kSecValueRef"
        case .valuePersistentRef: return "kSecValuePersistentRef"
        case .returnData: return "kSecReturnData"
        case .returnAttributes: return "kSecReturnAttributes"
        case .returnRef: return "kSecReturnRef"
        case .returnPersistentRef: return "kSecReturnPersistentRef"
        case .matchLimit: return "kSecMatchLimit"
        case .dataProtectionKeychain: return "kSecUseDataProtectionKeychain"
        case .authenticationUI: return "kSecUseAuthenticationUI"
        case .operationPrompt: return "kSecUseOperationPrompt"
        default: return "kSecAttr" + String(describing: self).prefix(1).uppercased() + String(describing: self).dropFirst()
        }
    }
}

/// Apple's names for the keys, for messages people can search for.
enum KeychainKeyNames {
    /// `kSecAttrService ("svce")`, or `the key "xyz"` for a key iOS does not define either.
    static func describe(_ key: String) -> String {
        guard let known = KeychainKey(rawValue: key) else { return "the key \"\(key)\"" }
        return "\(known.constantName) (\"\(key)\")"
    }
}
