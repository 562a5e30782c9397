import Foundation
import Testing
import Wallet
import WalletBundleInspection
import WalletHostTestSupport
import WalletTestSupport
import WalletWire

/// The Python issuer (standard library only, no SDK) run by the host like any other
/// extension: `wallet-host call` on its non-UI extension, and the whole add-card flow with
/// scripted users.
@Suite("Python issuer", .serialized, .enabled(if: Python3.isAvailable, "python3 is not on PATH"), .timeLimit(.minutes(3)))
struct PythonIssuerTests {
    static let login = #"{"action": "Log In", "values": {"username": "pyuser", "password": "py-wallet"}}"#
    static let wrongLogin = #"{"action": "Log In", "values": {"username": "pyuser", "password": "wrong"}}"#
    static let accounts = ["PY-ACCT-MC-3388", "PY-ACCT-VISA-7421"]
    static let bundleIdentifier = "com.example.pythonissuer"

    // MARK: wallet-host call

    static func freshState() -> URL {
        TemporaryDirectory.uniqueURL(prefix: "wallet-host-python")
    }

    @Test("wallet-host call status on PyNonUIExt: exit 0, the result and the launch time in --json")
    func callStatus() throws {
        let state = Self.freshState()
        let open = try WalletHostCommand.run(["app", "open", ExampleBundles.pythonIssuerApp.path, "--state", state.path])
        #expect(open.status == 0, "\(open.standardError)")
        #expect(open.standardOutput.contains("PY-ACCT-VISA-7421"))

        let run = try WalletHostCommand.run(["call", ExampleBundles.pyNonUIExt.path, "status", "--state", state.path, "--json",
                                 "--deadline", "status=5s"])
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        let output = try run.json()
        let result = try #require(output["result"] as? [String: Any], "\(run.standardOutput)")
        #expect(result["passEntriesAvailable"] as? Bool == true)
        #expect(result["remotePassEntriesAvailable"] as? Bool == true)
        #expect(result["requiresAuthentication"] as? Bool == true)
        let launch = try #require(output["launchMs"] as? Double, "no launchMs in \(run.standardOutput)")
        #expect(launch > 0 && launch < 5000)
        #expect(output["launchedProcess"] as? Bool == true)
        #expect(output["error"] == nil)
        #expect(output["pid"] is Int)
    }

    @Test("before the app was opened, status offers nothing (no cards.json in the App Group)")
    func callStatusBeforeLogin() throws {
        let run = try WalletHostCommand.run(["call", ExampleBundles.pyNonUIExt.path, "status", "--state", Self.freshState().path,
                                 "--json", "--deadline", "status=5s"])
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        let result = try #require(try run.json()["result"] as? [String: Any])
        #expect(result["passEntriesAvailable"] as? Bool == false)
        #expect(result["remotePassEntriesAvailable"] as? Bool == false)
        #expect(result["requiresAuthentication"] as? Bool == false)
    }

    @Test("wallet-host call reports a method PyNonUIExt does not list as not implemented")
    func callUnknownMethod() throws {
        let run = try WalletHostCommand.run(["call", ExampleBundles.pyNonUIExt.path, "authorize", "--state", Self.freshState().path,
                                 "--json", "--deadline", "status=5s"])
        #expect(run.status == 1)
        let error = try #require(try run.json()["error"] as? [String: Any], "\(run.standardOutput)")
        #expect((error["message"] as? String)?.contains("authorize") == true, "\(error)")
    }

    // MARK: The add-card flow

    /// A fresh device with the Python issuer installed and, unless told otherwise, opened once.
    static func fixture(openApp: Bool = true) throws -> AddCardFixture {
        try AddCardFixture(appAt: ExampleBundles.pythonIssuerApp, statePrefix: "wallet-host-python", openApp: openApp)
    }

