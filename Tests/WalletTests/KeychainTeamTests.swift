import Foundation
import Testing
import Wallet
import WalletWire

/// Issue 16, part 3: keychain items are kept per team and access group. A bundle of another
/// team that names the same group (an App Group, say) sees none of the owner's items, and items
/// written before teams are its own only when their group says so.
@Suite("Keychain per team")
struct KeychainTeamTests {
    static let appGroup = "group.com.example.sampleissuer"
    static let sample = KeychainAccess(team: "com.example.sampleissuer", groups: ["com.example.sampleissuer.WNonUIExt", appGroup])
    static let sampleApp = KeychainAccess(team: "com.example.sampleissuer", groups: ["com.example.sampleissuer", appGroup])
    static let hostile = KeychainAccess(team: "EVILTEAM99", groups: ["EVILTEAM99.com.example.evil", appGroup])
    static let genp = KeychainStatus.genericPasswordClass

    static func add(_ store: inout KeychainStore, secret: String, access: KeychainAccess) -> KeychainResult {
        store.add(KeychainAddParams(itemClass: genp, attributes: KeychainAttributes(service: "bank", account: "jane", accessGroup: appGroup),
                                    data: Data(secret.utf8)), access: access)
    }

    static func read(_ store: KeychainStore, access: KeychainAccess) -> KeychainResult {
        store.copyMatching(KeychainCopyMatchingParams(itemClass: genp, query: KeychainAttributes(service: "bank"),
                                                      returning: KeychainReturn(data: true, attributes: true), limit: .all),
                           access: access)
    }

    @Test("a bundle of another team naming the sample's App Group reads, changes and deletes nothing of the sample's")
    func anotherTeamSeesNothing() {
        var store = KeychainStore()
        #expect(Self.add(&store, secret: "token", access: Self.sample).status == KeychainStatus.success)
        #expect(store.items.map(\.team) == ["com.example.sampleissuer"])
        #expect(Self.read(store, access: Self.sampleApp).items.map(\.data) == [Data("token".utf8)], "shared within the team")

        #expect(Self.read(store, access: Self.hostile).status == KeychainStatus.itemNotFound)
        let before = store
        #expect(store.update(KeychainUpdateParams(itemClass: Self.genp, query: KeychainAttributes(accessGroup: Self.appGroup),
                                                  changes: KeychainAttributes(), data: Data("stolen".utf8)),
                             access: Self.hostile).status == KeychainStatus.itemNotFound)
        #expect(store.delete(KeychainDeleteParams(itemClass: Self.genp, query: KeychainAttributes()), access: Self.hostile).status
                == KeychainStatus.itemNotFound)
        #expect(store == before)

        // Its own item with the same group, service and account is a separate item, not a duplicate.
        #expect(Self.add(&store, secret: "mine", access: Self.hostile).status == KeychainStatus.success)
        #expect(Self.read(store, access: Self.hostile).items.map(\.data) == [Data("mine".utf8)])
        #expect(Self.read(store, access: Self.sample).items.map(\.data) == [Data("token".utf8)])
    }

    @Test("naming a group without the team prefix says the prefix is needed")
    func refusalNamesTheTeamPrefix() {
        var store = KeychainStore()
        let result = store.add(KeychainAddParams(itemClass: Self.genp,
                                                 attributes: KeychainAttributes(accessGroup: "ABCDE12345.com.example.sampleissuer.shared"),
                                                 data: nil), access: Self.hostile)
        #expect(result.status == KeychainStatus.missingEntitlement)
        #expect(result.message?.contains("must start with this bundle's team prefix \"EVILTEAM99.\"") == true, "\(result)")
    }

    @Test("items from before teams: the team whose prefix or App Group their group is owns them")
    func itemsWithoutTeam() throws {
        let json = """
            [{"accessGroup":"group.com.example.sampleissuer","service":"bank","account":"jane","accessible":"ak","data":"dG9rZW4=",
              "createdAt":"2026-01-01T00:00:00Z","modifiedAt":"2026-01-01T00:00:00Z"},
             {"accessGroup":"com.example.sampleissuer.WNonUIExt","service":"bank","account":"own","accessible":"ak","data":"b3du",
              "createdAt":"2026-01-01T00:00:00Z","modifiedAt":"2026-01-01T00:00:00Z"}]
            """
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let items = try decoder.decode([KeychainItemRecord].self, from: Data(json.utf8))
        #expect(items.allSatisfy { $0.team == nil })
        var store = KeychainStore(items: items)

        let owner = KeychainAccess(team: Self.sample.team, groups: Self.sample.groups, ownedAppGroups: [Self.appGroup])
        #expect(Self.read(store, access: owner).items.compactMap(\.attributes?.account).sorted() == ["jane", "own"])
        #expect(Self.read(store, access: Self.sample).items.compactMap(\.attributes?.account) == ["own"],
                "without the App Group's owner record, its old items are nobody's")
        #expect(Self.read(store, access: Self.hostile).status == KeychainStatus.itemNotFound)

        // A change by the owner stamps its team on the item.
        #expect(store.update(KeychainUpdateParams(itemClass: Self.genp, query: KeychainAttributes(account: "jane"),
                                                  changes: KeychainAttributes(label: "Bank")), access: owner) == .success())
        #expect(store.items.first { $0.account == "jane" }?.team == Self.sample.team)
    }
}
