import Foundation
import Testing
@_spi(WalletHost) @testable import UIKit
import WalletWire

/// Issue 33, bug 7: buttons that show only an image were offered as "Button 1", "Button 2".
/// They are named by their accessibility label, else their SF Symbol or asset name.
@MainActor
struct ImageButtonNameTests {
    @Test("image-only buttons: accessibility label first, then the SF Symbol (a blank title does not count), then the old fallback")
    func imageButtonsAreNamed() {
        let controller = UIViewController()
        let labelled = UIButton(type: .system)
        labelled.setImage(UIImage(systemName: "faceid"), for: .normal)
        labelled.accessibilityLabel = "Sign in with Face ID"
        let close = UIButton(type: .system, primaryAction: UIAction(image: UIImage(systemName: "xmark")) { _ in })
        let blankTitle = UIButton(type: .custom)
        blankTitle.setTitle(" ", for: .normal)
        blankTitle.setImage(UIImage(systemName: "creditcard"), for: .normal)
        let configured = UIButton(configuration: .plain())
        configured.configuration?.image = UIImage(systemName: "questionmark.circle")
        let bare = UIButton(type: .custom)
        for button in [labelled, close, blankTitle, configured, bare] { controller.view.addSubview(button) }
        let form = ScreenForm(controller: controller)
        #expect(form.prompt.actions == ["Sign in with Face ID", "xmark", "creditcard", "questionmark.circle", "Button 5"])
        #expect(form.tap("xmark") == nil)
    }

    @Test("a close button and a navigation bar item that shows only an image are named too")
    func closeAndBarItems() {
        let controller = UIViewController()
        controller.view.addSubview(UIButton(type: .close))
        controller.navigationItem.rightBarButtonItem = UIBarButtonItem(title: nil, image: UIImage(systemName: "xmark.circle"),
                                                                        primaryAction: UIAction { _ in })
        #expect(ScreenForm(controller: controller).prompt.actions == ["Close", "xmark.circle"])
    }
}
