import Foundation
import Testing
@_spi(WalletHost) @testable import UIKit
import WalletWire

/// A PIN pad as UIKit screens build it: a vertical stack of four horizontal stacks of keys,
/// every stack filling equally, in a frame the code sets.
private final class PINPadController: UIViewController {
    let pad = UIStackView()

    override func viewDidLoad() {
        super.viewDidLoad()
        pad.axis = .vertical
        pad.distribution = .fillEqually
        pad.spacing = 8
        let keys = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "", "0", "⌫"]
        for row in 0..<4 {
            let line = UIStackView()
            line.distribution = .fillEqually
            line.spacing = 8
            for key in keys[row * 3..<row * 3 + 3] {
                let button = UIButton(type: .system)
                button.setTitle(key, for: .normal)
                // Invisible but in place: a hidden arranged view would take no space.
                if key.isEmpty { button.alpha = 0 }
                line.addArrangedSubview(button)
            }
            pad.addArrangedSubview(line)
        }
        pad.frame = CGRect(x: 20, y: 400, width: 350, height: 344)
        view.addSubview(pad)
    }
}

/// A column with a hidden error label, a custom spacing and a centred button.
private final class ColumnController: UIViewController {
    let column = UIStackView()
    let heading = UILabel()
    let error = UILabel()
    let field = UITextField()
    let button = UIButton(type: .system)

    override func viewDidLoad() {
        super.viewDidLoad()
        heading.text = "Sign in"
        error.text = "Wrong password"
        error.isHidden = true
        field.placeholder = "Password"
        field.borderStyle = .roundedRect
        button.setTitle("Continue", for: .normal)
        [heading, error, field, button].forEach(column.addArrangedSubview)
        column.axis = .vertical
        column.alignment = .center
        column.spacing = 10
        column.setCustomSpacing(20, after: heading)
        column.frame = CGRect(x: 0, y: 100, width: 390, height: 300)
        view.addSubview(column)
    }
}

/// UIStackView's arrangement in the drawn screen. Expected frames are computed by hand from
/// Apple's documentation of UIStackView: `.fillEqually` makes the arranged views the same size
/// along the axis, `spacing` apart; `.fill` alignment stretches them across; a hidden arranged
/// view takes no space; `.center` centres each view across at its intrinsic size. A system
/// button's title is 15 pt (0.5 x 15 per character) and the button 30 pt tall.
@MainActor
@Suite("UIStackView layout: the drawn screen's frames")
struct StackViewLayoutTests {
    @Test("a PIN pad of stacks filling equally: 4 rows of (344 - 3 x 8) / 4 = 80, 3 keys of (350 - 2 x 8) / 3 wide")
    func pinPad() throws {
        let screen = try DrawnScreen(presenting: PINPadController())
        let keyWidth = (350.0 - 16) / 3
        for (index, key) in ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "⌫"].enumerated() {
            let slot = index < 9 ? index : index + 1
            let frame = try screen.action(key)
            #expect(close(frame, 20 + Double(slot % 3) * (keyWidth + 8), 400 + Double(slot / 3) * 88, keyWidth, 80), "key \(key): \(frame)")
        }
        #expect(screen.prompt.actions == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", "⌫"])
    }

    @Test("a centred column: the hidden label takes no space, the custom spacing after the heading")
    func centredColumn() throws {
        let screen = try DrawnScreen(presenting: ColumnController())
        // Heading "Sign in": 7 x 8.5 = 59.5 by 20.4, centred: x = (390 - 59.5) / 2.
        #expect(screen.text("Sign in").first.map { close($0, (390 - 59.5) / 2, 100, 59.5, 20.4) } == true, "\(screen.text("Sign in"))")
        // The field: "Password" 8 x 8.5 = 68 + 14 = 82 by 34.4, 20 below the heading.
        let field = try screen.field("password")
        #expect(close(field, (390 - 82) / 2, 140.4, 82, 34.4), "\(field)")
        // The button: "Continue" 8 x 7.5 = 60 wide, 10 below the field. With `.fill`, the room
        // left in the 300 pt column goes to the view hugging least, the last on a tie: the
        // button, 300 - 84.8 = 215.2 tall.
        let button = try screen.action("Continue")
        #expect(close(button, 165, 184.8, 60, 215.2), "\(button)")
        let error = try #require(screen.nodes.first { $0.node.text == "Wrong password" }?.node)
        #expect(error.hidden == true)
    }
}
