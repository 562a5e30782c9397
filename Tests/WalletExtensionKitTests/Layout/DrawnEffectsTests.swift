import Foundation
import Testing
@testable import SwiftUI
@_spi(WalletHost) @testable import UIKit
import WalletWire

/// Opacity, shadows and gradients reach the drawn screen (`ViewNode.opacity`, `shadow`,
/// `gradient`) from SwiftUI's modifiers and from a UIKit view's `alpha` and layer.
@MainActor
struct DrawnEffectsTests {
    struct CardArt: View {
        var body: some View {
            VStack {
                RoundedRectangle(cornerRadius: 12)
                    .fill(LinearGradient(colors: [.red, .blue], startPoint: .top, endPoint: .bottom))
                    .frame(width: 300, height: 190)
                    .shadow(color: .black, radius: 6, x: 0, y: 3)
                Text("Tap to continue").opacity(0.5)
                Button("Continue") {}
                Text("invisible").opacity(0)
            }
        }
    }

    @Test("SwiftUI: a gradient fill, a shadow and an opacity are drawn; an invisible view is left off the form")
    func swiftUIEffects() throws {
        let screen = try DrawnScreen(presenting: UIHostingController(rootView: CardArt()))
        let shape = try #require(screen.nodes.first { $0.node.kind == .shape }?.node)
        #expect(shape.gradient == ViewNode.Gradient(colors: ["#FF3B30FF", "#007AFFFF"], start: .init(x: 0.5, y: 0), end: .init(x: 0.5, y: 1)),
                "\(String(describing: shape.gradient))")
        #expect(shape.backgroundColor == "#FF3B30FF", "the first colour under the gradient, for what draws no gradient")
        let shadowed = try #require(screen.nodes.first { $0.node.shadow != nil }?.node)
        #expect(shadowed.shadow == ViewNode.Shadow(color: "#000000FF", radius: 6, x: 0, y: 3))
        let faded = try #require(screen.nodes.first { $0.node.opacity != nil && $0.node.opacity! > 0 })
        #expect(faded.node.opacity == 0.5)
        #expect(!(screen.prompt.message ?? "").contains("invisible"), "\(screen.prompt.message ?? "")")
        #expect(screen.prompt.message?.contains("Tap to continue") == true)
    }

    @Test("UIKit: alpha times the layer's opacity, and the layer's shadow with its opacity in the colour")
    func uiKitEffects() throws {
        let controller = UIViewController()
        let card = UIView(frame: CGRect(x: 20, y: 100, width: 300, height: 190))
        card.alpha = 0.8
        card.layer.opacity = 0.5
        card.layer.shadowColor = UIColor.black.cgColor
        card.layer.shadowOpacity = 0.2
        card.layer.shadowRadius = 8
        card.layer.shadowOffset = CGSize(width: 0, height: 4)
        let plain = UIView(frame: CGRect(x: 20, y: 300, width: 10, height: 10))
        let button = UIButton(primaryAction: UIAction(title: "Continue") { _ in })
        for subview in [card, plain, button] { controller.view.addSubview(subview) }
        let screen = try DrawnScreen(presenting: controller)
        let drawnCard = try #require(screen.nodes.first { $0.frame.width == 300 && $0.frame.height == 190 }?.node)
        #expect(drawnCard.opacity.map { abs($0 - 0.4) < 1e-9 } == true, "\(String(describing: drawnCard.opacity))")
        #expect(drawnCard.shadow == ViewNode.Shadow(color: "#00000033", radius: 8, x: 0, y: 4))
        let drawnPlain = try #require(screen.nodes.first { $0.frame.width == 10 && $0.frame.height == 10 }?.node)
        #expect(drawnPlain.opacity == nil && drawnPlain.shadow == nil && drawnPlain.gradient == nil, "an opaque plain view says nothing")
    }

    @Test("UIKit: a CAGradientLayer sublayer is the view's gradient, left to right as its points say")
    func gradientLayer() throws {
        let controller = UIViewController()
        let banner = UIView(frame: CGRect(x: 0, y: 100, width: 390, height: 120))
        let gradient = CAGradientLayer()
        gradient.colors = [UIColor.systemGreen.cgColor, UIColor.systemBlue.cgColor]
        gradient.startPoint = CGPoint(x: 0, y: 0.5)
        gradient.endPoint = CGPoint(x: 1, y: 0.5)
        gradient.frame = banner.bounds
        banner.layer.insertSublayer(gradient, at: 0)
        #expect(gradient.superlayer === banner.layer && banner.layer.sublayers?.count == 1)
        controller.view.addSubview(banner)
        controller.view.addSubview(UIButton(primaryAction: UIAction(title: "Continue") { _ in }))
        let screen = try DrawnScreen(presenting: controller)
        let drawn = try #require(screen.nodes.first { $0.frame.width == 390 && $0.frame.height == 120 }?.node)
        #expect(drawn.gradient == ViewNode.Gradient(colors: [ScreenTreeReader.hex(.systemGreen), ScreenTreeReader.hex(.systemBlue)],
                                                    start: .init(x: 0, y: 0.5), end: .init(x: 1, y: 0.5)))
        gradient.removeFromSuperlayer()
        #expect(banner.layer.sublayers?.isEmpty == true && gradient.superlayer == nil)
    }

    @Test("non-finite numbers never reach the tree: it still encodes as JSON")
    func nonFiniteNumbers() throws {
        let controller = UIViewController()
        let odd = UIView(frame: CGRect(x: CGFloat.nan, y: 10, width: CGFloat.infinity, height: 20))
        odd.layer.shadowOpacity = 1
        odd.layer.shadowRadius = .nan
        let gradient = CAGradientLayer()
        gradient.colors = [UIColor.red.cgColor, UIColor.blue.cgColor]
        gradient.endPoint = CGPoint(x: CGFloat.infinity, y: 1)
        odd.layer.addSublayer(gradient)
        controller.view.addSubview(odd)
        controller.view.addSubview(UIButton(primaryAction: UIAction(title: "Continue") { _ in }))
        let screen = try DrawnScreen(reading: controller)
        _ = try JSONEncoder().encode(screen.tree)
        let node = try #require(screen.nodes.first { $0.node.frame.y == 10 && $0.node.frame.height == 20 }?.node)
        #expect(node.frame.x == 0 && node.frame.width == 0 && node.shadow == nil && node.gradient == nil)
    }
}

