import Foundation
import Testing
import WalletTestSupport

/// The add-card page says what the terminal says (issue 35): which bank was picked, the hint
/// when nobody answered the UI extension, and each long error once.
@Suite("add-card --html answers", .serialized, .timeLimit(.minutes(2)))
struct AddCardPageAnswersTests {
    @Test func aSignInNobodyAnsweredShowsThePickedBankTheHintAndTheErrorOnce() throws {
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-page-answers")
        #expect(try WalletHostCommand.run(["app", "open", ExampleBundles.sampleIssuerApp.path, "--state", state.path]).status == 0)
        let page = URL(fileURLWithPath: TemporaryDirectory.uniqueURL(prefix: "add-card-answers").path + ".html")
        let run = try WalletHostCommand.run(["add-card", "--apps", ExampleBundles.directory.path, "--state", state.path,
                                             "--deadline", "status=5s", "--no-daemon", "--html", page.path])
        #expect(run.status == 1)
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("<p class=\"picked\" data-picked=\"true\"><b>SampleIssuer</b> <span class=\"tag\">picked</span>"), "\(html)")
        // The terminal's hint, with its script to start from.
        #expect(run.standardOutput.contains("nobody can answer"))
        #expect(html.contains("data-answer=\"none\""))
        #expect(html.contains("<h2>Notes</h2>") && html.contains("nobody can answer: no --user-agent FILE or --interactive"))
        #expect(html.contains("To answer from a script (CI): --user-agent FILE"))
        // Each long sentence once: the failure in its step's row, the shared reason of the absent issuers once.
        let failure = "the user did not authorize (canceled): the flow ends"
        #expect(html.components(separatedBy: failure).count == 2, "\(html)")
        let reason = "Wallet lists an issuer only after its app was opened and logged in once"
        #expect(html.components(separatedBy: reason).count == 2)
        #expect(html.contains("<header class=\"fail\"><p class=\"verdict\">FAIL · failed at authorization (see Steps)"))
    }
}
