import Foundation
import Testing
@testable import SwiftUI
@_spi(WalletHost) @testable import UIKit
import WalletWire

/// A controller's screen as a test reads it: the form and the drawn tree the SDK sends, with
/// each view's frame on the screen.
@MainActor
struct DrawnScreen {
    let prompt: UIPromptParams
    let tree: ScreenTree
    /// Every node with its frame in screen coordinates, depth first.
    let nodes: [(node: ViewNode, frame: ViewNode.Frame)]

    /// Presents `controller` as Wallet does (appearance callbacks and the layout pass) and reads it.
    init(presenting controller: UIViewController) throws {
        controller.beginAppearance()
        try self.init(reading: controller)
    }

    /// Reads `controller` as it is now.
    init(reading controller: UIViewController) throws {
        let form = ScreenForm(controller: controller)
        prompt = form.prompt(drawing: controller)
        tree = try #require(prompt.screen)
        var nodes: [(ViewNode, ViewNode.Frame)] = []
        func walk(_ node: ViewNode, x: Double, y: Double) {
            let frame = ViewNode.Frame(x: x + node.frame.x, y: y + node.frame.y, width: node.frame.width, height: node.frame.height)
            nodes.append((node, frame))
            for child in node.children ?? [] { walk(child, x: frame.x, y: frame.y) }
        }
        walk(tree.root, x: 0, y: 0)
        self.nodes = nodes
    }

    /// The screen frame of the view editing field `name`.
    func field(_ name: String) throws -> ViewNode.Frame { try #require(nodes.first { $0.node.field == name }?.frame, "no field \(name)") }
    /// The screen frame of the view answering action `name`.
    func action(_ name: String) throws -> ViewNode.Frame { try #require(nodes.first { $0.node.action == name }?.frame, "no action \(name)") }
    /// The screen frames of the nodes showing `text`.
    func text(_ text: String) -> [ViewNode.Frame] { nodes.filter { $0.node.text == text }.map(\.frame) }
}

/// Frames equal to within 0.01 pt (the tree's precision).
func close(_ frame: ViewNode.Frame, _ x: Double, _ y: Double, _ width: Double, _ height: Double) -> Bool {
    abs(frame.x - x) < 0.011 && abs(frame.y - y) < 0.011 && abs(frame.width - width) < 0.011 && abs(frame.height - height) < 0.011
}