    @Test("the right password adds both cards to the iPhone; status then offers only the watch")
    func approveOnIPhone() async throws {
        let fixture = try Self.fixture()
        let (report, agent) = try await fixture.run(#"{"answers": [\#(Self.login)]}"#)
        #expect(report.succeeded, "\(report.failure ?? "") \(report.findings)")
        #expect(report.authorization == "authorized")
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.cards.map(\.identifier).sorted() == Self.accounts)
        #expect(agent.unusedAnswers == 0 && !agent.ranOut)
        let passes = try fixture.passes(on: .iphone)
        #expect(passes.map(\.primaryAccountIdentifier).sorted() == Self.accounts)
        #expect(passes.allSatisfy { $0.issuer == Self.bundleIdentifier })
        #expect(try fixture.passes(on: .watch).isEmpty)

        let issuer = try #require(await fixture.status(.iphone))
        #expect(issuer.listed == false)
        #expect(issuer.status?.passEntriesAvailable == false)
        #expect(issuer.status?.remotePassEntriesAvailable == true)
        #expect(issuer.reason?.contains("passEntriesAvailable false") == true)
    }

    @Test("after the iPhone, the watch gets its own passes and then nothing is left to add")
    func watchAfterIPhone() async throws {
        let fixture = try Self.fixture()
        let (iPhone, _) = try await fixture.run(#"{"answers": [\#(Self.login)]}"#)
        #expect(iPhone.succeeded, "\(iPhone.failure ?? "")")
        let (watch, _) = try await fixture.run(#"{"answers": [\#(Self.login)]}"#, device: .watch)
        #expect(watch.succeeded, "\(watch.failure ?? "") \(watch.findings)")
        #expect(watch.findings.isEmpty, "\(watch.findings)")
        #expect(try fixture.passes(on: .watch).map(\.primaryAccountIdentifier).sorted() == Self.accounts)
        #expect(try fixture.passes(on: .iphone).count == 2)

        let onWatch = try #require(await fixture.status(.watch))
        #expect(onWatch.listed == false)
        #expect(onWatch.reason?.contains("remotePassEntriesAvailable false") == true)
        #expect(onWatch.status?.passEntriesAvailable == false)
    }

    @Test("a wrong password, then the right one, authorizes")
    func wrongThenRightPassword() async throws {
        let fixture = try Self.fixture()
        let (report, agent) = try await fixture.run(#"{"answers": [\#(Self.wrongLogin), \#(Self.login)]}"#)
        #expect(report.succeeded, "\(report.failure ?? "")")
        #expect(report.authorization == "authorized")
        #expect(agent.unusedAnswers == 0 && !agent.ranOut)
        #expect(agent.transcript.count == 2, "\(agent.transcript)")
        #expect(try fixture.passes(on: .iphone).count == 2)
    }

    @Test("three wrong passwords cancel; the fourth answer is never asked for")
    func threeWrongPasswords() async throws {
        let fixture = try Self.fixture()
        let (report, agent) = try await fixture.run(
            #"{"answers": [\#(Self.wrongLogin), \#(Self.wrongLogin), \#(Self.wrongLogin), \#(Self.login)]}"#)
        #expect(!report.succeeded)
        #expect(report.authorization == "canceled")
        #expect(agent.unusedAnswers == 1)
        #expect(try fixture.device.passes().isEmpty)
    }

    @Test("a denying user ends the flow and nothing is added")
    func denyingUser() async throws {
        let fixture = try Self.fixture()
        let (report, _) = try await fixture.run(#"{"answers": [{"action": "Cancel"}]}"#)
        #expect(!report.succeeded)
        #expect(report.authorization == "canceled")
        #expect(try fixture.device.passes().isEmpty)
        // Nothing was added, so the iPhone is still offered.
        #expect(await fixture.status(.iphone)?.listed == true)
    }

    @Test("a matching Face ID authorizes without the password")
    func faceID() async throws {
        let fixture = try Self.fixture()
        let (report, agent) = try await fixture.run(#"{"answers": [{"action": "Use Face ID"}], "biometric": ["match"]}"#)
        #expect(report.succeeded, "\(report.failure ?? "")")
        #expect(agent.unusedBiometricResults == 0)
    }

    @Test("an app never opened is not listed, with the reason")
    func neverOpened() async throws {
        let fixture = try Self.fixture(openApp: false)
        let (report, _) = try await fixture.run(#"{"answers": [\#(Self.login)]}"#)
        #expect(!report.succeeded)
        #expect(report.discovery.first?.listed == false)
        #expect(report.discovery.first?.reason?.contains("never opened") == true)
    }
}
