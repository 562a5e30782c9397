import Foundation
import Testing
@testable import SwiftUI
@_spi(WalletHost) @testable import UIKit
@testable import WalletExtensionKit
@testable import WalletExtensionRuntime
import WalletTestSupport
import WalletWire

/// A one-time-code screen as issuers write it: a field and no button; the keyboard's Go key
/// checks the code (`textFieldShouldReturn`). Before the return key was offered, such a
/// screen was never sent and `authorize` waited forever.
final class CodeByReturnKeyController: UIViewController, UITextFieldDelegate, PKIssuerProvisioningExtensionAuthorizationProviding {
    var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)?
    let code = UITextField()
    var returns: [String] = []
    var refuseReturn = false

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Enter your code"
        code.placeholder = "Code"
        code.returnKeyType = .go
        code.delegate = self
        view.addSubview(code)
    }

    func textFieldShouldReturn(_ textField: UITextField) -> Bool {
        guard !refuseReturn else { return false }
        returns.append(textField.text ?? "")
        completionHandler?(textField.text == "123456" ? .authorized : .canceled)
        return true
    }
}

/// A code screen that goes on by itself once six digits are typed: no key to press after.
final class CodeBySixDigitsController: UIViewController, PKIssuerProvisioningExtensionAuthorizationProviding {
    var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)?

    override func viewDidLoad() {
        super.viewDidLoad()
        let code = UITextField()
        code.placeholder = "Code"
        code.addAction(UIAction { [weak self, weak code] _ in
            guard let text = code?.text, text.count == 6 else { return }
            code?.removeFromSuperview()
            self?.completionHandler?(text == "123456" ? .authorized : .canceled)
        }, for: .editingChanged)
        view.addSubview(code)
    }
}

@MainActor
struct ReturnKeyFormTests {
    @Test("a screen with a field and no button offers the field's return key, titled as the keyboard titles it")
    func returnKeyIsTheAction() {
        let screen = CodeByReturnKeyController()
        screen.loadViewIfNeeded()
        let form = ScreenForm(controller: screen)
        #expect(form.prompt.actions == ["Go"])
        #expect(form.isReady)
        form.fill(from: UIPromptResult(action: "Go", values: ["code": "123456"]))
        #expect(ScreenForm(controller: screen).tap("Go") == nil)
        #expect(screen.returns == ["123456"])
    }

    @Test("a delegate that refuses the return key gets no editingDidEndOnExit or primary action")
    func refusedReturnSendsNothing() {
        let screen = CodeByReturnKeyController()
        screen.refuseReturn = true
        screen.loadViewIfNeeded()
        var exits = 0
        screen.code.addAction(UIAction { _ in exits += 1 }, for: [.editingDidEndOnExit, .primaryActionTriggered])
        screen.code.pressReturn()
        #expect(exits == 0 && screen.returns.isEmpty)
        screen.refuseReturn = false
        screen.code.pressReturn()
        #expect(exits == 1 && screen.returns == [""])
    }

    @Test("a screen with a button keeps its buttons only: no return key beside them")
    func buttonsWin() {
        let controller = UIViewController()
        let field = UITextField()
        field.placeholder = "Code"
        let verify = UIButton(primaryAction: UIAction(title: "Verify") { _ in })
        for subview in [field, verify] { controller.view.addSubview(subview) }
        #expect(ScreenForm(controller: controller).prompt.actions == ["Verify"])
    }

    struct CodeView: View {
        @State var code = ""
        let submitted: (String) -> Void
        var body: some View {
            VStack {
                Text("Enter the code we sent")
                TextField("Code", text: $code).submitLabel(.done).onSubmit { submitted("field: \(code)") }
            }
            .onSubmit { submitted("stack: \(code)") }
        }
    }

    @Test("SwiftUI: .submitLabel titles the return key and .onSubmit runs on it, the field's own first")
    func swiftUIOnSubmit() {
        var submitted: [String] = []
        let host = UIHostingController(rootView: CodeView { submitted.append($0) })
        host.loadViewIfNeeded()
        let form = ScreenForm(controller: host)
        #expect(form.prompt.actions == ["Done"])
        form.fill(from: UIPromptResult(action: "Done", values: ["code": "4321"]))
        host.updateBeforeTap()
        #expect(ScreenForm(controller: host).tap("Done") == nil)
        #expect(submitted == ["field: 4321", "stack: 4321"])
    }
}

/// The return key through a real runtime's screen session: `authorize` completes.
/// In the serialized suite of concurrent screens: the process-wide runtime is shared.
extension ConcurrentScreensTests {
    private func authorize(_ principal: String, code: String) async throws
        -> (prompt: JSONValue, result: String?) {
        let harness = RuntimeHarness(registered: [.authorizationController { CodeByReturnKeyController() },
                                                  .authorizationController { CodeBySixDigitsController() }])
        ExtensionRuntime.current.withLock { $0 = harness.runtime }
        defer { ExtensionRuntime.current.withLock { $0 = nil } }
        harness.initialize(principalClass: principal)
        harness.send(#"{"jsonrpc":"2.0","id":2,"method":"authorize","params":{}}"#)
        func prompts() -> [JSONValue] { harness.output.messages.filter { $0["method"] == .string(WireMethod.uiPrompt) } }
        try await waitFor("the code screen's ui.prompt") { !prompts().isEmpty }
        let prompt = try #require(prompts().first)
        var chosen = ""
        if case .array(let actions)? = prompt["params"]?["actions"] { chosen = actions.first?.stringValue ?? "" }
        let id = String(decoding: try JSONEncoder().encode(try #require(prompt["id"])), as: UTF8.self)
        harness.send(#"{"jsonrpc":"2.0","id":\#(id),"result":{"action":"\#(chosen)","values":{"code":"\#(code)"}}}"#)
        let answers = await harness.output.messages(id: .integer(2))
        return (prompt, answers.first?["result"]?["result"]?.stringValue)
    }

    @Test("a code screen with no button is shown with its Go key, and pressing it authorizes")
    func codeScreenByReturnKey() async throws {
        let (prompt, result) = try await authorize("CodeByReturnKeyController", code: "123456")
        #expect(prompt["params"]?["actions"] == .array([.string("Go")]))
        #expect(result == "authorized")
    }

    @Test("a code screen that goes on by itself once typed completes; the return key is not pressed after")
    func codeScreenBySixDigits() async throws {
        let (prompt, result) = try await authorize("CodeBySixDigitsController", code: "123456")
        #expect(prompt["params"]?["actions"] == .array([.string("Return")]))
        #expect(result == "authorized")
    }
}
