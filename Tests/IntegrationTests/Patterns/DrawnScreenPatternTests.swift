import Foundation
import Testing
import Wallet
import WalletHostRuntime
import WalletHostTestSupport
import WalletTestSupport
import WalletWire

/// The pattern issuers' UI extensions, UIKit and SwiftUI, run through add-card: each `ui.prompt`
/// carries the screen drawn as the extension laid it out, whose fields and buttons are named as
/// the form's, inside the 390 x 844 screen, and small enough to send on every change.
@Suite("Drawn screens of the pattern UI extensions", .serialized, .timeLimit(.minutes(3)),
       .enabled(if: Python3.isAvailable, "the stand-in backend is a Python script; no python3 on PATH"))
struct DrawnScreenPatternTests {
    private func screens(of uiExecutable: String, answers: String) async throws -> [UIPromptParams] {
        let backend = try StandInBackend()
        let directory = try TemporaryDirectory(prefix: "wallet-host-drawn")
        defer {
            directory.remove()
            _ = backend.stop()
        }
        let app = try PatternIssuerApp.assemble(in: directory.url, name: "Pattern", bundleIdentifier: "com.example.pattern",
                                                uiExecutable: uiExecutable, backend: backend.baseURL)
        let fixture = try AddCardFixture(appAt: app)
        let recorder = RecordingUserAgent(try ScriptedUserAgent(data: Data(#"{"answers": [\#(answers)]}"#.utf8)))
        let report = await fixture.flow(userAgent: recorder) { configuration in
            configuration.networkPolicy = NetworkPolicy(allowances: [backend.allowance])
        }.run(AddCardOptions(device: .iphone))
        #expect(report.authorization == "authorized", "\(report.failure ?? "")")
        return recorder.exchanges.compactMap { exchange -> UIPromptParams? in
            if case .prompt(let prompt, _) = exchange { return prompt }
            return nil
        }
    }

    /// Every node with its frame on the screen.
    private func nodes(of tree: ScreenTree) -> [(node: ViewNode, frame: ViewNode.Frame)] {
        var found: [(ViewNode, ViewNode.Frame)] = []
        func walk(_ node: ViewNode, x: Double, y: Double) {
            let frame = ViewNode.Frame(x: x + node.frame.x, y: y + node.frame.y, width: node.frame.width, height: node.frame.height)
            found.append((node, frame))
            for child in node.children ?? [] where child.hidden != true { walk(child, x: frame.x, y: frame.y) }
        }
        walk(tree.root, x: 0, y: 0)
        return found
    }

    private func checkTree(of prompt: UIPromptParams) throws {
        let tree = try #require(prompt.screen, "no drawn screen in \(prompt.title)")
        #expect(tree.size == ViewNode.Size(width: 390, height: 844))
        let shown = nodes(of: tree)
        let fields = shown.filter { $0.node.field != nil }
        #expect(Set(fields.compactMap(\.node.field)) == Set(prompt.fields.map(\.name)), "\(prompt.title): \(fields.map(\.node))")
        #expect(Set(shown.compactMap(\.node.action)) == Set(prompt.actions), "\(prompt.title)")
        for (node, frame) in shown where node.field != nil || node.action != nil {
            #expect(frame.width > 0 && frame.height > 0, "\(node.field ?? node.action ?? "") has no size: \(frame)")
            #expect(frame.x >= 0 && frame.y >= 47 && frame.x + frame.width <= 390 && frame.y + frame.height <= 810,
                    "\(node.field ?? node.action ?? "") is outside the safe area: \(frame)")
        }
        let secure = Set(prompt.fields.filter(\.secure).map(\.name))
        #expect(Set(fields.filter { $0.node.secure == true }.compactMap(\.node.field)) == secure)
        let size = try JSONEncoder().encode(tree).count
        #expect(size < 64 * 1024, "a login screen's tree is \(size) bytes")
    }

    @Test("UIKit login (a scroll view, a stack view, Auto Layout): the drawn fields and buttons are the form's")
    func uikitLogin() async throws {
        let screens = try await screens(of: "PatternUIKitExt", answers: """
            {"action": "Log In", "values": {"username": "pat", "password": "pattern-pass"}}
            """)
        try #require(!screens.isEmpty)
        for screen in screens { try checkTree(of: screen) }
    }

    @Test("SwiftUI login (a navigation view, a column, a toggle): the drawn fields and buttons are the form's")
    func swiftUILogin() async throws {
        let screens = try await screens(of: "PatternSwiftUIExt", answers: """
            {"action": "Sign In", "values": {"username": "pat", "password": "pattern-pass", "terms": "yes"}}
            """)
        try #require(!screens.isEmpty)
        for screen in screens { try checkTree(of: screen) }
    }
}

