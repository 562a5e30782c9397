import Foundation
import Testing
@_spi(WalletHost) @testable import UIKit
@testable import WalletExtensionKit
@testable import WalletExtensionRuntime
import WalletTestSupport
import WalletWire

/// The storyboard-only UI extension of StoryboardImportTests' fixture: its class as the issuer
/// wrote it; its views come from the storyboard, through GeneratedStoryboardScene.swift.
final class ActionViewController: UIViewController, PKIssuerProvisioningExtensionAuthorizationProviding {
    var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)?
    var titleLabel: UILabel!

    @IBAction func continueTapped(_ sender: Any) { completionHandler?(titleLabel != nil ? .authorized : .canceled) }
    @IBAction func cancel(sender: UIButton) { completionHandler?(.canceled) }
}

extension ConcurrentScreensTests {
    @Test("a storyboard-only UI extension imported from an Xcode project shows its screen, and Continuar authorizes")
    func importedStoryboardShowsItsScreen() async throws {
        await MainActor.run { registerStoryboardScenes() }
        let harness = RuntimeHarness(registered: [.authorizationController { ActionViewController() }])
        ExtensionRuntime.current.withLock { $0 = harness.runtime }
        defer { ExtensionRuntime.current.withLock { $0 = nil } }
        harness.initialize(principalClass: "ActionViewController")
        harness.send(#"{"jsonrpc":"2.0","id":2,"method":"authorize","params":{}}"#)
        func prompts() -> [JSONValue] { harness.output.messages.filter { $0["method"] == .string(WireMethod.uiPrompt) } }
        try await waitFor("the storyboard scene's ui.prompt") { !prompts().isEmpty }
        let prompt = try #require(prompts().first)
        #expect(prompt["params"]?["message"]?.stringValue == "Agregar \"tarjeta\"")
        #expect(prompt["params"]?["actions"] == .array([.string("Continuar"), .string("Cancelar")]))
        let fields: [JSONValue]
        if case .array(let listed)? = prompt["params"]?["fields"] { fields = listed } else { fields = [] }
        #expect(fields.first?["secure"] == .bool(true) && fields.first?["name"] == .string("pin"), "\(prompt)")
        let id = try #require(prompt["id"])
        let idText = try #require(String(data: JSONEncoder().encode(id), encoding: .utf8))
        harness.send(#"{"jsonrpc":"2.0","id":\#(idText),"result":{"action":"Continuar","values":{"pin":"1234"}}}"#)
        let answers = await harness.output.messages(id: .integer(2))
        #expect(answers.first?["result"]?["result"]?.stringValue == "authorized", "\(answers)")
    }
}

/// A storyboard controller as issuers write it, outlets as plain `var`s (`@IBOutlet` needs
/// Objective-C) and `@IBAction` methods; its scene registered the way import's generated
/// `StoryboardScenes.swift` does.
final class StoryboardApprovalController: UIViewController {
    var titleLabel: UILabel!
    var taps: [String] = []
    var loadedTitle: String?

    override func viewDidLoad() {
        super.viewDidLoad()
        loadedTitle = titleLabel?.text
    }

    @IBAction func continueTapped(_ sender: Any) { taps.append("continue") }
    @IBAction func cancel(sender: UIButton) { taps.append("cancel \(sender.currentTitle ?? "")") }
}

/// Issue 33, bug 3: a storyboard-only UI extension shows its screen once import carried the
/// storyboard's scene: `loadView` builds it before `viewDidLoad`, outlets set, actions wired.
@MainActor
struct StoryboardSceneTests {
    @Test("the registered scene is the controller's view: outlets set before viewDidLoad, buttons run the actions")
    func sceneIsTheScreen() {
        StoryboardScenes.register(StoryboardApprovalController.self, storyboard: "MainInterface") { controller in
            let view0 = UIView()
            let view1 = UILabel()
            view1.text = "Agregar tarjeta"
            view0.addSubview(view1)
            let view2 = UIButton(type: .system)
            view2.setTitle("Continuar", for: .normal)
            view2.addAction(UIAction { [unowned controller, unowned view2] _ in controller.continueTapped(view2) }, for: .touchUpInside)
            view0.addSubview(view2)
            let view3 = UIButton(type: .system)
            view3.setTitle("Cancelar", for: .normal)
            view3.addAction(UIAction { [unowned controller, unowned view3] _ in controller.cancel(sender: view3) }, for: .touchUpInside)
            view0.addSubview(view3)
            controller.titleLabel = view1
            return view0
        }
        let controller = StoryboardApprovalController()
        controller.loadViewIfNeeded()
        #expect(controller.loadedTitle == "Agregar tarjeta")
        let form = ScreenForm(controller: controller)
        #expect(form.prompt.message == "Agregar tarjeta")
        #expect(form.prompt.actions == ["Continuar", "Cancelar"])
        #expect(form.tap("Cancelar") == nil && form.tap("Continuar") == nil)
        #expect(controller.taps == ["cancel Cancelar", "continue"])
        #expect(StoryboardScenes.storyboard(of: StoryboardApprovalController.self) == "MainInterface")
        #expect(UIViewController().view.subviews.isEmpty, "a controller without a scene gets an empty view")
    }
}
