import Foundation
import Security
import Testing

/// The wrappers of KeychainWrapperIdioms.swift build as written; outside wallet-host (no host
/// to answer) every call they make reaches the keychain and reports `errSecNotAvailable`,
/// which shows their dictionaries were read without a complaint (a complaint would be
/// `errSecParam` or `errSecUnimplemented`). The real round trip runs in KeychainSharingTests.
@Suite("Keychain wrappers written for iOS")
struct KeychainWrapperIdiomsTests {
    typealias KeychainError = CredentialsKeychain.KeychainError

    @Test("Apple's article style: add, read, update and delete reach the keychain")
    func articleStyleReachesTheKeychain() {
        let keychain = CredentialsKeychain(service: "com.example.bank")
        let credentials = CredentialsKeychain.Credentials(username: "jane", password: "correct horse")
        #expect(throws: KeychainError.unhandledError(status: errSecNotAvailable)) { try keychain.add(credentials) }
        #expect(throws: KeychainError.unhandledError(status: errSecNotAvailable)) { try keychain.read() }
        #expect(throws: KeychainError.unhandledError(status: errSecNotAvailable)) { try keychain.update(credentials) }
        #expect(throws: KeychainError.unhandledError(status: errSecNotAvailable)) { try keychain.delete() }
        #expect(CredentialsKeychain.describe(errSecItemNotFound) == "The specified item could not be found in the keychain.")
    }

    @Test("the older wrapper style: CFString keys, kCFBooleanTrue!, AnyObject?, NSMutableDictionary")
    func olderStyleReachesTheKeychain() {
        let keychain = TokenKeychain(accessGroup: "ABCDE12345.com.example.shared")
        #expect(keychain.save("token-1", account: "jane") == errSecNotAvailable)
        #expect(keychain.load(account: "jane") == nil)
        #expect(keychain.allAccounts().isEmpty)
        #expect(keychain.relabel(account: "jane", label: "Jane's token") == errSecNotAvailable)
    }

    @Test("a class or key the simulated keychain does not keep is refused before the host is asked")
    func unsupportedQueriesAreRefused() {
        let internetPassword: [String: Any] = [kSecClass as String: kSecClassInternetPassword,
                                               kSecAttrAccount as String: "jane", kSecValueData as String: Data("x".utf8)]
        #expect(SecItemAdd(internetPassword as CFDictionary, nil) == errSecNotAvailable,
                "the class is the host's to judge: it answers errSecUnimplemented")
        let described: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrDescription as String: "token"]
        #expect(SecItemAdd(described as CFDictionary, nil) == errSecUnimplemented)
        let misspelled: [String: Any] = [kSecClass as String: kSecClassGenericPassword, "acount": "jane"]
        #expect(SecItemCopyMatching(misspelled as CFDictionary, nil) == errSecParam)
        let noClass: [String: Any] = [kSecAttrAccount as String: "jane"]
        #expect(SecItemDelete(noClass as CFDictionary) == errSecParam)
    }
}
