import Foundation
import Testing
@_spi(WalletHost) @testable import UIKit
import WalletWire

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
