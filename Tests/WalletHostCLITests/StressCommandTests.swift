import Foundation
import Testing
import WalletTestSupport

/// `wallet-host stress` as a user or CI runs it: usage, --json, --fail-on with --junit, --html.
@Suite("wallet-host stress", .serialized, .timeLimit(.minutes(2)))
struct StressCommandTests {
    @Test func helpDescribesEveryOption() throws {
        let run = try WalletHostCommand.run(["help", "stress"])
        #expect(run.status == 0)
        for option in ["--method M[,M...]", "--calls N", "--duration D", "--concurrency C", "--cold-every K", "--cpu-share P%|search",
                       "--chaos FAULT[,FAULT...]", "--chaos-rate R", "--find-memory-limit", "--json", "--html FILE",
                       "--junit FILE", "--fail-on EXPR", "--memory-limit SIZE"] {
            #expect(run.standardOutput.contains(option), "\(option) missing from help stress")
        }
    }

    @Test(arguments: [
        (["--chaos", "explode"], "\"explode\" is not a fault"),
        (["--fail-on", "latency>5"], "unknown metric \"latency\""),
        (["--method", "authorize"], "\"authorize\" is not one of"),
        (["--cpu-share", "0%"], "--cpu-share expects a share"),
        (["--calls", "0"], "--calls expects a whole number of at least 1"),
        (["--calls", "10", "--duration", "1s"], "--calls and --duration exclude each other"),
    ])
    func badOptionsAreUsageErrorsNamingTheValue(arguments: [String], message: String) throws {
        let run = try WalletHostCommand.run(["stress", ExampleBundles.testHelperAppex.path] + arguments)
        #expect(run.status == 2)
        #expect(run.standardError.contains(message), "\(run.standardError)")
    }

    @Test func aRequestWithNoEntryToAskForIsOneSentence() throws {
        // A fresh device on which the sample issuer's app was never opened: no cards, no entry.
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-stress-empty")
        let appex = ExampleBundles.sampleIssuerApp.appendingPathComponent("PlugIns/WNonUIExt.appex")
        let run = try WalletHostCommand.run(["stress", appex.path, "--state", state.path, "--calls", "5",
                                             "--method", "generateAddPaymentPassRequest"])
        #expect(run.status == 1)
        #expect(run.standardError.contains("generateAddPaymentPassRequest needs a pass entry to ask for, but WNonUIExt offered none"),
                "\(run.standardError)")
    }

    /// The sample issuer logs as it answers: its output log opens on its first line, which used
    /// to come with the load and count as a descriptor the load left behind (and cost the end of
    /// every run a second of waiting for it to close).
    @Test func aCleanRunLeavesNoDescriptorBehind() throws {
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-stress-fds")
        let appex = ExampleBundles.sampleIssuerApp.appendingPathComponent("PlugIns/WNonUIExt.appex")
        let run = try WalletHostCommand.run(["stress", appex.path, "--state", state.path, "--calls", "100", "--json",
                                             "--fail-on", "fdDelta>0,threadDelta>0"])
        #expect(run.status == 0, "\(run.standardError)")
        let host = try #require(try run.json()["host"] as? [String: Any])
        #expect(host["fileDescriptorDelta"] as? Int == 0, "\(host)")
        let log = try String(contentsOf: state.appendingPathComponent("logs/com.example.sampleissuer.WNonUIExt.log"), encoding: .utf8)
        #expect(!log.isEmpty, "the sample issuer wrote no output: the test no longer tests the lazy log")
    }

    @Test func aBundleThatDoesNotLoadIsNamed() throws {
        let missing = TemporaryDirectory.uniqueURL(prefix: "no-such").appendingPathComponent("Nothing.appex")
        let run = try WalletHostCommand.run(["stress", missing.path, "--calls", "5"])
        #expect(run.status == 1)
        #expect(run.standardError.contains("cannot load \(missing.path)"), "\(run.standardError)")
    }

    @Test func jsonWithAFailedThresholdExitsOneAndWritesJUnit() throws {
        let appex = try ExampleBundles.testHelper(mode: "normal")
        let junit = URL(fileURLWithPath: TemporaryDirectory.uniqueURL(prefix: "stress-junit").path + ".xml")
        let run = try WalletHostCommand.run(["stress", appex.path, "--calls", "60", "--cold-every", "20", "--json",
                                             "--deadline", "status=5s", "--junit", junit.path,
                                             "--fail-on", "status.p99>0ms,lost>0"])
        #expect(run.status == 1, "\(run.standardError)")
        let report = try run.json()
        let status = try #require((report["methods"] as? [String: Any])?["status"] as? [String: Any])
        #expect(status["calls"] as? Int == 60)
        #expect((status["cold"] as? [String: Any])?["calls"] as? Int == 3)
        #expect((status["warm"] as? [String: Any])?["calls"] as? Int == 57)
        #expect(report["lost"] as? Int == 0)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testcase ").count == 3)
        #expect(xml.components(separatedBy: "<failure ").count == 2)
        #expect(xml.contains("status.p99&gt;0ms: measured"))
    }

    static let pageCharts = ["Latency histogram", "Latency over time", "Footprint"]

    /// A stress run of the leaking test helper with kills, written as a page.
    /// - Returns: the page and the run's standard output.
    private func stressPage() throws -> (page: URL, output: String) {
        let appex = try ExampleBundles.testHelper(mode: "leak-kb 64")
        let page = URL(fileURLWithPath: TemporaryDirectory.uniqueURL(prefix: "stress-page").path + ".html")
        let run = try WalletHostCommand.run(["stress", appex.path, "--calls", "120", "--deadline", "status=5s",
                                             "--chaos", "kill", "--chaos-rate", "0.03", "--html", page.path])
        try #require(run.status == 0, "\(run.standardError)")
        return (page, run.standardOutput)
    }

    @Test func theHTMLPageHoldsItsCharts() throws {
        let (page, output) = try stressPage()
        let html = try String(contentsOf: page, encoding: .utf8)
        // Self-contained: nothing to fetch.
        #expect(!html.contains("src=\"http") && !html.contains("href=\"http") && !html.contains("<script"))
        for chart in Self.pageCharts { #expect(html.contains("data-chart=\"\(chart)\""), "\(chart) missing") }
        #expect(html.contains("deadline 5 s"))
        #expect(html.contains("limit 55 MB"))
        // 64 KB kept per call; kills cut the run into short lines, so the fit is near, not exact.
        #expect(html.contains("memory: peak") && html.contains(" KB per call") && html.contains("R² "), "\(output)")
    }

    @Test(.enabled(if: Chromium.path != nil, "chromium is not installed (scripts/install-dependencies installs it)"))
    func theHTMLPageParsesInABrowser() throws {
        // What a real browser made of it: the same charts, each an <svg> with its shapes.
        let dom = try Chromium.dumpDOM(of: try stressPage().page)
        for chart in Self.pageCharts { #expect(dom.contains("data-chart=\"\(chart)\""), "\(chart) missing from Chromium's DOM") }
        #expect(dom.components(separatedBy: "<svg").count == 4)
        #expect(dom.contains("<circle") && dom.contains("<rect") && dom.contains("<polyline"))
    }
}
