import Foundation
import Testing
import Wallet
import WalletHostRuntime
import WalletTestSupport
import WalletWire

/// The `keychain.*` host services asked directly: wire params in, keychain.json on disk, the
/// caller's access groups from the request.
@Suite("Keychain services")
struct KeychainServiceTests {
    static let bankGroups = ["com.example.bank.shared", "com.example.bank.WNonUIExt"]

    private static func request(_ method: String, params: String, groups: [String] = bankGroups) -> ServiceRequest {
        let line = Data(#"{"id":1,"jsonrpc":"2.0","method":"\#(method)","params":\#(params)}"#.utf8)
        return ServiceRequest(method: method, line: line, extensionPoint: WalletExtensionPoint.nonUI, role: .nonUI,
                              bundleIdentifier: "com.example.bank.WNonUIExt", containingAppBundleIdentifier: "com.example.bank",
                              keychainAccessGroups: groups)
    }

    private static func answer(_ services: DeviceServices, _ method: String, _ params: String,
                               groups: [String] = bankGroups) async throws -> KeychainResult {
        try #require(try await services.respond(to: request(method, params: params, groups: groups)) as? KeychainResult)
    }

    @Test("add writes the team's keychain file; copyMatching reads it back across devices sharing the state directory")
    func addAndRead() async throws {
        let state = StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-keychain"))
        let services = DeviceServices(device: SimulatedDevice(state: state))
        let added = try await Self.answer(services, WireMethod.keychainAdd,
                                          #"{"attributes":{"account":"jane","service":"bank"},"data":"czNjcmV0","itemClass":"genp","returning":{"attributes":false,"data":false}}"#)
        #expect(added == .success())
        #expect(FileManager.default.fileExists(atPath: try state.keychainURL(team: "com.example.bank").path))

        let again = DeviceServices(device: SimulatedDevice(state: state))
        let found = try await Self.answer(again, WireMethod.keychainCopyMatching,
                                          #"{"itemClass":"genp","limit":"one","query":{"account":"jane"},"returning":{"attributes":false,"data":true}}"#,
                                          groups: ["com.example.bank.shared", "com.example.bank"])
        #expect(found == .success([KeychainItemValue(data: Data("s3cret".utf8))]))

        let stranger = try await Self.answer(again, WireMethod.keychainCopyMatching,
                                             #"{"itemClass":"genp","limit":"one","query":{"account":"jane"},"returning":{"attributes":false,"data":true}}"#,
                                             groups: ["com.example.otherbank"])
        #expect(stranger.status == KeychainStatus.itemNotFound)
    }

    @Test("params of the wrong shape are -32602 naming the key")
    func badParams() async throws {
        let services = DeviceServices(device: SimulatedDevice(state: StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-keychain"))))
        await #expect {
            _ = try await services.respond(to: Self.request(WireMethod.keychainDelete, params: #"{"query":{}}"#))
        } throws: { error in
            let error = error as? RPCErrorObject
            return error?.code == RPCErrorCode.invalidParams && error?.message.contains("itemClass") == true
        }
    }

    @Test("a keychain.json that cannot be read is an error naming it, and is never written over")
    func corruptKeychainFile() async throws {
        let state = StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-keychain"))
        try FileManager.default.createDirectory(at: state.url, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: state.keychainURL)
        let services = DeviceServices(device: SimulatedDevice(state: state))
        await #expect {
            _ = try await services.respond(to: Self.request(WireMethod.keychainAdd,
                                                            params: #"{"attributes":{},"itemClass":"genp","returning":{"attributes":false,"data":false}}"#))
        } throws: { error in
            "\(error)" == "cannot read the keychain \(state.keychainURL.path): it is not valid JSON"
        }
        #expect(try Data(contentsOf: state.keychainURL) == Data("{not json".utf8))
        #expect(throws: StateError.self) { try SimulatedDevice(state: state).checkStateReadable() }
    }
}

/// Reads of a team's keychain file come from memory only while the file is the same one.
@Suite("Keychain file reads")
struct KeychainFileReadTests {
    static func item(_ account: String) -> KeychainItemRecord {
        KeychainItemRecord(team: "com.example.bank", accessGroup: "group.bank", service: "bank", account: account, data: Data(account.utf8))
    }

    @Test("a change made by another writer, through the host or by hand, is seen on the next read")
    func changesAreSeen() throws {
        let state = StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-keychain"))
        let device = SimulatedDevice(state: state)
        let access = KeychainAccess(team: "com.example.bank", groups: ["group.bank"])
        #expect(try device.keychainItems().isEmpty)
        _ = try SimulatedDevice(state: StateDirectory(url: state.url)).changeKeychain(for: access) {
            $0.add(KeychainAddParams(itemClass: "genp", attributes: KeychainAttributes(account: "a"), data: nil), access: access)
        }
        #expect(try device.keychainItems().map(\.account) == ["a"])
        #expect(try device.keychainItems().map(\.account) == ["a"], "a second read of the same file")

        // Written over in place by something that is not the host (no rename, same inode).
        let file = try state.keychainURL(team: "com.example.bank")
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode([Self.item("b")]).write(to: file)
        #expect(try device.keychainItems().map(\.account) == ["b"])

        try FileManager.default.removeItem(at: file)
        #expect(try device.keychainItems().isEmpty)
        try Data("[".utf8).write(to: file)
        #expect(throws: StateError.self) { try device.keychainItems() }
    }
}
