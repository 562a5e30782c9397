import Foundation
import Testing
@_spi(WalletHost) @testable import UIKit
import WalletWire

/// A login screen laid out with anchors, as UIKit screens are: a logo centred under the status
/// bar at a fixed size, a stack of two fields and a button below it between the margins, a
/// wide button held in by required constraints, and a required constraint that conflicts.
private final class AnchoredLoginController: UIViewController {
    let logo = UIImageView()
    let form = UIStackView()
    let username = UITextField()
    let password = UITextField()
    let logIn = UIButton(type: .system)
    let help = UIButton(configuration: .filled())

    override func viewDidLoad() {
        super.viewDidLoad()
        logo.backgroundColor = .systemBlue
        username.placeholder = "Username"
        password.placeholder = "Password"
        password.isSecureTextEntry = true
        for field in [username, password] { field.borderStyle = .roundedRect }
        logIn.setTitle("Log In", for: .normal)
        help.setTitle("Help", for: .normal)
        [username, password, logIn].forEach(form.addArrangedSubview)
        form.axis = .vertical
        form.spacing = 12
        for subview in [logo, form, help] {
            subview.translatesAutoresizingMaskIntoConstraints = false
            view.addSubview(subview)
        }
        let wide = help.widthAnchor.constraint(equalToConstant: 600)
        wide.priority = .defaultHigh
        NSLayoutConstraint.activate([
            logo.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            logo.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 40),
            logo.widthAnchor.constraint(equalToConstant: 120),
            logo.heightAnchor.constraint(equalToConstant: 60),
            form.topAnchor.constraint(equalTo: logo.bottomAnchor, constant: 24),
            form.leadingAnchor.constraint(equalTo: view.layoutMarginsGuide.leadingAnchor),
            form.trailingAnchor.constraint(equalTo: view.layoutMarginsGuide.trailingAnchor),
            help.centerXAnchor.constraint(equalTo: view.centerXAnchor),
            help.leadingAnchor.constraint(greaterThanOrEqualTo: view.layoutMarginsGuide.leadingAnchor),
            help.trailingAnchor.constraint(lessThanOrEqualTo: view.layoutMarginsGuide.trailingAnchor),
            help.bottomAnchor.constraint(equalTo: view.safeAreaLayoutGuide.bottomAnchor, constant: -20),
            wide,
            // Conflicts with the 60 pt height above: UIKit breaks it and logs; so does the SDK.
            logo.heightAnchor.constraint(equalToConstant: 80),
        ])
    }
}

/// Auto Layout through the Cassowary solver. Expected frames are computed by hand from Apple's
/// Auto Layout rules: each constraint is `item1.attribute = multiplier x item2.attribute +
/// constant`; required constraints hold; a 750 constraint gives way to required ones; a view's
/// natural size holds where nothing else decides. The 390 x 844 screen's safe area starts at
/// y 47 and ends 34 pt above the bottom; a controller's root view has 16 pt side margins; a
/// rounded-rect field is 34.4 pt tall, a system button 30 pt, a configured one 34.4 pt.
@MainActor
@Suite("Auto Layout: constraints solved by Cassowary")
struct AutoLayoutTests {
    @Test("a logo pinned above a form: centred, under the safe area's top + 40, fixed size; the form between the margins")
    func logoAboveAForm() throws {
        let controller = AnchoredLoginController()
        let screen = try DrawnScreen(presenting: controller)
        // Logo: x = (390 - 120) / 2 = 135, y = 47 + 40 = 87, 120 x 60 (the conflicting 80 is broken).
        #expect(controller.logo.frame == CGRect(x: 135, y: 87, width: 120, height: 60))
        // Form: top = 87 + 60 + 24 = 171, x = 16, width = 390 - 32 = 358; its natural height
        // 34.4 + 12 + 34.4 + 12 + 30 = 122.8; the stack fills its width with each view.
        #expect(close(ViewNode.Frame(x: controller.form.frame.minX, y: controller.form.frame.minY, width: controller.form.frame.width,
                                     height: controller.form.frame.height), 16, 171, 358, 122.8), "\(controller.form.frame)")
        #expect(close(try screen.field("username"), 16, 171, 358, 34.4))
        #expect(close(try screen.field("password"), 16, 217.4, 358, 34.4))
        #expect(close(try screen.action("Log In"), 16, 263.8, 358, 30))
        // Help: 600 wide at priority 750 gives way to the margins: 358 wide, x 16; its bottom
        // 20 above the safe area's: y = 844 - 34 - 20 - 34.4 = 755.6.
        #expect(close(try screen.action("Help"), 16, 755.6, 358, 34.4))
        #expect(screen.nodes.first { $0.node.kind == .image }?.node.backgroundColor == "#007AFFFF")
    }

    @Test("UIKit's numbers: safe area insets from where a view is, margins of a root view and of other views")
    func safeAreaAndMargins() {
        let controller = UIViewController()
        controller.beginAppearance()
        #expect(controller.view.safeAreaInsets == UIEdgeInsets(top: 47, left: 0, bottom: 34, right: 0))
        #expect(controller.view.effectiveLayoutMargins == UIEdgeInsets(top: 47, left: 16, bottom: 34, right: 16))
        let inner = UIView(frame: CGRect(x: 0, y: 100, width: 390, height: 100))
        controller.view.addSubview(inner)
        #expect(inner.safeAreaInsets == .zero)
        #expect(inner.effectiveLayoutMargins == UIEdgeInsets(top: 8, left: 8, bottom: 8, right: 8))
    }
}

