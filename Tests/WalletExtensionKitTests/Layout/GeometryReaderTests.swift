import Foundation
import Testing
@testable import SwiftUI
@_spi(WalletHost) @testable import UIKit
import WalletWire

/// `GeometryReader`: its content built from the size it is given, at its top leading corner;
/// and UIKit's `convert(_:to:)`, which its global frame uses.
@MainActor
struct GeometryReaderTests {
    struct HalfWidth: View {
        var body: some View {
            VStack(spacing: 0) {
                Color.red.frame(height: 100)
                GeometryReader { proxy in
                    Text("reader \(Int(proxy.size.width))x\(Int(proxy.size.height)) at \(Int(proxy.frame(in: .global).minY))")
                    Color.blue.frame(width: proxy.size.width / 2, height: 40)
                }
                .frame(height: 200)
            }
        }
    }

    @Test("the content is built for the reader's laid-out size and sits at its top leading corner")
    func contentFromTheSize() throws {
        let screen = try DrawnScreen(presenting: UIHostingController(rootView: HalfWidth()))
        // The column (300 tall) is centred in the safe area: y = 47 + (763 - 300) / 2 = 278.5;
        // the reader is 390 x 200 below the 100 pt colour, at y 378.5.
        let label = try #require(screen.nodes.first { $0.node.text?.hasPrefix("reader ") == true })
        #expect(label.node.text == "reader 390x200 at 378", "\(label.node.text ?? "")")
        #expect(abs(label.frame.x) < 0.011 && abs(label.frame.y - 378.5) < 0.011, "\(label.frame)")
        let half = try #require(screen.nodes.first { $0.node.backgroundColor == "#007AFFFF" }?.frame)
        #expect(close(half, 0, 378.5, 195, 40), "\(half)")
        #expect(screen.prompt.message?.contains("reader 390x200") == true, "the form reads the content as laid out")
    }

    @Test("convert(_:to:) and convert(_:from:) through the frames to the screen and back")
    func convert() {
        let root = UIView(frame: CGRect(x: 0, y: 0, width: 390, height: 844))
        let card = UIView(frame: CGRect(x: 20, y: 100, width: 350, height: 200))
        let badge = UIView(frame: CGRect(x: 10, y: 15, width: 30, height: 30))
        root.addSubview(card)
        card.addSubview(badge)
        #expect(badge.convert(CGPoint(x: 1, y: 2), to: nil) == CGPoint(x: 31, y: 117))
        #expect(badge.convert(CGRect(x: 0, y: 0, width: 30, height: 30), to: card) == CGRect(x: 10, y: 15, width: 30, height: 30))
        #expect(card.convert(CGPoint(x: 31, y: 117), from: nil) == CGPoint(x: 11, y: 17))
        #expect(root.convert(CGPoint.zero, from: badge) == CGPoint(x: 30, y: 115))
    }
}
