import Foundation
import WalletWire

/// The screen as the extension laid it out (``ScreenTree``), read from the shown controller's
/// view hierarchy after its layout pass, beside the form (``ScreenForm``) read from the same views.
///
/// Each view becomes a ``ViewNode`` with its frame in its superview's coordinates and what a page
/// needs to draw it: text, font, colours, corner radius, border, image, state. A text field or
/// switch carries the form's field name and a button the form's action name, by the view's
/// identity, so that a tap on a drawn button answers with that action and the text typed into a
/// drawn field is that field's value. Defaults are left out, and so are a hidden view's children.
///
/// Images: an SF Symbol goes by name; other images as their PNG bytes while the screen's images
/// stay under ``imageBudget`` (a screen is sent on every change), larger ones by name only.
@MainActor
struct ScreenTreeReader {
    /// The PNG bytes one screen may carry, all images together.
    static let imageBudget = 512 * 1024

    private let fieldNames: [ObjectIdentifier: String]
    private let actionNames: [ObjectIdentifier: String]
    private let title: String
    private var imageBytesLeft = Self.imageBudget

    /// A reader naming fields and actions as `form` does.
    init(form: ScreenForm) {
        fieldNames = form.namesByView.fields
        actionNames = form.namesByView.actions
        title = form.title
    }

    /// The tree of `controller`'s view at the screen's size; its root at (0, 0).
    mutating func tree(of controller: UIViewController) -> ScreenTree {
        let screen = UIScreen.main.bounds.size
        var root = ViewNode(kind: .view, frame: ViewNode.Frame(x: 0, y: 0, width: 0, height: 0))
        if let view = controller.viewIfLoaded {
            root = node(of: view)
            root.frame.x = 0
            root.frame.y = 0
        }
        if let bar = controller.drawnNavigationBar(actions: actionNames, title: title) {
            root.children = (root.children ?? []) + [bar]
        }
        return ScreenTree(size: ViewNode.Size(width: Double(screen.width), height: Double(screen.height)), root: root)
    }

    /// `view` and its subviews as nodes.
    mutating func node(of view: UIView) -> ViewNode {
        var node = ViewNode(kind: view.drawnKind ?? .view, frame: Self.frame(view.frame))
        describeCommon(view, into: &node)
        switch view {
        case let label as UILabel: describe(label, into: &node)
        case let field as UITextField: describe(field, into: &node)
        case let toggle as UISwitch: describe(toggle, into: &node)
        case let button as UIButton: describe(button, into: &node)
        case let imageView as UIImageView:
            node.kind = .image
            node.image = image(imageView.image)
        case let spinner as UIActivityIndicatorView:
            node.kind = .progress
            if !spinner.isAnimating && spinner.hidesWhenStopped { node.hidden = true }
            node.tintColor = spinner.color.map(Self.hex)
        case is UIScrollView: node.kind = .scroll
        default: break
        }
        if view is UIControl, let control = view as? UIControl, !control.isEnabled { node.enabled = false }
        guard node.hidden != true, !(view is UIButton) else { return node }
        let children = view.subviews.map { self.node(of: $0) }
        if !children.isEmpty { node.children = children }
        return node
    }

    private func describeCommon(_ view: UIView, into node: inout ViewNode) {
        if view.isHidden || view.alpha <= 0 { node.hidden = true }
        let background = view.backgroundColor ?? view.layer.backgroundColor.map { UIColor(cgColor: $0) }
        if let background, background.alpha > 0 { node.backgroundColor = Self.hex(background) }
        if view.layer.cornerRadius > 0 { node.cornerRadius = Double(view.layer.cornerRadius) }
        let opacity = Double(view.alpha) * Double(view.layer.opacity)
        if opacity < 1 { node.opacity = max(0, opacity) }
        node.shadow = Self.shadow(of: view.layer)
        node.gradient = view.drawnGradient ?? Self.gradient(of: view.layer)
        if view.layer.borderWidth > 0 {
            node.borderWidth = Double(view.layer.borderWidth)
            node.borderColor = Self.hex(view.layer.borderColor.map { UIColor(cgColor: $0) } ?? .black)
        }
        node.accessibilityLabel = view.accessibilityLabel
        node.accessibilityIdentifier = view.accessibilityIdentifier
    }

    /// The first axial `CAGradientLayer` among the layer's sublayers, as the drawn gradient.
    static func gradient(of layer: CALayer) -> ViewNode.Gradient? {
        guard let gradient = layer.sublayers?.lazy.compactMap({ $0 as? CAGradientLayer }).first(where: { $0.type == .axial }) else {
            return nil
        }
        let colors = (gradient.colors ?? []).compactMap { color -> String? in
            guard let color = color as? CGColor else { return (color as? UIColor).map(hex) }
            return hex(UIColor(cgColor: color))
        }
        let points = [gradient.startPoint.x, gradient.startPoint.y, gradient.endPoint.x, gradient.endPoint.y]
        guard colors.count > 1, points.allSatisfy(\.isFinite) else { return nil }
        return ViewNode.Gradient(colors: colors, start: ViewNode.UnitPoint(x: Double(gradient.startPoint.x), y: Double(gradient.startPoint.y)),
                                 end: ViewNode.UnitPoint(x: Double(gradient.endPoint.x), y: Double(gradient.endPoint.y)))
    }

