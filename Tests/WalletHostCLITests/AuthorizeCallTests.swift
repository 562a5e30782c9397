import Foundation
import Testing
import WalletTestSupport

/// `call … authorize` answers the UI extension as add-card does (issue 35): from a script, at
/// the terminal, or with a note on how to answer when nobody can.
@Suite("wallet-host call authorize", .serialized, .timeLimit(.minutes(2)))
struct AuthorizeCallTests {
    private var uiExtension: URL { ExampleBundles.sampleIssuerApp.appendingPathComponent("PlugIns/WUIExt.appex") }

    private func openedState() throws -> URL {
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-authorize")
        #expect(try WalletHostCommand.run(["app", "open", ExampleBundles.sampleIssuerApp.path, "--state", state.path]).status == 0)
        return state
    }

    @Test func aScriptAnswersTheSignIn() throws {
        let state = try openedState()
        let script = URL(fileURLWithPath: TemporaryDirectory.uniqueURL(prefix: "authorize-agent").path + ".json")
        try Data(#"{"answers": [{"action": "Log In", "values": {"username": "jappleseed", "password": "wallet-demo"}}]}"#.utf8)
            .write(to: script)
        let run = try WalletHostCommand.run(["call", uiExtension.path, "authorize", "--user-agent", script.path, "--state", state.path])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("\"result\" : \"authorized\""), "\(run.standardOutput)")
        #expect(!run.standardError.contains("nobody can answer"))
    }

    @Test func nobodyAnsweringIsSaidWithHowToAnswer() throws {
        let state = try openedState()
        let run = try WalletHostCommand.run(["call", uiExtension.path, "authorize", "--state", state.path])
        #expect(run.standardOutput.contains("\"result\" : \"canceled\""), "\(run.standardOutput)")
        #expect(run.standardError.contains("asked the user (\"Sign in to Sample Issuer\") and nobody can answer"), "\(run.standardError)")
        #expect(run.standardError.contains("--user-agent FILE") && run.standardError.contains("--interactive"))
    }

    @Test func atATerminalWithInteractiveItAsksThere() throws {
        let state = try openedState()
        let terminal = try PseudoTerminal(BuildProducts.walletHost, ["call", uiExtension.path, "authorize", "--interactive",
                                                                     "--state", state.path])
        #expect(terminal.read(until: "Username: "), "\(terminal.output)")
        terminal.type("jappleseed")
        #expect(terminal.read(until: "Password: "), "\(terminal.output)")
        #expect(terminal.waitForEchoOff())
        terminal.type("wallet-demo")
        #expect(terminal.read(until: "Choose 1-3: "), "\(terminal.output)")
        terminal.type("1")
        #expect(terminal.finish() == 0, "\(terminal.output)")
        #expect(terminal.output.contains("\"result\" : \"authorized\""), "\(terminal.output)")
    }
}
