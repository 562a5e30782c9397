import Foundation
import Testing
@testable import SwiftUI
@_spi(WalletHost) @testable import UIKit
import WalletWire

/// A login column as issuers write it.
private struct LoginColumn: View {
    @State private var username = ""
    @State private var password = ""

    var body: some View {
        VStack(spacing: 12) {
            TextField("Username", text: $username)
                .textFieldStyle(.roundedBorder)
            SecureField("Password", text: $password)
                .textFieldStyle(.roundedBorder)
            Button("Log In") {}
        }
        .padding()
    }
}

/// A PIN pad: rows of digit keys in a column, each key a fixed 72 pt circle.
private struct PINPad: View {
    var body: some View {
        VStack(spacing: 16) {
            ForEach(0..<3) { row in
                HStack(spacing: 24) {
                    ForEach(1..<4) { column in
                        Button("\(row * 3 + column)") {}
                            .frame(width: 72, height: 72)
                            .background(Circle().fill(Color.gray.opacity(0.2)))
                    }
                }
            }
        }
    }
}

/// Text, a spacer and a fixed frame in a row, colours and fonts on the drawn views.
private struct Banner: View {
    var body: some View {
        HStack {
            Text("Pattern Bank")
                .font(.headline)
                .foregroundColor(.white)
            Spacer()
            Image(systemName: "creditcard")
                .frame(width: 30, height: 20)
        }
        .padding(.horizontal, 20)
        .frame(maxWidth: .infinity, minHeight: 60)
        .background(Color.blue)
        .cornerRadius(12)
    }
}

/// SwiftUI's layout in the drawn screen. Expected frames are computed by hand from Apple's
/// documented layout process (a parent proposes a size, the child chooses its size, the parent
/// places it), with the SDK's numbers that docs/SDK.md gives: the safe area of the 390 x 844
/// screen is y 47 to 810; a rounded-border field is 34.4 pt tall (a 17 pt line of 20.4 plus 7
/// above and below); text is 0.5 x its size per character and 1.2 x its size per line.
@MainActor
@Suite("SwiftUI layout: the drawn screen's frames")
struct SwiftUILayoutTests {
    @Test("a column of two fields and a button: padded 16, centred in the safe area, the button centred in the column")
    func loginColumn() throws {
        let screen = try DrawnScreen(presenting: UIHostingController(rootView: LoginColumn()))
        #expect(screen.tree.size == ViewNode.Size(width: 390, height: 844))
        // The padding offers the column 390 - 32 = 358 wide. The fields take the width offered,
        // 34.4 tall; the button's label "Log In" is 6 x 8.5 = 51 by 20.4. The column is
        // 34.4 + 12 + 34.4 + 12 + 20.4 = 113.2 tall, the padded view 145.2, centred in the
        // safe area: y = 47 + (763 - 145.2) / 2 = 355.9; the column's top is 16 below.
        #expect(close(try screen.field("username"), 16, 371.9, 358, 34.4))
        #expect(close(try screen.field("password"), 16, 371.9 + 46.4, 358, 34.4))
        #expect(close(try screen.action("Log In"), 16 + (358 - 51) / 2, 371.9 + 92.8, 51, 20.4))
        let password = try #require(screen.nodes.first { $0.node.field == "password" }?.node)
        #expect(password.secure == true && password.kind == .textField && password.placeholder == "Password")
        #expect(password.cornerRadius == 5 && password.borderWidth == 0.5)
        // The form is as before: the tree only adds the drawing.
        #expect(screen.prompt.fields.map(\.name) == ["username", "password"])
        #expect(screen.prompt.actions == ["Log In"])
    }

    @Test("a PIN pad of HStacks in a VStack: fixed 72 pt keys, 24 apart across and 16 down, centred on the screen")
    func pinPad() throws {
        let screen = try DrawnScreen(presenting: UIHostingController(rootView: PINPad()))
        // A row is 3 x 72 + 2 x 24 = 264 wide and 72 tall; the pad 3 x 72 + 2 x 16 = 248 tall,
        // centred: x = (390 - 264) / 2 = 63, y = 47 + (763 - 248) / 2 = 304.5. The label "5"
        // (8.5 x 20.4) is centred in its 72 pt frame.
        for digit in 1...9 {
            let row = Double((digit - 1) / 3), column = Double((digit - 1) % 3)
            let key = try screen.action("\(digit)")
            #expect(close(key, 63 + column * 96 + (72 - 8.5) / 2, 304.5 + row * 88 + (72 - 20.4) / 2, 8.5, 20.4), "key \(digit): \(key)")
        }
        let circles = screen.nodes.filter { $0.node.kind == .shape }
        #expect(circles.count == 9)
        #expect(circles.first.map { close($0.frame, 63, 304.5, 72, 72) } == true)
        #expect(circles.first?.node.cornerRadius == 36)
        #expect(circles.first?.node.backgroundColor == "#8E8E9333", "systemGray at opacity 0.2")
    }

    @Test("a banner: text, a spacer and a fixed image in a row; an infinite max width; background, corners and font drawn")
    func banner() throws {
        let screen = try DrawnScreen(presenting: UIHostingController(rootView: Banner()))
        // The frame takes the whole width offered (390) and at least 60 tall; the padded row
        // (20 each side) is centred in it. Inside the 350 pt row: the text 12 x 17 x 0.55 = 112.2
        // wide (semibold headline), the image frame 30, the spacer the rest; 8 pt spacing.
        let title = try #require(screen.text("Pattern Bank").first)
        let bannerY = 47 + (763 - 60) / 2.0
        #expect(close(title, 20, bannerY + (60 - 20.4) / 2, 112.2, 20.4), "\(title)")
        let image = try #require(screen.nodes.first { $0.node.image?.symbol == "creditcard" })
        #expect(close(image.frame, 390 - 20 - 30 + (30 - 20.4) / 2, bannerY + (60 - 20.4) / 2, 20.4, 20.4), "\(image.frame)")
        let label = try #require(screen.nodes.first { $0.node.text == "Pattern Bank" }?.node)
        #expect(label.font == ViewNode.Font(size: 17, weight: "semibold") && label.textColor == "#FFFFFFFF")
        let background = try #require(screen.nodes.first { $0.node.backgroundColor == "#007AFFFF" })
        #expect(close(background.frame, 0, bannerY, 390, 60) && background.node.cornerRadius == 12)
    }
}

/// A full-width prominent button, as login screens have: the label's frame takes all the width.
private struct WideButton: View {
    var body: some View {
        Button {
        } label: {
            Text("Log In").frame(maxWidth: .infinity)
        }
        .buttonStyle(.borderedProminent)
        .padding(.horizontal, 20)
    }
}

@MainActor
@Suite("SwiftUI layout: a button sized by its label")
struct SwiftUIButtonLayoutTests {
    @Test("Text(...).frame(maxWidth: .infinity) in a .borderedProminent button: 350 wide, 20.4 + 14 tall, filled with the tint")
    func fullWidthButton() throws {
        let screen = try DrawnScreen(presenting: UIHostingController(rootView: WideButton()))
        // Offered 390 - 40 = 350; the label is offered 350 - 28 and takes it; the button adds the
        // padding back: 350 x 34.4, centred in the safe area.
        let button = try screen.action("Log In")
        #expect(close(button, 20, 47 + (763 - 34.4) / 2, 350, 34.4), "\(button)")
        #expect(screen.nodes.first { $0.node.action == "Log In" }?.node.backgroundColor == "#007AFFFF")
    }
}
