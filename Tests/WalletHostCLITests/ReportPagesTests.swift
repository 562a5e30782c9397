import Foundation
import Testing
import WalletTestSupport

/// `add-card --html` and `conform --html`: the same self-contained page renderer as `stress`.
@Suite("add-card and conform --html", .serialized, .timeLimit(.minutes(2)))
struct ReportPagesTests {
    private func pageURL(_ name: String) -> URL {
        URL(fileURLWithPath: TemporaryDirectory.uniqueURL(prefix: name).path + ".html")
    }

    /// Why the browser halves are skipped: .ci/run and scripts/test install Chromium through
    /// scripts/install-dependencies, so only a machine that could not install it skips them.
    static let noChromium: Comment = "chromium is not installed (scripts/install-dependencies installs it)"

    /// Runs `add-card --html` with the scripted user agent through the sample issuer's flow.
    /// - Returns: the page written.
    private func addCardPage() throws -> URL {
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
        try #require(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        return page
    }

    /// Runs `conform --html` on the test helper. - Returns: the page written.
    private func conformPage() throws -> URL {
        let page = pageURL("conform-page")
        let run = try WalletHostCommand.run(["conform", ExampleBundles.testHelperAppex.path, "--deadline", "status=5s",
                                             "--html", page.path])
        try #require(run.status == 0, "\(run.standardOutput)")
        return page
    }

    @Test func addCardDrawsWalletsScreensAsTheRunWent() throws {
        let html = try String(contentsOf: try addCardPage(), encoding: .utf8)
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
    }

    @Test(.enabled(if: Chromium.path != nil, Self.noChromium))
    func addCardPageShowsItsCardsInABrowser() throws {
        let dom = try Chromium.dumpDOM(of: try addCardPage())
        #expect(dom.components(separatedBy: "<figure").count == 4)
        #expect(dom.contains("data-screen=\"issuers\""))
    }

    @Test func conformListsEveryCheckWithItsEvidence() throws {
        let html = try String(contentsOf: try conformPage(), encoding: .utf8)
        for check in ["manifest-valid", "handshake", "status-cold-deadline", "memory-limit"] {
            #expect(html.contains(">\(check): "), "\(check) missing")
        }
        #expect(html.contains("data-chart=\"Time per check\""))
    }

    @Test func conformsTimePerCheckLabelsEachBarWithItsCheck() throws {
        let html = try String(contentsOf: try conformPage(), encoding: .utf8)
        let start = try #require(html.range(of: "data-chart=\"Time per check\""))
        let chart = String(html[start.lowerBound...].components(separatedBy: "</svg>")[0])
        // The checks, in the table's order: each body row's first cell is `id: title`.
        let body = try #require(html.components(separatedBy: "<tbody>").dropFirst().first?.components(separatedBy: "</tbody>").first)
        let ids = body.components(separatedBy: "</tr>").compactMap { row -> String? in
            row.components(separatedBy: "<td>").dropFirst().first?.components(separatedBy: ": ").first
        }
        try #require(ids.count >= 10, "\(ids)")
        let labels = chart.components(separatedBy: "<g class=\"bar\" data-label=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
        #expect(labels.map(String.init) == ids)
        for id in ids { #expect(chart.contains(">\(id)</text>"), "no label for \(id)") }
        // Nothing numbers the checks: every number on the chart is a time.
        #expect(!chart.contains("check (in order)"))
    }

    @Test(.enabled(if: Chromium.path != nil, Self.noChromium))
    func conformPageShowsItsVerdictInABrowser() throws {
        #expect(try Chromium.dumpDOM(of: try conformPage()).contains("PASSED"))
    }
}
