import Foundation
import Testing
import WalletTestSupport

/// `add-card` given neither `--user-agent` nor `--interactive`: at a terminal it asks there; with
/// nobody to answer, an issuer's sign-in ends with a note naming both options and a script to start from.
@Suite("add-card without a user agent", .serialized, .timeLimit(.minutes(2)))
struct AddCardUserTests {
    /// A fresh state directory where the sample issuer's app was opened, so Wallet lists it.
    private func stateWithSampleIssuerOpened() throws -> URL {
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-first-contact")
        let opened = try WalletHostCommand.run(["app", "open", ExampleBundles.sampleIssuerApp.path, "--state", state.path])
        try #require(opened.status == 0, "\(opened.standardOutput)\(opened.standardError)")
        return state
    }

    private func addCardArguments(state: URL) -> [String] {
        ["add-card", "--apps", ExampleBundles.directory.path, "--state", state.path, "--issuer", "com.example.sampleissuer",
         "--deadline", "status=5s", "--no-daemon"]
    }

    @Test func atATerminalItAsksThereAndTheAnswersAddTheCards() throws {
        let state = try stateWithSampleIssuerOpened()
        defer { try? FileManager.default.removeItem(at: state) }
        let terminal = try PseudoTerminal(BuildProducts.walletHost, addCardArguments(state: state))
        #expect(terminal.read(until: "Username: "), "no sign-in prompt at the terminal:\n\(terminal.output)")
        #expect(terminal.output.contains("answering here, as --interactive does"))
        terminal.type("jappleseed")
        #expect(terminal.read(until: "Password: "), "\(terminal.output)")
        #expect(terminal.waitForEchoOff(), "echo stayed on for the password")
        terminal.type("wallet-demo")
        #expect(terminal.read(until: "Choose 1-3: "), "\(terminal.output)")
        terminal.type("1")
        let status = terminal.finish()
        #expect(status == 0, "\(terminal.output)")
        #expect(terminal.output.contains("authorization") && terminal.output.contains("authorized"))
        #expect(terminal.output.contains("Added 3 card(s) to iPhone."), "\(terminal.output)")
        // The password was read without echo.
        #expect(!terminal.output.contains("wallet-demo"))
    }

    @Test func withNobodyToAnswerTheNoteNamesBothOptionsAndAScript() throws {
        let state = try stateWithSampleIssuerOpened()
        defer { try? FileManager.default.removeItem(at: state) }
        let run = try WalletHostCommand.run(addCardArguments(state: state))
        #expect(run.status == 1)
        let output = run.standardOutput
        #expect(output.contains("the user did not authorize"), "\(output)")
        #expect(output.contains("nobody can answer"))
        #expect(output.contains("--user-agent FILE") && output.contains("--interactive"))
        #expect(output.contains("README.md"))
        // A script to start from, made from the screen the UI extension showed.
        let script = try #require(output.split(separator: "\n").first { $0.contains("\"answers\"") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(script.utf8)) as? [String: Any])
        #expect(object["issuer"] as? String == "com.example.sampleissuer")
        let answers = try #require(object["answers"] as? [[String: Any]])
        #expect(answers.first?["action"] as? String == "Log In")
        #expect((answers.first?["values"] as? [String: String]).map { Set($0.keys) } == ["username", "password"])
        // No Face ID was asked: a biometric answer would only be reported as not used.
        #expect(object["biometric"] == nil, "\(script)")
    }

    @Test func withJSONTheNoteGoesToStandardErrorAndStandardOutputStaysOneDocument() throws {
        let state = try stateWithSampleIssuerOpened()
        defer { try? FileManager.default.removeItem(at: state) }
        let run = try WalletHostCommand.run(addCardArguments(state: state) + ["--json"])
        #expect(run.status == 1)
        #expect(try run.json()["authorization"] as? String == "canceled")
        #expect(run.standardError.contains("--user-agent FILE") && run.standardError.contains("--interactive"), "\(run.standardError)")
    }

    @Test func aFlowThatNeverAsksTheUserHasNoNote() throws {
        // No app was opened: Wallet lists no issuer, and no UI extension runs.
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-first-contact")
        defer { try? FileManager.default.removeItem(at: state) }
        let run = try WalletHostCommand.run(["add-card", "--apps", ExampleBundles.directory.path, "--state", state.path,
                                             "--deadline", "status=5s", "--no-daemon"])
        #expect(run.status == 1)
        #expect(!run.standardOutput.contains("nobody can answer"), "\(run.standardOutput)")
    }
}
