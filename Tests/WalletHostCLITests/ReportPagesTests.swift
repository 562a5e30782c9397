import Foundation
import Testing
import WalletTestSupport

/// `add-card --html` and `conform --html`: the same self-contained page renderer as `stress`.
@Suite("add-card and conform --html", .serialized, .timeLimit(.minutes(2)))
struct ReportPagesTests {
    private func pageURL(_ name: String) -> URL {
        URL(fileURLWithPath: TemporaryDirectory.uniqueURL(prefix: name).path + ".html")
    }

    @Test func addCardDrawsWalletsScreensAsTheRunWent() throws {
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-page-state")
        let script = URL(fileURLWithPath: TemporaryDirectory.uniqueURL(prefix: "user-agent").path + ".json")
        try Data("""
            {"issuer": "com.example.sampleissuer",
             "answers": [{"action": "Log In", "values": {"username": "jappleseed", "password": "wallet-demo"}}],
             "biometric": ["match"], "select": "all"}
            """.utf8).write(to: script)
        let apps = ExampleBundles.directory.path
        #expect(try WalletHostCommand.run(["app", "open", ExampleBundles.sampleIssuerApp.path, "--state", state.path]).status == 0)
        let page = pageURL("add-card-page")
        let run = try WalletHostCommand.run(["add-card", "--apps", apps, "--state", state.path, "--user-agent", script.path,
                                             "--deadline", "status=5s", "--html", page.path])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("From Apps on Your iPhone"))
        // An absent issuer with its reason, the login form as WUIExt described it, secrets masked.
        #expect(html.contains("TestHelper: never opened"))
        #expect(html.contains("data-screen=\"prompt\"") && html.contains("[Log In]"))
        #expect(!html.contains("wallet-demo"))
        // Each card's art at Wallet's aspect ratio, inline, with title, suffix and result.
        #expect(html.components(separatedBy: "src=\"data:image/png;base64,").count == 4)
        #expect(html.contains("aspect-ratio: 1536 / 969"))
        #expect(html.contains("Sample Visa Signature</b> •••• 4242"))
        #expect(!html.contains("src=\"http"))
        guard Chromium.path != nil else { return }
        let dom = try Chromium.dumpDOM(of: page)
        #expect(dom.components(separatedBy: "<figure").count == 4)
        #expect(dom.contains("data-screen=\"issuers\""))
    }

    @Test func conformListsEveryCheckWithItsEvidence() throws {
        let page = pageURL("conform-page")
        let run = try WalletHostCommand.run(["conform", ExampleBundles.testHelperAppex.path, "--deadline", "status=5s",
                                             "--html", page.path])
        #expect(run.status == 0, "\(run.standardOutput)")
        let html = try String(contentsOf: page, encoding: .utf8)
        for check in ["manifest-valid", "handshake", "status-cold-deadline", "memory-limit"] {
            #expect(html.contains(">\(check): "), "\(check) missing")
        }
        #expect(html.contains("data-chart=\"Time per check\""))
        guard Chromium.path != nil else { return }
        #expect(try Chromium.dumpDOM(of: page).contains("PASSED"))
    }
}
