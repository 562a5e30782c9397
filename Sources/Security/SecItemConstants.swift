import Foundation

// The SecItem dictionary keys and values, with Apple's values (the strings iOS uses), so that
// keys and values read back from a dictionary compare equal to the constants.

// MARK: Item class

/// The key of an item's class.
nonisolated(unsafe) public let kSecClass: CFString = "class"
/// A generic password: the one class the simulated keychain keeps.
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = "genp"
/// An Internet password (not kept: errSecUnimplemented).
nonisolated(unsafe) public let kSecClassInternetPassword: CFString = "inet"
/// A certificate (not kept: errSecUnimplemented).
nonisolated(unsafe) public let kSecClassCertificate: CFString = "cert"
/// A cryptographic key (not kept: errSecUnimplemented).
nonisolated(unsafe) public let kSecClassKey: CFString = "keys"
/// An identity (not kept: errSecUnimplemented).
nonisolated(unsafe) public let kSecClassIdentity: CFString = "idnt"

// MARK: Attributes the simulated keychain keeps

/// The service a generic password belongs to (part of its primary key).
nonisolated(unsafe) public let kSecAttrService: CFString = "svce"
/// The account name (part of its primary key).
nonisolated(unsafe) public let kSecAttrAccount: CFString = "acct"
/// The keychain access group (part of its primary key); the default is the bundle's first.
nonisolated(unsafe) public let kSecAttrAccessGroup: CFString = "agrp"
/// A label people see.
nonisolated(unsafe) public let kSecAttrLabel: CFString = "labl"
/// Arbitrary data of the item's owner (`Data`).
nonisolated(unsafe) public let kSecAttrGeneric: CFString = "gena"
/// When the item is readable: stored and returned, never enforced (the device is unlocked).
nonisolated(unsafe) public let kSecAttrAccessible: CFString = "pdmn"
/// The secret of the item (`Data`).
nonisolated(unsafe) public let kSecValueData: CFString = "v_Data"

// MARK: kSecAttrAccessible values

/// Readable while the device is unlocked (iOS's default).
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = "ak"
/// Readable after the first unlock since restart.
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck"
/// Always readable (deprecated on iOS).
nonisolated(unsafe) public let kSecAttrAccessibleAlways: CFString = "dk"
/// Readable while unlocked, only with a passcode set; never migrated.
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"
/// Readable while unlocked; never migrated to another device.
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
/// Readable after the first unlock; never migrated to another device.
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
/// Always readable; never migrated (deprecated on iOS).
nonisolated(unsafe) public let kSecAttrAccessibleAlwaysThisDeviceOnly: CFString = "dku"

// MARK: Search and return

/// Return the item's secret (`Data`).
nonisolated(unsafe) public let kSecReturnData: CFString = "r_Data"
/// Return the item's attributes (`[String: Any]`).
nonisolated(unsafe) public let kSecReturnAttributes: CFString = "r_Attributes"
/// Return a reference (not supported: errSecUnimplemented).
nonisolated(unsafe) public let kSecReturnRef: CFString = "r_Ref"
/// Return a persistent reference (not supported: errSecUnimplemented).
nonisolated(unsafe) public let kSecReturnPersistentRef: CFString = "r_PersistentRef"
/// How many items to return: ``kSecMatchLimitOne`` (the default), ``kSecMatchLimitAll`` or a number.
nonisolated(unsafe) public let kSecMatchLimit: CFString = "m_Limit"
/// Return the first match.
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"
/// Return every match, as an array.
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = "m_LimitAll"

// MARK: Accepted and ignored

/// iCloud Keychain synchronization: accepted and ignored (the simulated device has no iCloud).
nonisolated(unsafe) public let kSecAttrSynchronizable: CFString = "sync"
/// Matches synchronized and local items alike.
nonisolated(unsafe) public let kSecAttrSynchronizableAny: CFString = "syna"
/// The data protection keychain: accepted and ignored (iOS always uses it).
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"

// MARK: Known to iOS, not kept here (errSecUnimplemented)

/// A description people see (not kept: errSecUnimplemented).
nonisolated(unsafe) public let kSecAttrDescription: CFString = "desc"
/// A comment (not kept: errSecUnimplemented).
nonisolated(unsafe) public let kSecAttrComment: CFString = "icmt"
/// The creator code (not kept: errSecUnimplemented).
nonisolated(unsafe) public let kSecAttrCreator: CFString = "crtr"
/// The type code (not kept: errSecUnimplemented).
nonisolated(unsafe) public let kSecAttrType: CFString = "type"
/// Whether the item is hidden (not kept: errSecUnimplemented).
nonisolated(unsafe) public let kSecAttrIsInvisible: CFString = "invi"
/// Whether the item holds no password (not kept: errSecUnimplemented).
nonisolated(unsafe) public let kSecAttrIsNegative: CFString = "nega"
/// When the item was created (not returned: errSecUnimplemented in a query).
nonisolated(unsafe) public let kSecAttrCreationDate: CFString = "cdat"
/// When the item last changed (not returned: errSecUnimplemented in a query).
nonisolated(unsafe) public let kSecAttrModificationDate: CFString = "mdat"
/// Access control and biometry (not supported: errSecUnimplemented).
nonisolated(unsafe) public let kSecAttrAccessControl: CFString = "accc"
/// An Internet password's server (not kept: errSecUnimplemented).
nonisolated(unsafe) public let kSecAttrServer: CFString = "srvr"
/// An item reference as the value (not supported: errSecUnimplemented).
nonisolated(unsafe) public let kSecValueRef: CFString = "v_Ref"
/// A persistent reference as the value (not supported: errSecUnimplemented).
nonisolated(unsafe) public let kSecValuePersistentRef: CFString = "v_PersistentRef"
/// Whether to show authentication UI: accepted and ignored (nothing here needs it).
nonisolated(unsafe) public let kSecUseAuthenticationUI: CFString = "u_AuthUI"
/// The authentication prompt: accepted and ignored.
nonisolated(unsafe) public let kSecUseOperationPrompt: CFString = "u_OpPrompt"
