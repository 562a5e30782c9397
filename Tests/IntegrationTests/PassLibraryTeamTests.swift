import Foundation
import Testing
import Wallet
import WalletBundleInspection
import WalletHostRuntime
import WalletTestSupport
import WalletWire

/// Issue 31, break 13: `passLibrary.passes` answered by bundle identifier alone, so an extension
/// of another team that declared the victim's app bundle identifier (as its containing app, or
/// as a lone `.appex` named `com.victim.bank.X`) was given the victim's secure-element passes.
/// Passes now belong to a team, as App Groups and keychain items do.
///
/// The victim is the test helper app (unsigned: team `com.example.testhelper`); in its
/// `pass-library` mode the helper's passEntries report the passes PKPassLibrary gave it.
@Suite("Pass library per team", .serialized, .timeLimit(.minutes(2)))
struct PassLibraryTeamTests {
    static let victimAccounts = ["HELPER-ACCT-1111", "HELPER-ACCT-2222"]
    static let hostileTeam = "EVILTEAM12"

    /// The victim's cards on the iPhone and the watch, as add-card records them (with the team)
    /// or as an older host did (without).
    private static func victimDevice(recordingTeam: Bool) throws -> SimulatedDevice {
        let device = SimulatedDevice(state: StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-pass-teams")))
        for (account, kind) in zip(victimAccounts, [DeviceKind.iphone, .watch]) {
            try device.addPass(PassRecord(primaryAccountIdentifier: account, primaryAccountNumberSuffix: String(account.suffix(4)),
                                          device: kind, issuer: "com.example.testhelper",
                                          team: recordingTeam ? "com.example.testhelper" : nil))
        }
        return device
    }

    /// The passes the helper at `appex` was given.
    private static func passes(_ appex: URL, device: SimulatedDevice) async throws -> String? {
        try await KeychainSharingTests.cardDetails(appex, device: device)["passes"]
    }

    @Test("the victim's own extension is given its passes", arguments: [true, false])
    func victimSeesItsOwn(recordingTeam: Bool) async throws {
        let device = try Self.victimDevice(recordingTeam: recordingTeam)
        let appex = try KeychainSharingTests.helper(mode: "pass-library", keychainGroups: [])
        #expect(try await Self.passes(appex, device: device) == Self.victimAccounts.joined(separator: ","))
    }

    @Test("another team's extension declaring the victim's app as its containing app is given none of its passes", arguments: [true, false])
    func otherTeamInVictimsApp(recordingTeam: Bool) async throws {
        let device = try Self.victimDevice(recordingTeam: recordingTeam)
        let appex = try KeychainSharingTests.helper(mode: "pass-library", team: Self.hostileTeam, keychainGroups: [])
        #expect(try await Self.passes(appex, device: device) == "", "the hostile extension was given the victim's passes")
    }

    @Test("another team's lone .appex named com.example.testhelper.TestHelperExt is given none of the victim's passes")
    func otherTeamLoneExtension() async throws {
        let device = try Self.victimDevice(recordingTeam: true)
        let appex = try KeychainSharingTests.helper(mode: "pass-library", team: Self.hostileTeam, keychainGroups: [])
        let lone = appex.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("TestHelperExt.appex")
        try FileManager.default.moveItem(at: appex, to: lone)
        #expect(try await Self.passes(lone, device: device) == "", "the hostile extension was given the victim's passes")
    }

    @Test("passes add --team records the team: that team's extension is given the pass, the issuer's other team's is not")
    func passesAddTeam() async throws {
        let stateURL = TemporaryDirectory.uniqueURL(prefix: "wallet-host-pass-teams")
        let add = try WalletHostCommand.run(["passes", "add", "SIGNED-ACCT-3333", "--issuer", "com.example.testhelper", "--team", Self.hostileTeam,
                                             "--state", stateURL.path, "--no-daemon", "--json"])
        #expect(add.status == 0, "\(add.standardError)")
        #expect(try add.json()["team"] as? String == Self.hostileTeam)
        let device = SimulatedDevice(state: StateDirectory(url: stateURL))
        let signed = try KeychainSharingTests.helper(mode: "pass-library", team: Self.hostileTeam, keychainGroups: [])
        #expect(try await Self.passes(signed, device: device) == "SIGNED-ACCT-3333")
        let unsigned = try KeychainSharingTests.helper(mode: "pass-library", keychainGroups: [])
        #expect(try await Self.passes(unsigned, device: device) == "")
    }
}
