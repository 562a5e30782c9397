import Foundation
import Synchronization
import Testing
@testable import UIKit
@testable import WalletExtensionKit
@testable import WalletExtensionRuntime
import WalletTestSupport
import WalletWire

/// An approval screen as issuers write it in UIKit: a numbered label and two buttons wired with
/// `UIAction`s, one as the button's primary action, one added for `.primaryActionTriggered`.
final class TwoButtonApprovalController: UIViewController, PKIssuerProvisioningExtensionAuthorizationProviding {
    /// How many screens have been made, so that each one's form says which it is.
    nonisolated static let screensMade = Atomic(0)
    var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)?

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Approve adding cards"
        let number = Self.screensMade.add(1, ordering: .relaxed).newValue
        let label = UILabel()
        label.text = "Screen \(number)"
        let approve = UIButton(type: .system, primaryAction: UIAction(title: "Approve") { [weak self] _ in
            self?.completionHandler?(.authorized)
        })
        let cancel = UIButton(type: .system)
        cancel.setTitle("Cancel", for: .normal)
        cancel.addAction(UIAction { [weak self] _ in self?.completionHandler?(.canceled) }, for: .primaryActionTriggered)
        for subview in [label, approve, cancel] { view.addSubview(subview) }
    }
}

/// Several `authorize` calls in flight at once on one UI extension process, as `wallet-host
/// conform`'s `concurrent-calls` sends them: each call's UIKit screen is its own `ui.prompt`,
/// and each answer taps a button of the screen it was asked for.
/// Serialized: the process-wide runtime that host services use is shared.
@Suite("UIKit screens of concurrent authorize calls", .serialized, .processRuntime, .timeLimit(.minutes(1)))
struct ConcurrentScreensTests {
    @Test("eight authorize calls at once: eight screens sent, each answer taps its own screen's button, every call answered")
    func everyConcurrentScreenIsAskedAndAnswered() async throws {
        let count = 8
        let harness = RuntimeHarness(registered: [.authorizationController { TwoButtonApprovalController() }])
        ExtensionRuntime.current.withLock { $0 = harness.runtime }
        defer { ExtensionRuntime.current.withLock { $0 = nil } }
        harness.initialize(principalClass: "TwoButtonApprovalController")
        let firstScreen = TwoButtonApprovalController.screensMade.load(ordering: .relaxed) + 1
        let callIDs = (2..<(2 + count)).map { $0 }
        let started = ContinuousClock.now
        for id in callIDs { harness.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"authorize","params":{}}"#) }

        func prompts() -> [JSONValue] { harness.output.messages.filter { $0["method"] == .string(WireMethod.uiPrompt) } }
        try await waitFor("a ui.prompt for each of the \(count) calls") { prompts().count >= count }
        let sent = prompts()
        // A form waiting for the user holds no thread: with one blocked per form, the main queue
        // and the pool wait for libdispatch to add threads, about a second each beyond the cores.
        let waited = ContinuousClock.now - started
        #expect(waited < .seconds(3), "the \(count) forms took \(waited) to be sent")
        #expect(sent.count == count, "one form per screen, sent once: \(sent)")
        let screens = Set(sent.compactMap { $0["params"]?["message"]?.stringValue })
        #expect(screens == Set((firstScreen..<(firstScreen + count)).map { "Screen \($0)" }), "each call's own screen")
        #expect(sent.allSatisfy { $0["params"]?["actions"] == .array([.string("Approve"), .string("Cancel")]) })

        // Screens with an odd number are approved, the others cancelled: each answer must reach its own screen.
        var approved = 0
        for prompt in sent {
            guard case .string(let id)? = prompt["id"], let screen = prompt["params"]?["message"]?.stringValue,
                  let number = Int(screen.dropFirst("Screen ".count)) else {
                Issue.record("a ui.prompt without a string id or a numbered screen: \(prompt)")
                continue
            }
            let action = number % 2 == 1 ? "Approve" : "Cancel"
            if action == "Approve" { approved += 1 }
            harness.send(#"{"jsonrpc":"2.0","id":"\#(id)","result":{"action":"\#(action)","values":{}}}"#)
        }
        var results: [String] = []
        for id in callIDs {
            let answers = await harness.output.messages(id: .integer(id))
            #expect(answers.count == 1, "authorize \(id) answered once: \(answers)")
            if let result = answers.first?["result"]?["result"]?.stringValue { results.append(result) }
        }
        #expect(results.count == count)
        #expect(results.filter { $0 == "authorized" }.count == approved)
        #expect(results.filter { $0 == "canceled" }.count == count - approved)
        try await waitFor("every screen let go once its call completed") {
            await MainActor.run { ScreenSession.sessionsShowing } == 0
        }
    }
}