    /// The layer's shadow, with its opacity in the colour's alpha; nil while it is invisible.
    static func shadow(of layer: CALayer) -> ViewNode.Shadow? {
        // A NaN or infinite number would make the whole prompt unencodable: no shadow then.
        guard layer.shadowOpacity > 0, layer.shadowRadius.isFinite, layer.shadowOffset.width.isFinite,
              layer.shadowOffset.height.isFinite else { return nil }
        let color = layer.shadowColor.map { UIColor(cgColor: $0) } ?? .black
        let faded = color.withAlphaComponent(color.alpha * CGFloat(min(layer.shadowOpacity, 1)))
        return ViewNode.Shadow(color: hex(faded), radius: Double(layer.shadowRadius),
                               x: Double(layer.shadowOffset.width), y: Double(layer.shadowOffset.height))
    }

    private func describe(_ label: UILabel, into node: inout ViewNode) {
        node.kind = .label
        node.text = label.text
        node.font = Self.font(label.font)
        if let color = label.textColor, Self.hex(color) != Self.hex(.label) { node.textColor = Self.hex(color) }
        node.textAlignment = Self.alignment(label.textAlignment)
    }

    private func describe(_ field: UITextField, into node: inout ViewNode) {
        node.kind = .textField
        // A password's characters stay in the extension: the page shows what the user types.
        if !field.isSecureTextEntry, let text = field.text, !text.isEmpty { node.text = text }
        node.placeholder = field.placeholder
        node.font = Self.font(field.font ?? .systemFont(ofSize: 17))
        node.textColor = field.textColor.map(Self.hex)
        node.textAlignment = Self.alignment(field.textAlignment)
        if field.isSecureTextEntry { node.secure = true }
        if field.borderStyle == .roundedRect || field.borderStyle == .bezel || field.borderStyle == .line {
            // iOS's rounded-rect field: a 0.5 pt separator-grey border with 5 pt corners.
            node.borderWidth = node.borderWidth ?? (field.borderStyle == .roundedRect ? 0.5 : 1)
            node.borderColor = node.borderColor ?? Self.hex(.opaqueSeparator)
            if field.borderStyle == .roundedRect { node.cornerRadius = node.cornerRadius ?? 5 }
        }
        node.field = fieldNames[ObjectIdentifier(field)]
    }

    private func describe(_ toggle: UISwitch, into node: inout ViewNode) {
        node.kind = .toggle
        node.isOn = toggle.isOn
        node.text = toggle.title
        node.tintColor = toggle.onTintColor.map(Self.hex)
        node.field = fieldNames[ObjectIdentifier(toggle)]
    }

    private mutating func describe(_ button: UIButton, into node: inout ViewNode) {
        node.kind = .button
        node.text = button.currentTitle
        node.image = image(button.currentImage)
        node.font = Self.font(button.titleFont)
        let style = button.drawnStyle
        node.textColor = Self.hex(button.titleColor(for: button.state) ?? style.foreground)
        if node.backgroundColor == nil, let background = style.background { node.backgroundColor = Self.hex(background) }
        if node.cornerRadius == nil, style.cornerRadius > 0 { node.cornerRadius = Double(style.cornerRadius) }
        node.action = actionNames[ObjectIdentifier(button)]
    }

    /// `image` as a symbol name, or as PNG bytes while the budget lasts.
    private mutating func image(_ image: UIImage?) -> ViewNode.Image? {
        guard let image else { return nil }
        if let symbol = image.symbolName { return ViewNode.Image(symbol: symbol) }
        guard let png = image.cgImage?.pngData, png.count <= imageBytesLeft else {
            return image.sourceName.map { ViewNode.Image(symbol: $0) }
        }
        imageBytesLeft -= png.count
        return ViewNode.Image(png: png.base64EncodedString())
    }

    static func frame(_ rect: CGRect) -> ViewNode.Frame {
        ViewNode.Frame(x: rounded(rect.minX), y: rounded(rect.minY), width: rounded(rect.width), height: rounded(rect.height))
    }

    /// Points to 1/100: frames from estimated text need no more, and the JSON stays short.
    /// A non-finite length (a view laid out with `.infinity`) is 0: JSON has no NaN or infinity,
    /// and one such number would make the whole prompt unencodable.
    private static func rounded(_ value: CGFloat) -> Double { value.isFinite ? (Double(value) * 100).rounded() / 100 : 0 }

    /// `#RRGGBBAA`.
    static func hex(_ color: UIColor) -> String {
        let bytes = [color.red, color.green, color.blue, color.alpha].map { UInt8(max(0, min(255, ($0 * 255).rounded()))) }
        return "#" + bytes.map { String(format: "%02X", $0) }.joined()
    }

    static func font(_ font: UIFont?) -> ViewNode.Font? {
        guard let font else { return nil }
        return ViewNode.Font(size: Double(font.pointSize), weight: font.weightName)
    }

    private static func alignment(_ alignment: NSTextAlignment) -> String? {
        switch alignment {
        case .left: return "left"
        case .center: return "center"
        case .right: return "right"
        case .justified, .natural: return nil
        }
    }
}

extension UIFont {
    /// The weight's name in a ``ViewNode/Font``: `regular`, `medium`, `semibold`, `bold`, ...
    var weightName: String {
        let names: [(Weight, String)] = [(.ultraLight, "ultraLight"), (.thin, "thin"), (.light, "light"), (.regular, "regular"),
                                         (.medium, "medium"), (.semibold, "semibold"), (.bold, "bold"), (.heavy, "heavy"),
                                         (.black, "black")]
        return names.min { abs($0.0.rawValue - weight.rawValue) < abs($1.0.rawValue - weight.rawValue) }?.1 ?? "regular"
    }
}
