import Foundation
import Testing
import WalletTestSupport

/// `add-card --interactive` lets the person choose the bank and the cards from Wallet's lists
/// (issue 35), from a pipe and at a terminal.
@Suite("add-card --interactive chooses the bank and the cards", .serialized, .timeLimit(.minutes(3)))
struct AddCardChoiceTests {
    /// A state directory where both the sample issuer's and the test helper's apps were opened: Wallet lists two banks.
    private func stateWithTwoBanks() throws -> URL {
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-two-banks")
        for app in [ExampleBundles.sampleIssuerApp, ExampleBundles.testHelperApp] {
            let opened = try WalletHostCommand.run(["app", "open", app.path, "--state", state.path, "--no-daemon"])
            try #require(opened.status == 0, "\(opened.standardOutput)\(opened.standardError)")
        }
        return state
    }

    private func arguments(state: URL) -> [String] {
        ["add-card", "--interactive", "--apps", ExampleBundles.directory.path, "--state", state.path, "--deadline", "status=5s",
         "--no-daemon"]
    }

    @Test func fromAPipeTheBankAndTheCardsAreRead() throws {
        let state = try stateWithTwoBanks()
        let process = Process()
        process.executableURL = BuildProducts.walletHost
        process.arguments = arguments(state: state)
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Bank 1 (Sample Issuer), its sign-in (user, password, action 1: Log In), then card 2.
        input.fileHandleForWriting.write(Data("1\njappleseed\nwallet-demo\n1\n2\n".utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("Wallet lists 2 banks:\n  1) SampleIssuer (com.example.sampleissuer)\n  2) TestHelper"), "\(text)")
        #expect(text.contains("User picks SampleIssuer."))
        #expect(text.contains("The bank offers 3 cards:\n  1) Sample Green Card ••1005 [FPANID-SAMPLE-AMEX-1005]"), "\(text)")
        #expect(text.contains("✔ Sample World Mastercard added"))
        #expect(text.hasSuffix("Added 1 card(s) to iPhone.\n"), "\(text)")
    }

    @Test func atATerminalTheListsAreAskedThere() throws {
        let state = try stateWithTwoBanks()
        let terminal = try PseudoTerminal(BuildProducts.walletHost, arguments(state: state))
        #expect(terminal.read(until: "Pick a bank [1-2] (Return: 1): "), "\(terminal.output)")
        terminal.type("2")
        // The test helper needs no sign-in and offers one card: it is taken without asking.
        let status = terminal.finish()
        #expect(status == 0, "\(terminal.output)")
        #expect(terminal.output.contains("User picks TestHelper."), "\(terminal.output)")
        #expect(!terminal.output.contains("Add which cards?"))
        #expect(terminal.output.contains("Added 1 card(s) to iPhone."))
    }

    @Test func withIssuerAndSelectGivenNothingIsAsked() throws {
        let state = try stateWithTwoBanks()
        let run = try WalletHostCommand.run(arguments(state: state) + ["--issuer", "com.example.testhelper", "--select", "all"])
        #expect(run.status == 0, "\(run.standardOutput)")
        #expect(!run.standardOutput.contains("Pick a bank") && !run.standardOutput.contains("Add which cards?"))
    }
}
