import Foundation
import Testing
import Wallet
import WalletTestSupport
import WalletWire

/// Issue 16, part 3, with the real sample issuer and a hostile copy of the test helper of
/// another team that names the sample's App Group: it gets no container (its launch fails,
/// naming the group and both teams), `validate` reports the clash, and the keychain items the
/// sample keeps in that group stay out of its reach.
@Suite("App Groups and keychain items per team", .serialized, .timeLimit(.minutes(2)))
struct AppGroupTeamTests {
    static let sampleGroup = "group.com.example.sampleissuer"
    static let hostileTeam = "com.example.evil"

    /// A copy of the test helper app of team `com.example.evil` (unsigned: its bundle identifier)
    /// whose app and extension name the sample's App Group.
    /// - Returns: The copy's extension bundle.
    static func hostileHelper(mode: String) throws -> URL {
        let appex = try KeychainSharingTests.helper(mode: mode, appIdentifier: hostileTeam,
                                                    extensionIdentifier: hostileTeam + ".TestHelperExt", keychainGroups: [])
        let app = appex.deletingLastPathComponent().deletingLastPathComponent()
        for entitlements in [app.appendingPathComponent("TestHelper.entitlements"), appex.appendingPathComponent("TestHelperExt.entitlements")] {
            try KeychainSharingTests.rewrite(entitlements) { $0["com.apple.security.application-groups"] = [sampleGroup] }
        }
        return appex
    }

    @Test("after the sample app ran, a bundle of another team naming its App Group is not launched, and the error names the group and both teams")
    func hostileLaunchFails() throws {
        let stateURL = TemporaryDirectory.uniqueURL(prefix: "wallet-host-teams")
        let device = SimulatedDevice(state: StateDirectory(url: stateURL))
        let sample = try #require(InstalledApps(directory: ExampleBundles.directory).app(named: "SampleIssuer"))
        let opened = try AppLauncher(device: device).open(sample)
        let container = try #require(opened.appGroups[Self.sampleGroup])
        let before = try FileManager.default.subpathsOfDirectory(atPath: container).sorted()
        #expect(!before.isEmpty, "the sample app wrote its cards into the App Group")

        let hostile = try Self.hostileHelper(mode: "normal")
        let call = try WalletHostCommand.run(["call", hostile.path, "status", "--json", "--no-daemon", "--state", stateURL.path])
        #expect(call.status != 0)
        #expect(call.standardError.contains("the App Group \"\(Self.sampleGroup)\" belongs to team \"com.example.sampleissuer\""),
                "\(call.standardError)")
        #expect(call.standardError.contains("a bundle of team \"\(Self.hostileTeam)\" gets no container"), "\(call.standardError)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: container).sorted() == before)
        #expect(try device.state.appGroupOwners() == [Self.sampleGroup: "com.example.sampleissuer"])

        let validate = try WalletHostCommand.run(["validate", sample.url.path,
                                                  hostile.deletingLastPathComponent().deletingLastPathComponent().path])
        #expect(validate.status == 1)
        #expect(validate.standardOutput.contains("\"\(Self.sampleGroup)\" is also an App Group of SampleIssuer.app, of team \"com.example.sampleissuer\", "
                                                 + "but this bundle's team is \"\(Self.hostileTeam)\""), "\(validate.standardOutput)")
    }

    @Test("a bundle of another team naming the sample's App Group as its keychain group reads none of the sample's items")
    func hostileReadsNoKeychainItem() async throws {
        let device = SimulatedDevice(state: StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-teams")))
        let sample = try #require(InstalledApps(directory: ExampleBundles.directory).app(named: "SampleIssuer"))
        #expect(sample.keychainAccessGroups.contains(Self.sampleGroup))
        // The sample's app saves a token in its App Group's keychain group, as the sample's extensions would find it.
        let access = try device.keychainAccess(team: sample.team, groups: sample.keychainAccessGroups)
        let saved = try device.changeKeychain(for: access) {
            $0.add(KeychainAddParams(itemClass: KeychainStatus.genericPasswordClass,
                                     attributes: KeychainAttributes(service: "com.example.testhelper.token", account: "helper",
                                                                    accessGroup: Self.sampleGroup),
                                     data: Data("sample-token".utf8)), access: access)
        }
        #expect(saved.status == KeychainStatus.success)

        // Its containers are left out: this is the keychain's own rule, whatever happens to the App Group.
        let hostile = try Self.hostileHelper(mode: "keychain-read")
        let read = try await KeychainSharingTests.cardDetails(hostile, device: device)
        #expect(read["keychainStatus"] == "-25300", "errSecItemNotFound: \(read)")
        #expect(read["keychainToken"] == nil)
    }
}