/// A controller in a navigation stack with a Cancel bar button and a field pinned under the bar.
private final class BarredController: UIViewController {
    let field = UITextField()

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Verify"
        navigationItem.leftBarButtonItem = UIBarButtonItem(systemItem: .cancel, primaryAction: UIAction { _ in })
        field.placeholder = "Code"
        field.borderStyle = .roundedRect
        field.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(field)
        NSLayoutConstraint.activate([
            field.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 20),
            field.leadingAnchor.constraint(equalTo: view.layoutMarginsGuide.leadingAnchor),
            field.trailingAnchor.constraint(equalTo: view.layoutMarginsGuide.trailingAnchor),
        ])
    }
}

@MainActor
@Suite("Navigation bar: drawn, tappable, and under it the safe area")
struct NavigationBarLayoutTests {
    @Test("the bar is 44 pt under the status bar, its Cancel the form's action; the safe area starts at 47 + 44 = 91")
    func barAndSafeArea() throws {
        let screen = try DrawnScreen(presenting: UINavigationController(rootViewController: BarredController()))
        #expect(screen.prompt.actions == ["Cancel"])
        // "Cancel" in 17 pt: 6 x 8.5 = 51 by 20.4, 16 pt from the left, centred in the bar.
        #expect(close(try screen.action("Cancel"), 16, 47 + (44 - 20.4) / 2, 51, 20.4))
        #expect(screen.text("Verify").count == 1)
        #expect(close(try screen.field("code"), 16, 111, 358, 34.4))
    }
}

/// A long multi-line label between the margins, and a button pinned under it.
private final class WrappingController: UIViewController {
    let note = UILabel()
    let button = UIButton(type: .system)

    override func viewDidLoad() {
        super.viewDidLoad()
        note.text = String(repeating: "Terms apply. ", count: 8)
        note.numberOfLines = 0
        button.setTitle("Accept", for: .normal)
        for subview in [note, button] {
            subview.translatesAutoresizingMaskIntoConstraints = false
            view.addSubview(subview)
        }
        NSLayoutConstraint.activate([
            note.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor),
            note.leadingAnchor.constraint(equalTo: view.layoutMarginsGuide.leadingAnchor),
            note.trailingAnchor.constraint(equalTo: view.layoutMarginsGuide.trailingAnchor),
            button.topAnchor.constraint(equalTo: note.bottomAnchor, constant: 8),
            button.leadingAnchor.constraint(equalTo: note.leadingAnchor),
        ])
    }
}

@MainActor
@Suite("Auto Layout: a label that wraps")
struct WrappingLabelLayoutTests {
    @Test("a 104-character label 358 pt wide wraps into 3 lines; the button below it moves down with them")
    func wrapsAndPushesDown() throws {
        let controller = WrappingController()
        _ = try DrawnScreen(presenting: controller)
        // 104 x 8.5 = 884 pt of text in 358 pt: ceil(884 / 358) = 3 lines of 20.4 = 61.2 pt.
        #expect(controller.note.frame == CGRect(x: 16, y: 47, width: 358, height: 20.4 * 3))
        #expect(abs(controller.button.frame.minY - (47 + 61.2 + 8)) < 0.001)
    }
}
