import Foundation
import Testing
import Wallet
import WalletBundleInspection
import WalletHostRuntime
import WalletHostTestSupport
import WalletTestSupport
import WalletWire

/// The add-card flow with the sample issuer's real extensions and scripted users.
@Suite("Add-card flow with the sample issuer", .serialized, .timeLimit(.minutes(3)))
struct SampleIssuerFlowTests {
    static let login = #"{"action": "Log In", "values": {"username": "jappleseed", "password": "wallet-demo"}}"#
    static let wrongLogin = #"{"action": "Log In", "values": {"username": "jappleseed", "password": "nope"}}"#

    /// A fresh device with the sample issuer installed and, unless told otherwise, opened once.
    static func fixture(openApp: Bool = true) throws -> AddCardFixture {
        try AddCardFixture(app: try #require(InstalledApps(directory: ExampleBundles.directory).app(named: "SampleIssuer")), openApp: openApp)
    }

    @Test("an approving user adds every card to the iPhone; status then offers only the watch")
    func approveOnIPhone() async throws {
        let fixture = try Self.fixture()
        let (report, _) = try await fixture.run(#"{"answers": [\#(Self.login)]}"#)
        #expect(report.succeeded, "\(report.failure ?? "")")
        #expect(report.authorization == "authorized")
        #expect(report.cards.count == 3)
        let passes = try fixture.device.passes()
        #expect(passes.count == 3 && passes.allSatisfy { $0.device == .iphone && $0.issuer == fixture.app.bundleIdentifier })

        let flow = fixture.flow()
        let status = try #require(await flow.discover(.iphone).first?.status)
        #expect(status.passEntriesAvailable == false)
        #expect(status.remotePassEntriesAvailable == true)
    }

    @Test("the sample's ECC_V2 cards decrypt with the nonce matching; RSA_V2 is shape only; the report never holds a card number")
    func payloadsDecrypt() async throws {
        let fixture = try Self.fixture()
        let (report, _) = try await fixture.run(#"{"answers": [\#(Self.login)]}"#)
        #expect(report.succeeded, "\(report.failure ?? "") \(report.findings)")
        let byCard = Dictionary(uniqueKeysWithValues: report.cards.map { ($0.identifier, $0.verification) })
        let visa = try #require(byCard["FPANID-SAMPLE-VISA-4242"] ?? nil)
        #expect(visa.status == .verified && visa.decrypted, "\(visa.problems)")
        #expect(visa.payload?.primaryAccountNumber == "•••• 4242")
        #expect(visa.payload?.nonceMatches == true && visa.payload?.nonceSignatureMatches == true)
        #expect((byCard["FPANID-SAMPLE-AMEX-1005"] ?? nil)?.status == .shapeOnly)
        let encoded = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        for number in ["4242424242424242", "5454545454545454"] { #expect(!encoded.contains(number)) }
        // The PKI the chain came from is the device's, kept in its state directory.
        #expect(FileManager.default.fileExists(atPath: fixture.device.state.provisioningURL.path))
    }

    @Test("after the iPhone, the watch gets its own passes and then nothing is left to add")
    func watchAfterIPhone() async throws {
        let fixture = try Self.fixture()
        _ = try await fixture.run(#"{"answers": [\#(Self.login)]}"#)
        let (watch, _) = try await fixture.run(#"{"answers": [\#(Self.login)]}"#, device: .watch)
        #expect(watch.succeeded, "\(watch.failure ?? "")")
        #expect(try fixture.device.passes().filter { $0.device == .watch }.count == 3)

        let again = fixture.flow()
        let listed = await again.discover(.watch)
        #expect(listed.first?.listed == false)
        #expect(listed.first?.reason?.contains("remotePassEntriesAvailable false") == true)
    }

    @Test("an unpaired watch is not offered")
    func unpairedWatch() async throws {
        let fixture = try Self.fixture()
        try fixture.device.updateSettings { $0.watchPaired = false }
        let (report, _) = try await fixture.run(#"{"answers": [\#(Self.login)]}"#, device: .watch)
        #expect(!report.succeeded)
        #expect(report.discovery.first?.reason == "no Apple Watch is paired")
    }

    @Test("a denying user ends the flow and nothing is added")
    func denyingUser() async throws {
        let fixture = try Self.fixture()
        let (report, _) = try await fixture.run(#"{"answers": [{"action": "Cancel"}]}"#)
        #expect(!report.succeeded)
        #expect(report.authorization == "canceled")
        #expect(try fixture.device.passes().isEmpty)
    }

    @Test("a wrong password, then the right one, authorizes")
    func wrongThenRightPassword() async throws {
        let fixture = try Self.fixture()
        let (report, agent) = try await fixture.run(#"{"answers": [\#(Self.wrongLogin), \#(Self.login)]}"#)
        #expect(report.succeeded, "\(report.failure ?? "")")
        #expect(agent.unusedAnswers == 0)
    }

    @Test("a failed Face ID falls back to the password; a matching one authorizes alone")
    func biometrics() async throws {
        let fixture = try Self.fixture()
        let (fallback, agent) = try await fixture.run(
            #"{"answers": [{"action": "Use Face ID"}, \#(Self.login)], "biometric": ["nomatch"]}"#)
        #expect(fallback.succeeded, "\(fallback.failure ?? "")")
        #expect(agent.unusedBiometricResults == 0)

        let second = try Self.fixture()
        let (matched, _) = try await second.run(#"{"answers": [{"action": "Use Face ID"}], "biometric": ["match"]}"#)
        #expect(matched.succeeded, "\(matched.failure ?? "")")
    }

    @Test("an app never opened is not listed, with the reason")
    func neverOpened() async throws {
        let fixture = try Self.fixture(openApp: false)
        let (report, _) = try await fixture.run(#"{"answers": [\#(Self.login)]}"#)
        #expect(!report.succeeded)
        #expect(report.discovery.first?.listed == false)
        #expect(report.discovery.first?.reason?.contains("never opened") == true)
    }

    @Test("selecting one entry adds only that card")
    func selectOne() async throws {
        let fixture = try Self.fixture()
        let (report, _) = try await fixture.run(#"{"answers": [\#(Self.login)], "select": ["FPANID-SAMPLE-MC-5454"]}"#)
        #expect(report.succeeded)
        #expect(try fixture.device.passes().map(\.primaryAccountIdentifier) == ["FPANID-SAMPLE-MC-5454"])
    }
}
