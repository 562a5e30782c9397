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

nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = "ak"
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = "ck"
nonisolated(unsafe) public let kSecAttrAccessibleAlways: CFString = "dk"
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = "akpu"
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = "aku"
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"
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
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = "m_LimitOne"
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = "m_LimitAll"

// MARK: Accepted and ignored

/// iCloud Keychain synchronization: accepted and ignored (the simulated device has no iCloud).
nonisolated(unsafe) public let kSecAttrSynchronizable: CFString = "sync"
/// Matches synchronized and local items alike.
nonisolated(unsafe) public let kSecAttrSynchronizableAny: CFString = "syna"
/// The data protection keychain: accepted and ignored (iOS always uses it).
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = "nleg"

// MARK: Known to iOS, not kept here (errSecUnimplemented)

nonisolated(unsafe) public let kSecAttrDescription: CFString = "desc"
nonisolated(unsafe) public let kSecAttrComment: CFString = "icmt"
nonisolated(unsafe) public let kSecAttrCreator: CFString = "crtr"
nonisolated(unsafe) public let kSecAttrType: CFString = "type"
nonisolated(unsafe) public let kSecAttrIsInvisible: CFString = "invi"
nonisolated(unsafe) public let kSecAttrIsNegative: CFString = "nega"
nonisolated(unsafe) public let kSecAttrCreationDate: CFString = "cdat"
nonisolated(unsafe) public let kSecAttrModificationDate: CFString = "mdat"
nonisolated(unsafe) public let kSecAttrAccessControl: CFString = "accc"
nonisolated(unsafe) public let kSecAttrServer: CFString = "srvr"
nonisolated(unsafe) public let kSecValueRef: CFString = "v_Ref"
nonisolated(unsafe) public let kSecValuePersistentRef: CFString = "v_PersistentRef"
nonisolated(unsafe) public let kSecUseAuthenticationUI: CFString = "u_AuthUI"
nonisolated(unsafe) public let kSecUseOperationPrompt: CFString = "u_OpPrompt"
