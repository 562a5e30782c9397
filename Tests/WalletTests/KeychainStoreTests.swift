import Foundation
import Testing
import Wallet
import WalletWire

/// The simulated keychain's rules (SecItemAdd / CopyMatching / Update / Delete for generic
/// passwords) and its access-group rule, on items in memory.
@Suite("Keychain store")
struct KeychainStoreTests {
    static let bankGroup = "ABCDE12345.com.example.bank.shared"
    /// The bank's app and extensions: the shared group first, then the extension's own identifier.
    static let bankExtension = KeychainAccess(team: "ABCDE12345", groups: [bankGroup, "com.example.bank.WNonUIExt", "group.com.example.bank"])
    static let bankApp = KeychainAccess(team: "ABCDE12345", groups: [bankGroup, "com.example.bank"])
    static let otherIssuer = KeychainAccess(team: "com.example.otherbank", groups: ["com.example.otherbank"])
    static let genp = KeychainStatus.genericPasswordClass

    static func add(_ store: inout KeychainStore, service: String = "bank", account: String = "jane", group: String? = nil,
                    secret: String = "s3cret", access: KeychainAccess = bankExtension) -> KeychainResult {
        store.add(KeychainAddParams(itemClass: genp, attributes: KeychainAttributes(service: service, account: account, accessGroup: group),
                                    data: Data(secret.utf8)), access: access)
    }

    static func find(_ store: KeychainStore, _ query: KeychainAttributes = KeychainAttributes(service: "bank"),
                     limit: KeychainMatchLimit = .one, access: KeychainAccess) -> KeychainResult {
        store.copyMatching(KeychainCopyMatchingParams(itemClass: genp, query: query,
                                                      returning: KeychainReturn(data: true, attributes: true), limit: limit),
                           access: access)
    }

    @Test("an item added without a group goes to the bundle's first group; its app reads it, another issuer does not")
    func defaultGroupIsShared() throws {
        var store = KeychainStore()
        #expect(Self.add(&store).status == KeychainStatus.success)
        #expect(store.items.map(\.accessGroup) == [Self.bankGroup])

        let fromApp = Self.find(store, access: Self.bankApp)
        #expect(fromApp.status == KeychainStatus.success)
        #expect(fromApp.items.first?.data == Data("s3cret".utf8))
        #expect(fromApp.items.first?.attributes?.accessGroup == Self.bankGroup)
        #expect(fromApp.items.first?.attributes?.accessible == "ak")

        #expect(Self.find(store, access: Self.otherIssuer).status == KeychainStatus.itemNotFound)
    }

    @Test("an item in the extension's own application-identifier group is not the app's")
    func ownGroupIsPrivate() {
        var store = KeychainStore()
        #expect(Self.add(&store, group: "com.example.bank.WNonUIExt").status == KeychainStatus.success)
        #expect(Self.find(store, access: Self.bankExtension).status == KeychainStatus.success)
        #expect(Self.find(store, access: Self.bankApp).status == KeychainStatus.itemNotFound)
    }

