import Foundation
import Testing
import Wallet
import WalletBundleInspection
import WalletHostRuntime
import WalletHostTestSupport
import WalletTestSupport
import WalletWire

/// The add-card flow's failure paths, with the misbehaving test helper as the issuer: each ends
/// with a clear reason, and nothing already in the pass library is lost.
@Suite("Add-card flow failure paths", .serialized, .timeLimit(.minutes(3)))
struct FlowFailureTests {
    /// The test helper in `mode` as the issuer, with a card from another issuer on the device
    /// that must survive whatever happens.
    static func fixture(mode: String) throws -> AddCardFixture {
        let appex = try ExampleBundles.testHelper(mode: mode)
        let fixture = try AddCardFixture(appAt: appex.deletingLastPathComponent().deletingLastPathComponent())
        try fixture.device.addPass(PassRecord(primaryAccountIdentifier: "OTHER-BANK-1", primaryAccountNumberSuffix: "9999",
                                              device: .iphone, issuer: "com.example.other"))
        return fixture
    }

    @Test("the test helper adds its card when it behaves")
    func normalHelperAddsItsCard() async throws {
        let fixture = try Self.fixture(mode: "normal")
        let report = await fixture.run()
        #expect(report.succeeded, "\(report.failure ?? "")")
        #expect(try fixture.device.passes().contains { $0.primaryAccountIdentifier == "HELPER-0001" && $0.device == .iphone })
    }

    @Test("a status over 100 ms keeps the issuer off Wallet's list, saying so")
    func slowStatus() async throws {
        let fixture = try Self.fixture(mode: "slow-status 250")
        let report = await fixture.run { $0.deadlineOverrides[WireMethod.status] = nil }
        #expect(!report.succeeded)
        let issuer = try #require(report.discovery.first)
        #expect(!issuer.listed)
        #expect(issuer.reason?.contains("status too slow") == true)
        #expect(issuer.reason?.contains("100 ms") == true)
        #expect(fixture.otherBankPassSurvived)
    }

    @Test("pass entries over their deadline halt the attempt")
    func slowEntries() async throws {
        let fixture = try Self.fixture(mode: "slow-entries 800")
        let report = await fixture.run { $0.deadlineOverrides[WireMethod.passEntries] = .milliseconds(300) }
        #expect(!report.succeeded)
        #expect(report.failure?.contains("passEntries") == true)
        #expect(report.failure?.contains("Wallet would halt the add-card attempt") == true)
        #expect(fixture.otherBankPassSurvived)
    }

    @Test("a request completed with nil is named and the card is not added")
    func nilRequest() async throws {
        let fixture = try Self.fixture(mode: "nil-request")
        let report = await fixture.run()
        #expect(!report.succeeded)
        let card = try #require(report.cards.first)
        #expect(!card.added)
        #expect(card.error?.contains("nil") == true)
        #expect(try !fixture.device.passes().contains { $0.primaryAccountIdentifier == "HELPER-0001" })
        #expect(fixture.otherBankPassSurvived)
    }

    @Test("an invalid request names the missing field")
    func badRequest() async throws {
        let fixture = try Self.fixture(mode: "bad-request")
        let report = await fixture.run()
        let card = try #require(report.cards.first)
        #expect(!card.added)
        #expect(card.error?.contains("ephemeralPublicKey") == true)
        #expect(fixture.otherBankPassSurvived)
    }

    @Test("an extension killed for memory in the middle of the flow is reported; earlier passes stay")
    func memoryKillMidFlow() async throws {
        let fixture = try Self.fixture(mode: "allocate-on-request-mb 80")
        let report = await fixture.run()
        #expect(!report.succeeded)
        let card = try #require(report.cards.first)
        #expect(card.error?.contains("exceeded mem limit: ActiveHard 55 MB (fatal)") == true)
        #expect(fixture.otherBankPassSurvived)
    }

    @Test("an entry already in the pass library is reported as the extension's mistake")
    func unfilteredEntry() async throws {
        let fixture = try Self.fixture(mode: "normal")
        #expect(await fixture.run().succeeded)
        // The helper does not filter: it offers the same card again.
        let again = await fixture.run()
        #expect(!again.succeeded)
        #expect(again.findings.contains { $0.contains("HELPER-0001") || $0.contains("helper-card-0001") })
        #expect(try fixture.device.passes().filter { $0.primaryAccountIdentifier == "HELPER-0001" }.count == 1)
    }
}

extension AddCardFixture {
    /// Whether the other issuer's card that `FlowFailureTests.fixture(mode:)` added is still on the device.
    var otherBankPassSurvived: Bool {
        ((try? device.passes()) ?? []).contains { $0.primaryAccountIdentifier == "OTHER-BANK-1" }
    }
}
