import Foundation
@testable import Security
import Testing
import WalletWire

/// How SecItem dictionaries become the `keychain.*` wire params, and Apple's rules for which
/// keys each call takes.
@Suite("SecItem dictionaries")
struct KeychainDictionaryTests {
    static let secret = Data("correct horse".utf8)

    @Test("an add dictionary gives its attributes, secret and return keys")
    func addDictionary() throws {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "bank", kSecAttrAccount as String: "jane",
            kSecAttrAccessGroup as String: "group.bank", kSecAttrLabel as String: "Bank token",
            kSecAttrGeneric as String: Data([1, 2]), kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
            kSecValueData as String: Self.secret, kSecReturnAttributes as String: kCFBooleanTrue!,
            kSecAttrSynchronizable as String: false,
        ]
        let request = try KeychainDictionary(query as CFDictionary, purpose: .add, function: "SecItemAdd")
        #expect(request.itemClass == "genp")
        #expect(request.attributes == KeychainAttributes(service: "bank", account: "jane", accessGroup: "group.bank",
                                                         label: "Bank token", generic: Data([1, 2]), accessible: "aku"))
        #expect(request.data == Self.secret)
        #expect(request.returning == KeychainReturn(data: false, attributes: true))
    }

    @Test("a delete or update query ignores the secret, return and match keys of a reused add dictionary")
    func filterIgnoresNonAttributes() throws {
        let query: [CFString: Any] = [kSecClass: kSecClassGenericPassword, kSecAttrAccount: "jane", kSecValueData: Self.secret,
                                      kSecReturnData: true, kSecMatchLimit: kSecMatchLimitAll]
        let request = try KeychainDictionary(query as CFDictionary, purpose: .filter, function: "SecItemDelete")
        #expect(request.attributes == KeychainAttributes(account: "jane"))
        #expect(request.data == nil)
        #expect(request.returning == .nothing)
        #expect(request.limit == nil)
    }

    @Test("match limits: one by default, all, or a number")
    func matchLimits() throws {
        func limit(_ value: Any?) throws -> (Int?, KeychainMatchLimit) {
            let query = NSMutableDictionary()
            query[kSecClass] = kSecClassGenericPassword
            if let value { query[kSecMatchLimit] = value }
            let request = try KeychainDictionary(query, purpose: .search, function: "SecItemCopyMatching")
            return (request.limit, request.wireLimit)
        }
        #expect(try limit(nil) == (nil, .one))
        #expect(try limit(kSecMatchLimitOne) == (1, .one))
        #expect(try limit(kSecMatchLimitAll) == (Int.max, .all))
        #expect(try limit(3) == (3, .all))
        #expect(throws: KeychainCallFailure.self) { try limit("m_LimitSome") }
    }

    @Test("a value of the wrong type is errSecParam, naming the key")
    func wrongTypes() {
        let cases: [(CFString, Any, String)] = [
            (kSecAttrAccount, 42, "kSecAttrAccount (\"acct\") must be a string"),
            (kSecValueData, "not data", "kSecValueData (\"v_Data\") must be Data"),
            (kSecReturnData, "yes", "kSecReturnData (\"r_Data\") must be a Boolean"),
        ]
        for (key, value, message) in cases {
            let query: [CFString: Any] = [kSecClass: kSecClassGenericPassword, key: value]
            #expect {
                _ = try KeychainDictionary(query as CFDictionary, purpose: .add, function: "SecItemAdd")
            } throws: { error in
                let failure = error as? KeychainCallFailure
                return failure?.status == errSecParam && failure?.message.hasPrefix("SecItemAdd: \(message)") == true
            }
        }
    }

    @Test("keys iOS knows but this keychain does not keep are errSecUnimplemented; unknown keys errSecParam")
    func unsupportedAndUnknownKeys() {
        func failure(_ key: String, purpose: KeychainDictionary.Purpose = .search) -> KeychainCallFailure? {
            let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, key: true]
            do {
                _ = try KeychainDictionary(query as CFDictionary, purpose: purpose, function: "SecItemCopyMatching")
                return nil
            } catch {
                return error
            }
        }
        #expect(failure(kSecReturnRef as String)?.status == errSecUnimplemented)
        #expect(failure(kSecReturnPersistentRef as String, purpose: .filter) == nil)
        #expect(failure(kSecAttrComment as String)?.status == errSecUnimplemented)
        #expect(failure(kSecAttrComment as String)?.message.contains("kSecAttrComment (\"icmt\") is not kept") == true)
        #expect(failure("acount")?.status == errSecParam)
        #expect(failure("acount")?.message == "SecItemCopyMatching: the key \"acount\" is not a keychain key")
        #expect(failure(kSecUseDataProtectionKeychain as String) == nil)
        #expect(failure(kSecReturnData as String, purpose: .changes)?.status == errSecParam)
    }
}

/// The public `kSec*` constants and the keys the dictionary reader recognises agree.
@Suite("SecItem constants")
struct KeychainConstantsTests {
    static var constants: [String: CFString] { [
        "kSecClass": kSecClass, "kSecAttrService": kSecAttrService, "kSecAttrAccount": kSecAttrAccount,
        "kSecAttrAccessGroup": kSecAttrAccessGroup, "kSecAttrLabel": kSecAttrLabel, "kSecAttrGeneric": kSecAttrGeneric,
        "kSecAttrAccessible": kSecAttrAccessible, "kSecValueData": kSecValueData, "kSecReturnData": kSecReturnData,
        "kSecReturnAttributes": kSecReturnAttributes, "kSecMatchLimit": kSecMatchLimit,
        "kSecAttrSynchronizable": kSecAttrSynchronizable, "kSecUseDataProtectionKeychain": kSecUseDataProtectionKeychain,
        "kSecUseAuthenticationUI": kSecUseAuthenticationUI, "kSecUseOperationPrompt": kSecUseOperationPrompt,
        "kSecReturnRef": kSecReturnRef, "kSecReturnPersistentRef": kSecReturnPersistentRef, "kSecValueRef": kSecValueRef,
        "kSecValuePersistentRef": kSecValuePersistentRef, "kSecAttrDescription": kSecAttrDescription,
        "kSecAttrComment": kSecAttrComment, "kSecAttrCreator": kSecAttrCreator, "kSecAttrType": kSecAttrType,
        "kSecAttrIsInvisible": kSecAttrIsInvisible, "kSecAttrIsNegative": kSecAttrIsNegative,
        "kSecAttrCreationDate": kSecAttrCreationDate, "kSecAttrModificationDate": kSecAttrModificationDate,
        "kSecAttrAccessControl": kSecAttrAccessControl, "kSecAttrServer": kSecAttrServer,
    ] }

    @Test("every recognised key is the value of the constant of its name")
    func keysMatchConstants() {
        for key in KeychainKey.allCases {
            #expect(Self.constants[key.constantName] as String? == key.rawValue, "\(key.constantName)")
        }
        #expect(Self.constants.count == KeychainKey.allCases.count)
    }

    @Test("SecCopyErrorMessageString words Security's codes and names unknown ones")
    func errorMessages() {
        #expect(SecCopyErrorMessageString(errSecDuplicateItem, nil) as String? == "The specified item already exists in the keychain.")
        #expect(SecCopyErrorMessageString(errSecMissingEntitlement, nil) as String? == "A required entitlement isn't present.")
        #expect(SecCopyErrorMessageString(-99999, nil) as String? == "OSStatus -99999")
    }
}
