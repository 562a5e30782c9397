import FoundationEssentials

/// The attributes of a generic password that the simulated keychain keeps: what a query
/// matches on (every field given must be equal) and what an item holds.
///
/// Apple's dictionary keys map one to one: `kSecAttrService` is `service`, `kSecAttrAccount`
/// `account`, `kSecAttrAccessGroup` `accessGroup`, `kSecAttrLabel` `label`, `kSecAttrGeneric`
/// `generic` (base64 on the wire) and `kSecAttrAccessible` `accessible` (its short value,
/// for example `"ak"`; stored and returned, never enforced: the simulated device is unlocked).
public struct KeychainAttributes: Codable, Sendable, Hashable {
    public var service: String?
    public var account: String?
    public var accessGroup: String?
    public var label: String?
    public var generic: Data?
    public var accessible: String?

    public init(service: String? = nil, account: String? = nil, accessGroup: String? = nil, label: String? = nil,
                generic: Data? = nil, accessible: String? = nil) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.label = label
        self.generic = generic
        self.accessible = accessible
    }

    /// Whether no attribute is set.
    public var isEmpty: Bool { self == KeychainAttributes() }
}

/// How many items `keychain.copyMatching` returns (`kSecMatchLimit`).
public enum KeychainMatchLimit: String, Codable, Sendable, Hashable {
    /// `kSecMatchLimitOne`, the default: the first match.
    case one
    /// `kSecMatchLimitAll`: every match.
    case all
}

/// What the answer carries of each item found or added (`kSecReturnData`, `kSecReturnAttributes`).
public struct KeychainReturn: Codable, Sendable, Hashable {
    /// `kSecReturnData`: the secret itself.
    public var data: Bool
    /// `kSecReturnAttributes`: the item's attributes.
    public var attributes: Bool

    public init(data: Bool = false, attributes: Bool = false) {
        self.data = data
        self.attributes = attributes
    }

    /// Nothing back: only the status.
    public static let nothing = KeychainReturn()
}

/// Parameters of `keychain.add` (`SecItemAdd`).
public struct KeychainAddParams: Codable, Sendable, Hashable {
    /// `kSecClass` as Apple spells its value: `"genp"` for a generic password, the only class
    /// the simulated keychain keeps.
    public var itemClass: String
    /// The new item's attributes; without `accessGroup` it goes to the extension's default group.
    public var attributes: KeychainAttributes
    /// `kSecValueData`, the secret (base64 on the wire).
    public var data: Data?
    /// What to return of the added item.
    public var returning: KeychainReturn

    public init(itemClass: String, attributes: KeychainAttributes, data: Data?, returning: KeychainReturn = .nothing) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.data = data
        self.returning = returning
    }
}

/// Parameters of `keychain.copyMatching` (`SecItemCopyMatching`).
public struct KeychainCopyMatchingParams: Codable, Sendable, Hashable {
    /// `kSecClass`'s value, as in ``KeychainAddParams/itemClass``.
    public var itemClass: String
    /// The attributes every item found must have; without `accessGroup` every group the
    /// extension may use is searched.
    public var query: KeychainAttributes
    public var returning: KeychainReturn
    public var limit: KeychainMatchLimit

    public init(itemClass: String, query: KeychainAttributes, returning: KeychainReturn, limit: KeychainMatchLimit = .one) {
        self.itemClass = itemClass
        self.query = query
        self.returning = returning
        self.limit = limit
    }
}

/// Parameters of `keychain.update` (`SecItemUpdate`): every matching item gets `changes`.
public struct KeychainUpdateParams: Codable, Sendable, Hashable {
    public var itemClass: String
    public var query: KeychainAttributes
    /// The attributes to set; the ones not given stay as they are.
    public var changes: KeychainAttributes
    /// A new secret, when given.
    public var data: Data?

    public init(itemClass: String, query: KeychainAttributes, changes: KeychainAttributes, data: Data? = nil) {
        self.itemClass = itemClass
        self.query = query
        self.changes = changes
        self.data = data
    }
}

/// Parameters of `keychain.delete` (`SecItemDelete`): every matching item goes.
public struct KeychainDeleteParams: Codable, Sendable, Hashable {
    public var itemClass: String
    public var query: KeychainAttributes

    public init(itemClass: String, query: KeychainAttributes) {
        self.itemClass = itemClass
        self.query = query
    }
}

/// An item as `keychain.add` and `keychain.copyMatching` return it: what was asked for.
public struct KeychainItemValue: Codable, Sendable, Hashable {
    /// Present when ``KeychainReturn/attributes`` was asked for.
    public var attributes: KeychainAttributes?
    /// Present when ``KeychainReturn/data`` was asked for.
    public var data: Data?

    public init(attributes: KeychainAttributes? = nil, data: Data? = nil) {
        self.attributes = attributes
        self.data = data
    }
}

/// The answer to every `keychain.*` service: an `OSStatus` as Security returns it. A status
/// other than success (the item is not there, it already is) is an answer, not a JSON-RPC error.
public struct KeychainResult: Codable, Sendable, Hashable {
    /// The `OSStatus`, one of ``KeychainStatus``.
    public var status: Int32
    /// Why, for a status other than success or item-not-found: the host's one sentence.
    public var message: String?
    /// The items found or added, as asked for; empty when nothing was asked back.
    public var items: [KeychainItemValue]

    public init(status: Int32, message: String? = nil, items: [KeychainItemValue] = []) {
        self.status = status
        self.message = message
        self.items = items
    }

    /// Success with `items`.
    public static func success(_ items: [KeychainItemValue] = []) -> KeychainResult {
        KeychainResult(status: KeychainStatus.success, items: items)
    }

    /// A failed operation, with its reason.
    public static func failure(_ status: Int32, _ message: String? = nil) -> KeychainResult {
        KeychainResult(status: status, message: message)
    }
}

/// The `OSStatus` values the keychain services answer with, as Security defines them.
public enum KeychainStatus {
    /// `errSecSuccess`.
    public static let success: Int32 = 0
    /// `errSecUnimplemented`: a keychain feature the simulated device does not have (item
    /// classes other than generic passwords, references, access control).
    public static let unimplemented: Int32 = -4
    /// `errSecParam`: a malformed query (an unknown class, a value of the wrong type).
    public static let param: Int32 = -50
    /// `errSecNotAvailable`: no keychain to talk to (the process does not run under wallet-host).
    public static let notAvailable: Int32 = -25291
    /// `errSecDuplicateItem`: an item with the same service, account and access group exists.
    public static let duplicateItem: Int32 = -25299
    /// `errSecItemNotFound`: nothing matched, or nothing the caller may see.
    public static let itemNotFound: Int32 = -25300
    /// `errSecDecode`: the host's answer could not be read.
    public static let decode: Int32 = -26275
    /// `errSecMissingEntitlement`: an access group the caller's entitlements do not name.
    public static let missingEntitlement: Int32 = -34018
    /// `errSecDiskFull`: the team's keychain holds as much as the simulated device keeps
    /// (items per team, bytes per team).
    public static let diskFull: Int32 = -34

    /// The generic-password class, `kSecClassGenericPassword`'s value.
    public static let genericPasswordClass = "genp"
}
