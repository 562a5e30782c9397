import Foundation
@testable import Security
import Testing
import WalletWire

/// The host's items handed back through `CFTypeRef` as iOS hands them: readable with
/// `as? Data`, `as? [String: Any]` and arrays of those.
@Suite("SecItem results")
struct KeychainResultObjectTests {
    static let attributes = KeychainAttributes(service: "bank", account: "jane", accessGroup: "group.bank", accessible: "ak")
    static let item = KeychainItemValue(attributes: attributes, data: Data("secret".utf8))

    @Test("the secret alone is Data")
    func dataAlone() {
        let object = KeychainResultObject.make([KeychainItemValue(data: Data("secret".utf8))],
                                               returning: KeychainReturn(data: true), limit: nil)
        #expect(object as? Data == Data("secret".utf8))
    }

    @Test("attributes are a dictionary keyed by the kSec constants, with the secret when asked for")
    func attributesDictionary() throws {
        let object = KeychainResultObject.make([Self.item], returning: KeychainReturn(data: true, attributes: true), limit: 1)
        let dictionary = try #require(object as? [String: Any])
        #expect(dictionary[kSecAttrAccount as String] as? String == "jane")
        #expect(dictionary[kSecAttrService as String] as? String == "bank")
        #expect(dictionary[kSecAttrAccessGroup as String] as? String == "group.bank")
        #expect(dictionary[kSecClass as String] as? String == kSecClassGenericPassword as String)
        #expect(dictionary[kSecValueData as String] as? Data == Data("secret".utf8))
        #expect(dictionary[kSecAttrLabel as String] == nil)
    }

    @Test("kSecMatchLimitAll gives an array, a number at most that many items")
    func arrays() throws {
        let items = Array(repeating: Self.item, count: 3)
        let all = KeychainResultObject.make(items, returning: KeychainReturn(attributes: true), limit: Int.max)
        #expect((all as? [[String: Any]])?.count == 3)
        let two = KeychainResultObject.make(items, returning: KeychainReturn(data: true), limit: 2)
        #expect((two as? [Data]) == [Data("secret".utf8), Data("secret".utf8)])
    }
}
