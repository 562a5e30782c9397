import Foundation
import Testing
import WalletTestSupport

/// `wallet-host conform` on the pattern UI extensions, whose screens are the form: a UIKit login
/// (buttons wired with `UIAction`s) and a SwiftUI one. Its scripted user cancels every screen,
/// so no backend is called.
@Suite("Issuer patterns under conform", .serialized, .timeLimit(.minutes(3)))
struct PatternConformanceTests {
    @Test("the UIKit and SwiftUI login screens pass every check, concurrent-calls included",
          arguments: ["PatternUIKitExt", "PatternSwiftUIExt"])
    func screensPassConform(uiExecutable: String) async throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-pattern-conform")
        defer { directory.remove() }
        // Nothing listens there: Cancel reaches no backend.
        let unusedBackend = try #require(URL(string: "http://127.0.0.1:9"))
        let app = try PatternIssuerApp.assemble(in: directory.url, name: "Pattern", bundleIdentifier: "com.example.pattern",
                                                uiExecutable: uiExecutable, backend: unusedBackend)
        let report = await ConformanceTests.conform(app.appendingPathComponent("PlugIns/\(uiExecutable).appex"))
        #expect(report.passed, ConformanceTests.explain(report))
        let concurrent = try #require(report.check("concurrent-calls"))
        #expect(concurrent.status == .passed, "\(concurrent.evidence)")
        #expect(concurrent.evidence.contains("8 authorize calls sent at once were all answered"), "\(concurrent.evidence)")
    }
}
