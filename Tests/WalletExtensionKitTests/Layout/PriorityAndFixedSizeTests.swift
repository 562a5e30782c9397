import Foundation
import Testing
@testable import SwiftUI
@_spi(WalletHost) @testable import UIKit
import WalletWire

/// `.layoutPriority` and `.fixedSize` as Apple documents them, with frames computed by hand
/// from the SDK's text estimate (17 pt body text: 8.5 pt a character, 20.4 pt a line).
@MainActor
struct PriorityAndFixedSizeTests {
    struct Row: View {
        let priority: Double
        var body: some View {
            HStack(spacing: 0) {
                Color.red
                Text("Card number here").layoutPriority(priority)
            }
            .frame(width: 200, height: 50)
        }
    }

    @Test("a stack offers its higher-priority child the space first: the text on one line, the colour the rest")
    func priorityFirst() throws {
        // The frame is centred on the 390 x 844 screen's safe area (47...810): x 95.
        let screen = try DrawnScreen(presenting: UIHostingController(rootView: Row(priority: 1)))
        let text = try #require(screen.text("Card number here").first)
        let color = try #require(screen.nodes.first { $0.node.backgroundColor == "#FF3B30FF" }?.frame)
        // Offered all 200 first, the text takes its one line: 16 x 8.5 = 136; the colour gets 64.
        #expect(abs(text.width - 136) < 0.011 && abs(text.height - 20.4) < 0.011, "\(text)")
        #expect(abs(color.width - 64) < 0.011 && abs(color.x - 95) < 0.011, "\(color)")
        #expect(abs(text.x - (95 + 64)) < 0.011)

        // At equal priority the less flexible text is offered half, 100, and wraps.
        let equal = try DrawnScreen(presenting: UIHostingController(rootView: Row(priority: 0)))
        let wrapped = try #require(equal.text("Card number here").first)
        #expect(wrapped.width <= 100 && wrapped.height > 20.4, "\(wrapped)")
    }

    struct KeptBack: View {
        var body: some View {
            HStack(spacing: 0) {
                Color.red.frame(minWidth: 80)
                Text("Card number here").layoutPriority(1)
            }
            .frame(width: 200, height: 60)
        }
    }

    @Test("what a lower-priority child needs at least is kept back for it")
    func leastKeptBack() throws {
        let screen = try DrawnScreen(presenting: UIHostingController(rootView: KeptBack()))
        let text = try #require(screen.text("Card number here").first)
        let color = try #require(screen.nodes.first { $0.node.backgroundColor == "#FF3B30FF" }?.frame)
        #expect(text.width <= 120, "offered 200 - 80: \(text)")
        #expect(color.width >= 80, "\(color)")
    }

    struct Fixed: View {
        let horizontal: Bool
        var body: some View {
            Text("Pattern Bank Visa").fixedSize(horizontal: horizontal, vertical: true).frame(width: 60)
        }
    }

    @Test("fixedSize: the text at its ideal width past its 60 pt frame; on the vertical axis only, it wraps to the frame")
    func fixedSize() throws {
        let screen = try DrawnScreen(presenting: UIHostingController(rootView: Fixed(horizontal: true)))
        let text = try #require(screen.text("Pattern Bank Visa").first)
        // 17 x 8.5 = 144.5 wide, one line, centred in the 60 pt frame (itself centred at x 165).
        #expect(abs(text.width - 144.5) < 0.011 && abs(text.height - 20.4) < 0.011, "\(text)")
        #expect(abs(text.x - (165 + (60 - 144.5) / 2)) < 0.011, "\(text)")

        let wrapping = try DrawnScreen(presenting: UIHostingController(rootView: Fixed(horizontal: false)))
        let wrapped = try #require(wrapping.text("Pattern Bank Visa").first)
        #expect(wrapped.width <= 60 && wrapped.height >= 3 * 20.4 - 0.011, "three lines at least: \(wrapped)")
    }
}
