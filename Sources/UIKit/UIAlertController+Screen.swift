import Foundation
import WalletWire

/// An alert drawn as iOS draws one, for the `screen` of its `ui.prompt`: the screen dimmed
/// (black at 20 %), a 270 pt box with 14 pt corners centred on it; inside, 16 pt from the sides,
/// the title (17 pt semibold) 19 pt from the top and the message (13 pt) 2 pt under it, both
/// centred and wrapped; each text field 29 pt tall (13 pt text), 4 pt apart, 8 pt from the
/// box's sides, 16 pt under the text; then the buttons, 44 pt tall under a 1/3 pt separator:
/// two side by side (the cancel one on the left), otherwise one under another (the cancel one
/// last). The cancel or preferred button's title is semibold, a destructive one red. An action
/// sheet is drawn the same way. Each field carries its form name, each button its title.
extension UIAlertController {
    static let boxWidth: CGFloat = 270
    private static let textInset: CGFloat = 16, fieldInset: CGFloat = 8, fieldHeight: CGFloat = 29, buttonHeight: CGFloat = 44

    /// The alert as a ``ScreenTree`` at the screen's size.
    func drawnScreen() -> ScreenTree {
        var children: [ViewNode] = []
        var y: CGFloat = 19
        let textWidth = Self.boxWidth - 2 * Self.textInset
        for (text, font) in [(title, UIFont.systemFont(ofSize: 17, weight: .semibold)), (message, .systemFont(ofSize: 13))] {
            guard let text, !text.isEmpty else { continue }
            let size = TextMetrics.size(of: text, font: font, maxWidth: textWidth)
            var label = ViewNode(kind: .label, frame: ScreenTreeReader.frame(CGRect(x: Self.textInset, y: y, width: textWidth, height: size.height)))
            label.text = text
            label.font = ScreenTreeReader.font(font)
            label.textAlignment = "center"
            children.append(label)
            y += size.height + 2
        }
        y += 14
        for (field, name) in zip(fields, fieldNames) {
            children.append(fieldNode(field, name: name, y: y))
            y += Self.fieldHeight + 4
        }
        y += 12
        var separator = ViewNode(kind: .view, frame: ScreenTreeReader.frame(CGRect(x: 0, y: y, width: Self.boxWidth, height: 1.0 / 3)))
        separator.backgroundColor = ScreenTreeReader.hex(.separator)
        children.append(separator)
        let buttons = buttonNodes(top: y + 1.0 / 3)
        children += buttons
        let height = (buttons.map { $0.frame.y + $0.frame.height }.max() ?? Double(y))
        let screen = UIScreen.main.bounds.size
        var box = ViewNode(kind: .view, frame: ScreenTreeReader.frame(CGRect(x: (screen.width - Self.boxWidth) / 2, y: (screen.height - height) / 2,
                                                                             width: Self.boxWidth, height: height)), children: children)
        box.backgroundColor = ScreenTreeReader.hex(.secondarySystemBackground)
        box.cornerRadius = 14
        var root = ViewNode(kind: .view, frame: ViewNode.Frame(x: 0, y: 0, width: Double(screen.width), height: Double(screen.height)),
                            children: [box])
        root.backgroundColor = ScreenTreeReader.hex(UIColor.black.withAlphaComponent(0.2))
        return ScreenTree(size: ViewNode.Size(width: Double(screen.width), height: Double(screen.height)), root: root)
    }

    private func fieldNode(_ field: UITextField, name: String, y: CGFloat) -> ViewNode {
        let width = Self.boxWidth - 2 * Self.fieldInset
        var node = ViewNode(kind: .textField, frame: ScreenTreeReader.frame(CGRect(x: Self.fieldInset, y: y, width: width, height: Self.fieldHeight)))
        node.placeholder = field.placeholder
        if !field.isSecureTextEntry, let text = field.text, !text.isEmpty { node.text = text }
        if field.isSecureTextEntry { node.secure = true }
        node.font = ViewNode.Font(size: 13)
        node.backgroundColor = ScreenTreeReader.hex(.white)
        node.borderWidth = 0.5
        node.borderColor = ScreenTreeReader.hex(.opaqueSeparator)
        node.cornerRadius = 5
        node.field = name
        node.accessibilityIdentifier = field.accessibilityIdentifier
        return node
    }

    private func buttonNodes(top: CGFloat) -> [ViewNode] {
        var ordered = actions.filter { $0.style != .cancel }
        let cancel = actions.filter { $0.style == .cancel }
        let sideBySide = actions.count == 2
        ordered = sideBySide ? cancel + ordered : ordered + cancel
        let width = sideBySide ? Self.boxWidth / 2 : Self.boxWidth
        return ordered.enumerated().map { index, action in
            let frame = sideBySide
                ? CGRect(x: CGFloat(index) * width, y: top, width: width, height: Self.buttonHeight)
                : CGRect(x: 0, y: top + CGFloat(index) * Self.buttonHeight, width: width, height: Self.buttonHeight)
            var node = ViewNode(kind: .button, frame: ScreenTreeReader.frame(frame))
            node.text = action.title
            let emphasised = preferredAction.map { $0 === action } ?? (action.style == .cancel)
            node.font = ViewNode.Font(size: 17, weight: emphasised ? "semibold" : "regular")
            node.textColor = ScreenTreeReader.hex(action.style == .destructive ? .systemRed : .systemBlue)
            if !action.isEnabled { node.enabled = false }
            node.action = action.title
            return node
        }
    }
}
