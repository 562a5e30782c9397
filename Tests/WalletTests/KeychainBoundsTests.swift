import Foundation
import Testing
import Wallet
import WalletHostRuntime
import WalletTestSupport
import WalletWire

/// Issue 31, break 9: `keychain.add` took any number of items of any size into one
/// `keychain.json`, outside every quota, and each write re-encoded the whole file under the
/// state lock, so one issuer's 170 MB stalled every other's. Now a team keeps at most 256 items
/// of at most 64 KiB of value each, 2 MiB in all, in a file of its own.
@Suite("Keychain bounds and a file per team")
struct KeychainBoundsTests {
    private static func request(_ method: String, _ params: String, app: String = "com.example.bank") -> ServiceRequest {
        let line = Data(#"{"id":1,"jsonrpc":"2.0","method":"\#(method)","params":\#(params)}"#.utf8)
        return ServiceRequest(method: method, line: line, extensionPoint: WalletExtensionPoint.nonUI, role: .nonUI,
                              bundleIdentifier: app + ".WNonUIExt", containingAppBundleIdentifier: app, keychainAccessGroups: [app])
    }

    private static func add(_ services: DeviceServices, account: String, bytes: Int, app: String = "com.example.bank") async throws -> KeychainResult {
        let data = Data(repeating: 0x41, count: bytes).base64EncodedString()
        let params = #"{"attributes":{"account":"\#(account)"},"data":"\#(data)","itemClass":"genp","returning":{"attributes":false,"data":false}}"#
        return try #require(try await services.respond(to: request(WireMethod.keychainAdd, params, app: app)) as? KeychainResult)
    }

    private static func fresh() -> (StateDirectory, DeviceServices) {
        let state = StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-keychain-bounds"))
        return (state, DeviceServices(device: SimulatedDevice(state: state)))
    }

    @Test("an item whose value is over 64 KiB is refused with errSecParam naming the bound, and not kept")
    func itemTooLarge() async throws {
        let (_, services) = Self.fresh()
        let refused = try await Self.add(services, account: "big", bytes: 64 * 1024 + 1)
        #expect(refused.status == KeychainStatus.param)
        #expect(refused.message?.contains("the item's value is 65537 bytes, more than the 65536 bytes (64 KiB)") == true, "\(refused)")
        #expect(try await Self.add(services, account: "fits", bytes: 64 * 1024) == .success())
        #expect(try services.device.keychainItems().map(\.account) == ["fits"])
    }

    @Test("the 257th item of a team is refused with errSecDiskFull naming the bound; another team still adds")
    func tooManyItems() async throws {
        let (_, services) = Self.fresh()
        let access = try services.device.keychainAccess(team: "com.example.bank", groups: ["com.example.bank"])
        let filled = try services.device.changeKeychain(for: access) { store in
            for index in 0..<256 {
                let result = store.add(KeychainAddParams(itemClass: KeychainStatus.genericPasswordClass,
                                                         attributes: KeychainAttributes(account: "item-\(index)"), data: Data("x".utf8)),
                                       access: access)
                guard result.status == KeychainStatus.success else { return result }
            }
            return .success()
        }
        #expect(filled == .success())
        let refused = try await Self.add(services, account: "one-too-many", bytes: 1)
        #expect(refused.status == KeychainStatus.diskFull)
        #expect(refused.message?.contains("team \"com.example.bank\" already keeps 256 keychain items, the most the simulated keychain keeps per team is 256") == true,
                "\(refused)")
        #expect(try await Self.add(services, account: "mine", bytes: 1, app: "com.example.other") == .success())
    }

    @Test("a team's items past 2 MiB in all are refused with errSecDiskFull naming the bound")
    func teamTotal() async throws {
        let (_, services) = Self.fresh()
        var refused: KeychainResult?
        for index in 0..<40 {
            let result = try await Self.add(services, account: "item-\(index)", bytes: 60 * 1024)
            if result.status != KeychainStatus.success {
                refused = result
                break
            }
        }
        let result = try #require(refused, "40 items of 60 KiB were all kept")
        #expect(result.status == KeychainStatus.diskFull)
        #expect(result.message?.contains("more than the 2097152 bytes (2 MiB) the simulated keychain keeps per team") == true, "\(result)")
        #expect(try services.device.keychainItems().count == 34)
    }

    @Test("each team's items are in its own file: team A's never appear in team B's")
    func filePerTeam() async throws {
        let (state, services) = Self.fresh()
        #expect(try await Self.add(services, account: "alice", bytes: 8) == .success())
        #expect(try await Self.add(services, account: "mallory", bytes: 8, app: "com.example.other") == .success())
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let bank = try decoder.decode([KeychainItemRecord].self, from: Data(contentsOf: try state.keychainURL(team: "com.example.bank")))
        let other = try decoder.decode([KeychainItemRecord].self, from: Data(contentsOf: try state.keychainURL(team: "com.example.other")))
        #expect(bank.map(\.account) == ["alice"])
        #expect(other.map(\.account) == ["mallory"])
        #expect(try services.device.removeKeychainItems(matching: KeychainAttributes(account: "mallory")) == 1)
        #expect(try services.device.keychainItems().map(\.account) == ["alice"])
        #expect(!FileManager.default.fileExists(atPath: state.keychainURL.path), "no shared keychain.json is written")
    }

    @Test("a team name that is not a plain file name is escaped, never a path")
    func teamFileName() throws {
        let state = StateDirectory(url: URL(fileURLWithPath: "/nonexistent/state"))
        #expect(try state.keychainURL(team: "../../etc/passwd").lastPathComponent == "%2E.%2F..%2Fetc%2Fpasswd.json")
        #expect(try state.keychainURL(team: "ABCDE12345").lastPathComponent == "ABCDE12345.json")
        #expect(throws: StateError.self) { try state.keychainURL(team: String(repeating: "a", count: 201)) }
    }

    @Test("an older host's keychain.json is still read, and a team's first write moves its items out of it")
    func migration() async throws {
        let (state, services) = Self.fresh()
        try state.prepareDirectory()
        let legacy = [
            KeychainItemRecord(team: nil, accessGroup: "com.example.bank", service: "", account: "old", data: Data("old-secret".utf8)),
            KeychainItemRecord(team: "com.example.other", accessGroup: "com.example.other", service: "", account: "theirs", data: Data("x".utf8)),
        ]
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(legacy).write(to: state.keychainURL)

        let query = #"{"itemClass":"genp","limit":"one","query":{"account":"old"},"returning":{"attributes":false,"data":true}}"#
        let found = try #require(try await services.respond(to: Self.request(WireMethod.keychainCopyMatching, query)) as? KeychainResult)
        #expect(found == .success([KeychainItemValue(data: Data("old-secret".utf8))]))

        #expect(try await Self.add(services, account: "new", bytes: 4) == .success())
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let bank = try decoder.decode([KeychainItemRecord].self, from: Data(contentsOf: try state.keychainURL(team: "com.example.bank")))
        #expect(bank.map(\.account).sorted() == ["new", "old"])
        #expect(bank.allSatisfy { $0.team == "com.example.bank" })
        let left = try decoder.decode([KeychainItemRecord].self, from: Data(contentsOf: state.keychainURL))
        #expect(left.map(\.account) == ["theirs"], "the other team's item stays until its own first write")
        #expect(try services.device.keychainItems().map(\.account).sorted() == ["new", "old", "theirs"])
        let again = try #require(try await services.respond(to: Self.request(WireMethod.keychainCopyMatching, query)) as? KeychainResult)
        #expect(again == found)
    }
}
