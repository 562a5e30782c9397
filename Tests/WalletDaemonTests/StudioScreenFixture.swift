import Foundation
import WalletTestSupport
import WalletWire

/// A sign-in screen built by hand as the SDK lays one out (`ScreenTree`): a logo, a title, two
/// fields, a switch, a label whose text is markup, and a Log In button, inside a form view at
/// (20, 200). The page must draw it at these frames and find its fields and buttons by the
/// form's names.
enum StudioScreenFixture {
    /// A label's text that a page rendering HTML would turn into elements.
    static let hostileText = #"<img src=x onerror="window.pwned = 3"><b>bold?</b>"#

    static var signIn: UIPromptParams {
        func node(_ kind: ViewNode.Kind, _ x: Double, _ y: Double, _ width: Double, _ height: Double,
                  _ configure: (inout ViewNode) -> Void = { _ in }) -> ViewNode {
            var view = ViewNode(kind: kind, frame: .init(x: x, y: y, width: width, height: height))
            configure(&view)
            return view
        }
        let form = node(.view, 20, 200, 350, 300) { form in
            form.children = [
                node(.label, 0, 0, 350, 40) { $0.text = "Sign in"; $0.font = .init(size: 28, weight: "bold") },
                node(.textField, 0, 76, 350, 44) { $0.placeholder = "Username"; $0.field = "username" },
                node(.textField, 0, 132, 350, 44) { $0.placeholder = "Password"; $0.field = "password"; $0.secure = true },
                node(.toggle, 0, 190, 51, 31) { $0.field = "remember"; $0.isOn = true },
                node(.label, 60, 190, 290, 31) { $0.text = hostileText; $0.accessibilityIdentifier = "hostile" },
                node(.button, 0, 240, 350, 50) {
                    $0.text = "Log In"; $0.action = "Log In"; $0.backgroundColor = "#007AFFFF"; $0.textColor = "#FFFFFFFF"
                    $0.cornerRadius = 12; $0.font = .init(size: 17, weight: "semibold")
                },
            ]
        }
        let logo = node(.image, 145, 80, 100, 100) { $0.image = .init(png: TestPNG.make(width: 100, height: 100).base64EncodedString()) }
        let root = node(.view, 0, 0, 390, 844) { $0.backgroundColor = "#FFFFFFFF"; $0.children = [logo, form] }
        return UIPromptParams(title: "Sign in", fields: [.init(name: "username", label: "Username"),
                                                         .init(name: "password", label: "Password", secure: true),
                                                         .init(name: "remember", label: "Remember me (yes/no)")],
                              actions: ["Log In", "Cancel"], screen: ScreenTree(size: .init(width: 390, height: 844), root: root))
    }
}

extension StudioScreenFixture {
    /// A one-time-code screen as the SDK sends it: a field and no button, so the form's one
    /// action is the keyboard's return key ("Go"), which has no view in the tree.
    static var code: UIPromptParams {
        var field = ViewNode(kind: .textField, frame: .init(x: 20, y: 200, width: 350, height: 44))
        field.placeholder = "Code"
        field.field = "code"
        var card = ViewNode(kind: .shape, frame: .init(x: 45, y: 60, width: 300, height: 120))
        card.accessibilityIdentifier = "card"
        card.cornerRadius = 12
        card.backgroundColor = "#FF3B30FF"
        card.gradient = .init(colors: ["#FF3B30FF", "#007AFFFF"], start: .init(x: 0.5, y: 0), end: .init(x: 0.5, y: 1))
        card.shadow = .init(color: "#00000033", radius: 8, x: 0, y: 4)
        card.opacity = 0.5
        var root = ViewNode(kind: .view, frame: .init(x: 0, y: 0, width: 390, height: 844))
        root.children = [card, field]
        return UIPromptParams(title: "Enter your code", fields: [.init(name: "code", label: "Code")], actions: ["Go"],
                              screen: ScreenTree(size: .init(width: 390, height: 844), root: root))
    }
}
