import CoreGraphics
import Foundation
import Testing
@_spi(WalletHost) @testable import UIKit
import WalletWire

/// An image, a disabled button, a secure field with text and a hidden view with children.
private final class MixedScreen: UIViewController {
    let small = UIImageView()
    let large = UIImageView()
    static let smallPNG = PNGEncoder.encode(width: 2, height: 2, colorType: .rgba, pixels: [UInt8](repeating: 200, count: 16))

    override func viewDidLoad() {
        super.viewDidLoad()
        small.image = UIImage(data: Self.smallPNG)
        small.frame = CGRect(x: 10, y: 60, width: 2, height: 2)
        // Noise does not compress: well over the 512 KB a screen's images may take.
        var state: UInt32 = 1
        let pixels = (0..<(600 * 300 * 4)).map { _ -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        large.image = UIImage(data: PNGEncoder.encode(width: 600, height: 300, colorType: .rgba, pixels: pixels))
        large.frame = CGRect(x: 0, y: 100, width: 200, height: 100)
        let password = UITextField(frame: CGRect(x: 16, y: 220, width: 358, height: 34))
        password.placeholder = "Password"
        password.isSecureTextEntry = true
        password.text = "hunter2"
        let go = UIButton(type: .system)
        go.setTitle("Go", for: .normal)
        go.isEnabled = false
        go.frame = CGRect(x: 16, y: 270, width: 100, height: 30)
        let hidden = UIView(frame: CGRect(x: 0, y: 320, width: 100, height: 100))
        hidden.isHidden = true
        hidden.addSubview(UILabel())
        let symbol = UIImageView(image: UIImage(systemName: "faceid"))
        symbol.frame = CGRect(x: 300, y: 60, width: 20, height: 20)
        [small, large, password, go, hidden, symbol].forEach(view.addSubview)
    }
}

@MainActor
@Suite("The drawn screen's views: images, state, alerts")
struct ScreenTreeReaderTests {
    @Test("PNG bytes for a small image, none past the budget, a symbol by name; a secure field's text stays; hidden views childless")
    func imagesAndState() throws {
        let screen = try DrawnScreen(presenting: MixedScreen())
        let images = screen.nodes.filter { $0.node.kind == .image }.map(\.node.image)
        #expect(images.count == 3)
        #expect(images[0]?.png == MixedScreen.smallPNG.base64EncodedString())
        #expect(images[1] == nil, "an image past the screen's budget is not sent")
        #expect(images[2] == ViewNode.Image(symbol: "faceid"))
        let field = try #require(screen.nodes.first { $0.node.field == "password" }?.node)
        #expect(field.text == nil && field.secure == true && field.placeholder == "Password")
        let button = try #require(screen.nodes.first { $0.node.action == "Go" }?.node)
        #expect(button.enabled == false && button.textColor == "#3C3C434D", "a disabled system button is grey")
        let hidden = try #require(screen.nodes.first { $0.node.hidden == true }?.node)
        #expect(hidden.children == nil)
        #expect(try JSONEncoder().encode(screen.tree).count < 700_000)
    }

    @Test("the sample issuer's alert: a 270 pt box centred on the dimmed screen, its fields and buttons named as the form's")
    func sampleAlert() throws {
        let alert = UIAlertController(title: "Sign in to Sample Issuer", message: nil, preferredStyle: .alert)
        alert.addTextField { $0.placeholder = "Username" }
        alert.addTextField {
            $0.placeholder = "Password"
            $0.isSecureTextEntry = true
        }
        for (title, style) in [("Log In", UIAlertAction.Style.default), ("Use Face ID", .default), ("Cancel", .cancel)] {
            alert.addAction(UIAlertAction(title: title, style: style))
        }
        let prompt = alert.promptForm
        let tree = try #require(prompt.screen)
        let box = try #require(tree.root.children?.first)
        let children = box.children ?? []
        #expect(children.compactMap(\.field) == prompt.fields.map(\.name))
        #expect(children.compactMap(\.action) == ["Log In", "Use Face ID", "Cancel"])
        #expect(Set(children.compactMap(\.action)) == Set(prompt.actions))
        // By hand from the documented numbers: the title, 24 x 17 x 0.55 = 224.4 wide, fits on
        // one 20.4 pt line at y 19; the fields at 19 + 20.4 + 2 + 14 = 55.4 and 88.4; the
        // separator at 88.4 + 29 + 4 + 12 = 133.4; three buttons stacked, 44 pt each, below it.
        #expect(children.first { $0.field == "username" }?.frame == ViewNode.Frame(x: 8, y: 55.4, width: 254, height: 29))
        #expect(children.first { $0.action == "Cancel" }.map { abs($0.frame.y - (133.4 + 1.0 / 3 + 88)) < 0.01 } == true)
        let height = 133.4 + 1.0 / 3 + 132
        #expect(abs(box.frame.y - (844 - height) / 2) < 0.01 && box.frame.x == 60 && box.frame.width == 270)
        #expect(children.first { $0.action == "Cancel" }?.font?.weight == "semibold")
    }
}
