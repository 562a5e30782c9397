import ConformanceEngine
import Foundation
import Testing
import Wallet
import WalletTestSupport

/// Issue 33, bug 1: a UI extension whose only buttons are "Continuar" and "Cancelar" hung
/// `authorize` (the scripted user found no Cancel, and the screen waited for ever), failing
/// result-shape-authorize, honours-cancel, concurrent-calls and exactly-once. The conformance
/// user now leaves such a sheet, as a person does, and Wallet answers `canceled`.
@Suite("A localized UI extension under conform", .serialized, .timeLimit(.minutes(5)))
struct LocalizedScreenConformanceTests {
    @Test("the Spanish UIKit login (Continuar, Cancelar) passes every check")
    func spanishScreenPasses() async throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-localized")
        defer { directory.remove() }
        let app = try PatternIssuerApp.assemble(in: directory.url, name: "Patron", bundleIdentifier: "com.example.patron",
                                                uiExecutable: "PatternUIKitExt", backend: URL(string: "http://127.0.0.1:9")!,
                                                uiInfo: ["PatternLanguage": "es"])
        let report = await ConformanceTests.conform(app.appendingPathComponent("PlugIns/PatternUIKitExt.appex"))
        #expect(report.passed, ConformanceTests.explain(report))
        #expect(report.failedCheckIDs.isEmpty, ConformanceTests.explain(report))
        let authorize = report.checks.first { $0.id == "result-shape-authorize" }
        #expect(authorize?.evidence.contains("canceled") == true, ConformanceTests.explain(report))
    }
}