    @Test("naming a group the bundle is not entitled to is errSecMissingEntitlement for every operation, and changes nothing")
    func foreignGroupIsRefused() throws {
        var store = KeychainStore()
        #expect(Self.add(&store).status == KeychainStatus.success)
        let before = store
        let added = Self.add(&store, group: Self.bankGroup, access: Self.otherIssuer)
        #expect(added.status == KeychainStatus.missingEntitlement)
        #expect(added.message?.contains("\"\(Self.bankGroup)\" is not one of this bundle's keychain access groups (\"com.example.otherbank\")") == true)
        let query = KeychainAttributes(accessGroup: Self.bankGroup)
        #expect(Self.find(store, query, access: Self.otherIssuer).status == KeychainStatus.missingEntitlement)
        #expect(store.update(KeychainUpdateParams(itemClass: Self.genp, query: query, changes: KeychainAttributes(label: "x")),
                             access: Self.otherIssuer).status == KeychainStatus.missingEntitlement)
        #expect(store.delete(KeychainDeleteParams(itemClass: Self.genp, query: query), access: Self.otherIssuer).status
                == KeychainStatus.missingEntitlement)
        // Moving one's own item into a group one is not entitled to is refused too.
        #expect(store.update(KeychainUpdateParams(itemClass: Self.genp, query: KeychainAttributes(),
                                                  changes: KeychainAttributes(accessGroup: "com.example.otherbank")),
                             access: Self.bankApp).status == KeychainStatus.missingEntitlement)
        #expect(store == before)
    }

    @Test("another issuer's update and delete do not reach items it cannot see")
    func invisibleItemsAreUntouched() {
        var store = KeychainStore()
        #expect(Self.add(&store).status == KeychainStatus.success)
        let before = store
        #expect(store.update(KeychainUpdateParams(itemClass: Self.genp, query: KeychainAttributes(service: "bank"),
                                                  changes: KeychainAttributes(), data: Data("stolen".utf8)),
                             access: Self.otherIssuer).status == KeychainStatus.itemNotFound)
        #expect(store.delete(KeychainDeleteParams(itemClass: Self.genp, query: KeychainAttributes()), access: Self.otherIssuer).status
                == KeychainStatus.itemNotFound)
        #expect(store == before)
    }

    @Test("service, account and access group are the primary key: the same three again is errSecDuplicateItem")
    func duplicates() {
        var store = KeychainStore()
        #expect(Self.add(&store).status == KeychainStatus.success)
        #expect(Self.add(&store, secret: "other").status == KeychainStatus.duplicateItem)
        #expect(Self.add(&store, account: "john").status == KeychainStatus.success)
        #expect(Self.add(&store, group: "group.com.example.bank").status == KeychainStatus.success)
        #expect(store.items.count == 3)
        // Renaming john to jane would collide with jane in the shared group: refused whole.
        let rename = store.update(KeychainUpdateParams(itemClass: Self.genp, query: KeychainAttributes(account: "john"),
                                                       changes: KeychainAttributes(account: "jane")), access: Self.bankExtension)
        #expect(rename.status == KeychainStatus.duplicateItem)
        #expect(store.items.filter { $0.account == "john" }.count == 1)
    }

    @Test("match limits: one gives the first match, all gives every match of the visible groups")
    func limits() {
        var store = KeychainStore()
        for account in ["a", "b", "c"] { _ = Self.add(&store, account: account) }
        _ = Self.add(&store, account: "d", group: "com.example.bank.WNonUIExt")
        #expect(Self.find(store, access: Self.bankApp).items.map { $0.attributes?.account } == ["a"])
        #expect(Self.find(store, limit: .all, access: Self.bankApp).items.map { $0.attributes?.account } == ["a", "b", "c"])
        #expect(Self.find(store, limit: .all, access: Self.bankExtension).items.count == 4)
        let nothingBack = store.copyMatching(KeychainCopyMatchingParams(itemClass: Self.genp, query: KeychainAttributes(account: "b"),
                                                                       returning: .nothing), access: Self.bankApp)
        #expect(nothingBack == .success())
    }

    @Test("update changes the secret and attributes of every match; delete removes every match")
    func updateAndDelete() throws {
        var store = KeychainStore()
        _ = Self.add(&store, account: "a")
        _ = Self.add(&store, account: "b")
        _ = Self.add(&store, service: "other", account: "c")
        let later = Date(timeIntervalSinceNow: 60)
        let update = store.update(KeychainUpdateParams(itemClass: Self.genp, query: KeychainAttributes(service: "bank"),
                                                       changes: KeychainAttributes(label: "Bank"), data: Data("new".utf8)),
                                  access: Self.bankApp, now: later)
        #expect(update == .success())
        let bank = store.items.filter { $0.service == "bank" }
        #expect(bank.allSatisfy { $0.label == "Bank" && $0.data == Data("new".utf8) && $0.modifiedAt == later && $0.createdAt < later })
        #expect(store.items.first { $0.service == "other" }?.data == Data("s3cret".utf8))

        #expect(store.delete(KeychainDeleteParams(itemClass: Self.genp, query: KeychainAttributes(service: "bank")),
                             access: Self.bankApp) == .success())
        #expect(store.items.map(\.account) == ["c"])
        #expect(store.delete(KeychainDeleteParams(itemClass: Self.genp, query: KeychainAttributes(service: "bank")),
                             access: Self.bankApp).status == KeychainStatus.itemNotFound)
    }

    @Test("other item classes are errSecUnimplemented, a class that is none errSecParam, each saying so")
    func classes() {
        var store = KeychainStore()
        let internet = store.add(KeychainAddParams(itemClass: "inet", attributes: KeychainAttributes(), data: nil), access: Self.bankApp)
        #expect(internet.status == KeychainStatus.unimplemented)
        #expect(internet.message == "the simulated keychain keeps generic passwords (kSecClassGenericPassword) only, not kSecClassInternetPassword items")
        let keys = store.copyMatching(KeychainCopyMatchingParams(itemClass: "keys", query: KeychainAttributes(), returning: .nothing),
                                      access: Self.bankApp)
        #expect(keys.status == KeychainStatus.unimplemented)
        let bogus = store.delete(KeychainDeleteParams(itemClass: "password", query: KeychainAttributes()), access: Self.bankApp)
        #expect(bogus.status == KeychainStatus.param)
        #expect(bogus.message == "kSecClass \"password\" is not a keychain item class")
        #expect(store.items.isEmpty)
    }

    @Test("a bundle with no access group cannot add")
    func noGroups() {
        var store = KeychainStore()
        #expect(Self.add(&store, access: KeychainAccess(team: "ABCDE12345", groups: [])).status == KeychainStatus.missingEntitlement)
    }
}
