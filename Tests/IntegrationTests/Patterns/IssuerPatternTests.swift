import Foundation
import Testing
import Wallet
import WalletHostRuntime
import WalletHostTestSupport
import WalletTestSupport
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// Issuer code as it is written for iOS, run through add-card with a scripted user: a non-UI
/// extension that calls its backend with URLSession from a Foundation-only file and draws its
/// card art, and UI extensions whose screen is the form, in UIKit and in SwiftUI.
@Suite("Issuer patterns: networking, UIKit and SwiftUI screens", .serialized, .timeLimit(.minutes(3)),
       .enabled(if: Python3.isAvailable, "the stand-in backend is a Python script; no python3 on PATH"))
struct IssuerPatternTests {
    /// Runs add-card on a fresh device with `uiExecutable`'s app, answered by `answers`.
    private func addCard(uiExecutable: String, answers: String)
        async throws -> (report: FlowReport, screens: [UIPromptParams], served: [String], agent: ScriptedUserAgent) {
        let backend = try StandInBackend()
        let directory = try TemporaryDirectory(prefix: "wallet-host-patterns")
        defer { directory.remove() }
        let app = try PatternIssuerApp.assemble(in: directory.url, name: "Pattern", bundleIdentifier: "com.example.pattern",
                                                uiExecutable: uiExecutable, backend: backend.baseURL)
        let fixture = try AddCardFixture(appAt: app)
        let agent = try ScriptedUserAgent(data: Data(#"{"answers": [\#(answers)]}"#.utf8))
        let recorder = RecordingUserAgent(agent)
        // The backend is on the host's loopback, outside the extensions' network namespaces: the
        // egress proxy connects them to it only when it is named.
        let report = await fixture.flow(userAgent: recorder) { configuration in
            configuration.networkPolicy = NetworkPolicy(allowances: [backend.allowance])
        }.run(AddCardOptions(device: .iphone))
        let served = backend.stop()
        let screens = recorder.exchanges.compactMap { exchange -> UIPromptParams? in
            if case .prompt(let prompt, _) = exchange { return prompt }
            return nil
        }
        return (report, screens, served, agent)
    }

    @Test("UIKit login: the screen is the form; a wrong password shows the error label, the right one authorizes, the backend adds both cards")
    func uikitLoginWrongThenRight() async throws {
        let (report, screens, served, agent) = try await addCard(uiExecutable: "PatternUIKitExt", answers: """
            {"action": "Log In", "values": {"username": "pat", "password": "wrong", "remember": "yes"}},
            {"action": "Log In", "values": {"username": "pat", "password": "pattern-pass"}}
            """)
        #expect(report.succeeded, "\(report.failure ?? "") \(agent.transcript)")
        #expect(report.authorization == "authorized")
        #expect(report.cards.map(\.title) == ["Pattern Debit", "Pattern Credit"])
        #expect(agent.unusedAnswers == 0)
        try #require(screens.count == 2, "\(screens)")
        let first = screens[0]
        #expect(first.title == "Sign in to Pattern Bank")
        #expect(first.message == "Pattern Bank\nUse your online banking password.\nRemember me")
        #expect(first.fields.map(\.name) == ["username", "password", "remember"])
        #expect(first.fields.map(\.secure) == [false, true, false])
        #expect(first.fields.last?.label == "Remember me (yes/no)")
        #expect(first.actions == ["Log In", "Cancel"], "the disabled Log In is offered: filling the fields enables it")
        #expect(screens[1].message?.contains("Incorrect password. 2 attempts left.") == true, "\(screens[1])")
        #expect(served.filter { $0.hasPrefix("served /login") } == ["served /login 401", "served /login 200"])
        #expect(served.contains("served /cards 200"))
        #expect(served.filter { $0.hasPrefix("served /provision 200") }.count == 2)
    }

    @Test("SwiftUI login: state changes render the next form; a disabled button enabled by a switch in the same answer is tapped")
    func swiftUILoginWrongThenRight() async throws {
        let (report, screens, served, agent) = try await addCard(uiExecutable: "PatternSwiftUIExt", answers: """
            {"action": "Sign In", "values": {"username": "pat", "password": "nope", "terms": "yes"}},
            {"action": "Sign In", "values": {"username": "pat", "password": "pattern-pass"}}
            """)
        #expect(report.succeeded, "\(report.failure ?? "") \(agent.transcript)")
        #expect(report.authorization == "authorized")
        try #require(screens.count == 2, "\(screens)")
        let first = screens[0]
        #expect(first.title == "Sign in with SwiftUI")
        #expect(first.message == "Pattern Bank\nHelp\nPrivacy")
        #expect(first.fields.map(\.name) == ["username", "password", "terms"])
        #expect(first.fields.map(\.secure) == [false, true, false])
        #expect(first.actions == ["Sign In", "Cancel"])
        #expect(screens[1].message == "Pattern Bank\nWrong password for pat. Try again.\nHelp\nPrivacy", "\(screens[1])")
        #expect(served.filter { $0.hasPrefix("served /login") } == ["served /login 401", "served /login 200"])
    }

    @Test("SwiftUI: Cancel ends the flow unauthorized, and nothing reaches the backend's login")
    func swiftUICancel() async throws {
        let (report, screens, served, _) = try await addCard(uiExecutable: "PatternSwiftUIExt", answers: #"{"action": "Cancel"}"#)
        #expect(report.authorization == "canceled")
        #expect(screens.count == 1)
        #expect(!served.contains { $0.hasPrefix("served /login") })
    }

    /// The same SwiftUI login through a daemon: `wallet-host add-card --state` routes the flow
    /// to the daemon serving that state directory, whose UI extension's screens come back to this
    /// command as forwarded prompts, answered by its scripted user.
    @Test("SwiftUI login through the daemon: the screens are forwarded to the command's user, the cards added")
    func swiftUILoginThroughTheDaemon() async throws {
        let backend = try StandInBackend()
        let directory = try TemporaryDirectory(prefix: "wallet-host-patterns")
        defer { directory.remove() }
        let apps = directory.url.appendingPathComponent("apps")
        let state = directory.url.appendingPathComponent("state")
        _ = try PatternIssuerApp.assemble(in: apps, name: "Pattern", bundleIdentifier: "com.example.pattern",
                                          uiExecutable: "PatternSwiftUIExt", backend: backend.baseURL)
        let script = directory.url.appendingPathComponent("user.json")
        let answers = #"{"answers": [{"action": "Sign In", "values": {"username": "pat", "password": "nope", "terms": "yes"}}, "#
            + #"{"action": "Sign In", "values": {"username": "pat", "password": "pattern-pass"}}]}"#
        try Data(answers.utf8).write(to: script)
        let daemon = Process()
        daemon.executableURL = BuildProducts.walletHost
        daemon.arguments = ["serve", "--apps", apps.path, "--state", state.path, "--allow-network", backend.allowance.description]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer {
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
            _ = backend.stop()
        }
        try await waitFor("the daemon answers") {
            try WalletHostCommand.run(["ps", "--state", state.path]).status == 0
        }
        let open = try WalletHostCommand.run(["app", "open", "Pattern", "--apps", apps.path, "--state", state.path])
        #expect(open.status == 0, "\(open.standardError)")
        let run = try WalletHostCommand.run(["add-card", "--apps", apps.path, "--state", state.path, "--user-agent", script.path, "--json"])
        #expect(run.status == 0, "\(run.standardOutput)\n\(run.standardError)")
        let report = try run.json()
        #expect(report["failure"] == nil, "\(report["failure"] ?? "")")
        #expect(report["authorization"] as? String == "authorized")
        #expect((report["cards"] as? [[String: Any]])?.compactMap { $0["title"] as? String } == ["Pattern Debit", "Pattern Credit"])
        let screens = try #require(report["screens"] as? [[String: Any]], "\(report)")
        #expect(screens.count == 2)
        #expect(screens.first?["title"] as? String == "Sign in with SwiftUI")
        // The daemon ran it: its pool keeps the issuer's non-UI extension.
        let ps = try WalletHostCommand.run(["ps", "--state", state.path])
        #expect(ps.standardOutput.contains("com.example.pattern.PatternNonUIExt"), "\(ps.standardOutput)")
    }
}
