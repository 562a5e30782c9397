import Foundation
import Testing
import Wallet
import WalletBundleInspection
import WalletTestSupport
import WalletWire

/// A bundle's team, which owns its App Groups and keychain items (issue 16, part 3), and what
/// `validate` says about a bundle that reaches for another team's groups.
@Suite("Teams")
struct TeamEntitlementTests {
    static let teamKey = "com.apple.developer.team-identifier"

    @Test("the team is the team-identifier, else the application-identifier's prefix, else the unsigned team")
    func teamDerivation() {
        let both = BundleEntitlements(url: nil, values: [
            Self.teamKey: .string("TEAMONE123"), "application-identifier": .string("OTHER98765.com.example.issuer"),
        ])
        #expect(both.team(unsignedTeam: "com.example.issuer") == "TEAMONE123")
        let signed = BundleEntitlements(url: nil, values: ["application-identifier": .string("ABCDE12345.com.example.issuer")])
        #expect(signed.team(unsignedTeam: "com.example.issuer") == "ABCDE12345")
        #expect(BundleEntitlements.none.team(unsignedTeam: "com.example.issuer") == "com.example.issuer")
        let empty = BundleEntitlements(url: nil, values: [Self.teamKey: .string(""), "application-identifier": .string("noprefix")])
        #expect(empty.team(unsignedTeam: "com.example.issuer") == "com.example.issuer")
    }

    @Test("an unsigned app and its extensions are of the app's team: its bundle identifier")
    func unsignedBundlesShareTheAppsTeam() throws {
        let (app, findings) = try loadFixture(AppFixture())
        expectNoErrors(findings)
        let loaded = try #require(app)
        #expect(loaded.team == "com.example.issuer")
        #expect(loaded.extensions.map(\.team) == ["com.example.issuer", "com.example.issuer"])
    }

    @Test("a keychain-access-groups value without the team prefix is an error, and the host leaves it out")
    func keychainGroupWithoutTeamPrefix() throws {
        let (app, findings) = try loadFixture(withFirstExtension {
            var appExtension = $0
            appExtension.entitlements?["keychain-access-groups"] = ["com.example.issuer.shared", "ABCDE12345.com.example.sampleissuer.shared"]
            return appExtension
        })
        #expect(app == nil)
        expectFinding(findings, .error, key: "keychain-access-groups[1]", pathSuffix: "WNonUIExt.entitlements",
                      mentioning: "\"ABCDE12345.com.example.sampleissuer.shared\"", "team prefix \"com.example.issuer.\"", "unsigned")
        #expect(!findings.contains { $0.key == "keychain-access-groups[0]" }, "the unsigned team's own prefix is fine")

        let entitlements = BundleEntitlements(url: nil, values: [
            "keychain-access-groups": .array([.string("ABCDE12345.com.example.sampleissuer.shared"), .string("com.example.issuer.shared")]),
        ])
        #expect(entitlements.keychainAccessGroups(bundleIdentifier: "com.example.issuer.WNonUIExt", team: "com.example.issuer")
                == ["com.example.issuer.shared", "com.example.issuer.WNonUIExt"])
    }

    @Test("an extension of another team than its app is an error naming both teams")
    func extensionOfAnotherTeam() throws {
        let (app, findings) = try loadFixture(withFirstExtension {
            var appExtension = $0
            appExtension.entitlements?[Self.teamKey] = "EVILTEAM99"
            return appExtension
        })
        #expect(app == nil)
        expectFinding(findings, .error, key: Self.teamKey, pathSuffix: "WNonUIExt.entitlements",
                      mentioning: "\"EVILTEAM99\"", "\"com.example.issuer\"")
    }

    @Test("validate reports an App Group named by two apps of different teams, not by two of one team")
    func appGroupClash() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try AppFixture.named("Bank").write(in: directory.url)
        var hostile = AppFixture.named("Hostile")
        hostile.entitlements?[Self.teamKey] = "EVILTEAM99"
        for index in hostile.extensions.indices { hostile.extensions[index].entitlements?[Self.teamKey] = "EVILTEAM99" }
        try hostile.write(in: directory.url)

        let report = BundleLoader.wallet.validate(paths: [directory.url])
        #expect(report.hasErrors)
        let clashes = report.findings.filter { $0.key == ValidationFinding.Key.applicationGroups && $0.severity == .error }
        #expect(clashes.count == 3, "the hostile app and its two extensions: \(clashes.map(\.description))")
        expectFinding(report.findings, .error, key: ValidationFinding.Key.applicationGroups, pathSuffix: "Hostile.app/Hostile.entitlements",
                      mentioning: "\"group.com.example.issuer\"", "Bank.app", "\"com.example.bank\"", "\"EVILTEAM99\"")

        // Given one by one, the validator still sees both apps.
        let separately = BundleLoader.wallet.validate(paths: [directory.url.appendingPathComponent("Bank.app"),
                                                         directory.url.appendingPathComponent("Hostile.app")])
        #expect(separately.findings.filter { $0.key == ValidationFinding.Key.applicationGroups }.count == 3)

        let sameTeam = try TemporaryDirectory()
        defer { sameTeam.remove() }
        var bank = AppFixture.named("Bank")
        var sibling = AppFixture.named("Sibling")
        for index in bank.extensions.indices { bank.extensions[index].entitlements?[Self.teamKey] = "BANKTEAM01" }
        for index in sibling.extensions.indices { sibling.extensions[index].entitlements?[Self.teamKey] = "BANKTEAM01" }
        bank.entitlements?[Self.teamKey] = "BANKTEAM01"
        sibling.entitlements?[Self.teamKey] = "BANKTEAM01"
        try bank.write(in: sameTeam.url)
        try sibling.write(in: sameTeam.url)
        #expect(!BundleLoader.wallet.validate(paths: [sameTeam.url]).findings.contains { $0.key == ValidationFinding.Key.applicationGroups })
    }

    @Test("only a Team ID declares a team: an unsigned app's team (its bundle identifier) cannot be claimed by an entitlement")
    func unsignedTeamCannotBeClaimed() {
        let claiming = BundleEntitlements(url: nil, values: [Self.teamKey: .string("com.example.bank"),
                                                             "application-identifier": .string("com.example.bank.Evil")])
        #expect(claiming.team(unsignedTeam: "com.example.evil") == "com.example.evil")
        #expect(BundleEntitlements.isTeamIdentifier("ABCDE12345"))
        #expect(!BundleEntitlements.isTeamIdentifier("abcde12345"))
        #expect(!BundleEntitlements.isTeamIdentifier("com.example.bank"))
        #expect(!BundleEntitlements.isTeamIdentifier("ABCDE1234"))
    }
}
