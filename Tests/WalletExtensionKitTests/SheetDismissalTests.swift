import Foundation
import Synchronization
import Testing
@testable import UIKit
@testable import WalletExtensionKit
@testable import WalletExtensionRuntime
import WalletTestSupport
import WalletWire

/// A localized screen as real issuers ship it: "Continuar" and "Cancelar", no button titled
/// Cancel, and code that never completes unless a button is tapped.
final class SpanishApprovalController: UIViewController, PKIssuerProvisioningExtensionAuthorizationProviding {
    nonisolated static let disappearances = Atomic(0)
    var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)?

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Agregar tarjeta"
        let proceed = UIButton(type: .system, primaryAction: UIAction(title: "Continuar") { [weak self] _ in
            self?.completionHandler?(.authorized)
        })
        let cancel = UIButton(type: .system, primaryAction: UIAction(title: "Cancelar") { [weak self] _ in
            self?.completionHandler?(.canceled)
        })
        for subview in [proceed, cancel] { view.addSubview(subview) }
    }

    override func viewDidDisappear(_ animated: Bool) {
        super.viewDidDisappear(animated)
        Self.disappearances.add(1, ordering: .relaxed)
    }
}

/// Leaving the sheet is Wallet's dismissal, an answer of its own (issue 33, bug 1): a screen
/// without a Cancel button is shown, and `authorize` completes when the user leaves it.
/// In the serialized suite of concurrent screens: the process-wide runtime that host services
/// use is shared.
extension ConcurrentScreensTests {
    /// Starts `authorize` (id 2) on a Spanish screen and returns its `ui.prompt` request.
    private func promptOfAuthorize(_ harness: RuntimeHarness) async throws -> JSONValue {
        harness.initialize(principalClass: "SpanishApprovalController")
        harness.send(#"{"jsonrpc":"2.0","id":2,"method":"authorize","params":{}}"#)
        func prompts() -> [JSONValue] { harness.output.messages.filter { $0["method"] == .string(WireMethod.uiPrompt) } }
        try await waitFor("the screen's ui.prompt") { !prompts().isEmpty }
        return try #require(prompts().first)
    }

    @Test("a screen with only Continuar and Cancelar is shown, and dismissing it completes authorize as canceled")
    func dismissalCancels() async throws {
        let harness = RuntimeHarness(registered: [.authorizationController { SpanishApprovalController() }])
        ExtensionRuntime.current.withLock { $0 = harness.runtime }
        defer { ExtensionRuntime.current.withLock { $0 = nil } }
        let before = SpanishApprovalController.disappearances.load(ordering: .relaxed)
        let prompt = try await promptOfAuthorize(harness)
        #expect(prompt["params"]?["actions"] == .array([.string("Continuar"), .string("Cancelar")]))
        let id = try #require(prompt["id"])
        let idText = try #require(String(data: JSONEncoder().encode(id), encoding: .utf8))
        harness.send(#"{"jsonrpc":"2.0","id":\#(idText),"result":{"dismissed":true,"values":{}}}"#)
        let answers = await harness.output.messages(id: .integer(2))
        #expect(answers.first?["result"]?["result"]?.stringValue == "canceled", "\(answers)")
        try await waitFor("the controller dismissed and its screen let go") {
            await MainActor.run { ScreenSession.sessionsShowing } == 0
                && SpanishApprovalController.disappearances.load(ordering: .relaxed) == before + 1
        }
    }

    @Test("a screen without Cancel that the user agent cannot show is dismissed, not left waiting")
    func unshownScreenIsDismissed() async throws {
        let harness = RuntimeHarness(registered: [.authorizationController { SpanishApprovalController() }])
        ExtensionRuntime.current.withLock { $0 = harness.runtime }
        defer { ExtensionRuntime.current.withLock { $0 = nil } }
        let prompt = try await promptOfAuthorize(harness)
        let id = try #require(prompt["id"])
        let idText = try #require(String(data: JSONEncoder().encode(id), encoding: .utf8))
        harness.send(#"{"jsonrpc":"2.0","id":\#(idText),"error":{"code":-32000,"message":"no answer left"}}"#)
        let answers = await harness.output.messages(id: .integer(2))
        #expect(answers.first?["result"]?["result"]?.stringValue == "canceled", "\(answers)")
    }
}
