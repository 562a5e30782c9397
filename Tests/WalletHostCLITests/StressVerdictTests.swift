import Foundation
import Testing
import WalletTestSupport

/// The verdict of `stress` first, in the text and on the page (issue 35): missed deadlines and
/// failed calls fail a run by default, `--tolerate-failures` lets them pass; figures carry units;
/// the searches are charts.
@Suite("wallet-host stress verdict", .serialized, .timeLimit(.minutes(3)))
struct StressVerdictTests {
    /// Every status call of this helper misses a 20 ms deadline.
    private func missingAppex() throws -> URL { try ExampleBundles.testHelper(mode: "slow-status 60") }

    @Test func missedDeadlinesFailTheRunAndTheVerdictComesFirst() throws {
        let page = URL(fileURLWithPath: TemporaryDirectory.uniqueURL(prefix: "stress-verdict").path + ".html")
        // A failing run keeps its device for diagnosis: give it one that goes with the test.
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-stress-verdict")
        let run = try WalletHostCommand.run(["stress", try missingAppex().path, "--calls", "5", "--deadline", "status=20ms",
                                             "--hang-grace", "2s", "--html", page.path, "--state", state.path])
        #expect(run.status == 1, "\(run.standardOutput)\(run.standardError)")
        let first = run.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
        // A missed deadline is a failed call too; each figure has its unit.
        #expect(first == "FAIL: failed>0 (measured 5 calls); misses>0 (measured 5 deadline misses)", "\(run.standardOutput)")
        #expect(run.standardOutput.contains("FAIL --fail-on misses>0: measured 5 deadline misses"), "\(run.standardOutput)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("<header class=\"fail\"><p class=\"verdict\">FAIL · failed&gt;0"), "a failing run's header is red")
        #expect(!html.contains("<header class=\"pass\""))
    }

    @Test func tolerateFailuresKeepsTheOldDefault() throws {
        let run = try WalletHostCommand.run(["stress", try missingAppex().path, "--calls", "5", "--deadline", "status=20ms",
                                             "--hang-grace", "2s", "--tolerate-failures"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.hasPrefix("PASS: no --fail-on condition holds (lost>0, zombies>0)\n"), "\(run.standardOutput)")
    }

    @Test func aCleanRunPassesWithAGreenHeaderAndDrawsItsSearches() throws {
        let appex = ExampleBundles.testHelperApp.appendingPathComponent("PlugIns/TestHelperExt.appex")
        let page = URL(fileURLWithPath: TemporaryDirectory.uniqueURL(prefix: "stress-searches").path + ".html")
        let run = try WalletHostCommand.run(["stress", appex.path, "--calls", "10", "--deadline", "status=5s", "--cpu-share", "search",
                                             "--find-memory-limit", "--html", page.path])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput.hasPrefix("PASS: no --fail-on condition holds (lost>0, zombies>0, failed>0, misses>0)\n"))
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.contains("<header class=\"pass\"><p class=\"verdict\">PASS · "))
        for chart in ["CPU share search", "Memory limit search"] {
            #expect(html.contains("data-chart=\"\(chart)\""), "\(chart) is drawn")
        }
        #expect(html.contains("class=\"legend-label\">missed the deadline</text>") && html.contains(">every call succeeded</text>"))
    }
}
