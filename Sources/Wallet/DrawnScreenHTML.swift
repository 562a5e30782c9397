import Foundation
import WalletReports
import WalletWire

/// A laid-out screen (``WalletWire/ScreenTree``) as static HTML for a report: each view an
/// element at its frame, the whole scaled to a report column, with the answer the user gave
/// (field values, secure ones masked; the chosen button outlined). Text goes through
/// ``HTMLPage/escape(_:)``, colours only as `#RRGGBB(AA)`, images only as base64 PNG: nothing
/// an extension sends becomes markup or CSS of its own.
struct DrawnScreenHTML {
    let tree: ScreenTree
    /// The answer's values by field name, and the fields whose values are secret.
    var values: [String: String] = [:]
    var secureFields: Set<String> = []
    var chosenAction: String?

    /// The screen scaled to `width` pixels wide.
    func render(width: Double = 272) -> String {
        let scale = tree.size.width > 0 ? width / tree.size.width : 1
        let height = tree.size.height * scale
        return "<div class=\"drawn-screen\" data-drawn=\"tree\" style=\"width:\(Self.number(width))px;height:\(Self.number(height))px\">"
            + "<div class=\"drawn-root\" style=\"width:\(Self.number(tree.size.width))px;height:\(Self.number(tree.size.height))px;"
            + "transform:scale(\(Self.number(scale)))\">" + element(tree.root) + "</div></div>"
    }

    private func element(_ node: ViewNode) -> String {
        guard node.hidden != true else { return "" }
        var style = "left:\(Self.number(node.frame.x))px;top:\(Self.number(node.frame.y))px;"
            + "width:\(Self.number(node.frame.width))px;height:\(Self.number(node.frame.height))px;"
        style += Self.appearance(node)
        var attributes = " data-kind=\"\(node.kind.rawValue)\""
        var inside = ""
        switch node.kind {
        case .label:
            inside = HTMLPage.escape(node.text ?? "")
        case .button:
            inside = node.image != nil ? Self.image(node.image) : HTMLPage.escape(node.text ?? "")
            if let action = node.action {
                attributes += " data-action=\"\(HTMLPage.escape(action))\""
                if action == chosenAction { attributes += " data-chosen=\"true\"" }
            }
        case .textField:
            let name = node.field ?? ""
            attributes += " data-field=\"\(HTMLPage.escape(name))\""
            if let value = values[name], !value.isEmpty {
                inside = HTMLPage.escape(secureFields.contains(name) || node.secure == true ? String(repeating: "•", count: value.count) : value)
            } else {
                inside = "<span class=\"placeholder\">\(HTMLPage.escape(node.placeholder ?? ""))</span>"
            }
        case .toggle:
            let on = values[node.field ?? ""].map { ["yes", "y", "true", "on", "1"].contains($0.lowercased()) } ?? (node.isOn == true)
            attributes += " data-field=\"\(HTMLPage.escape(node.field ?? ""))\" data-on=\"\(on)\""
        case .image:
            inside = Self.image(node.image)
        default:
            break
        }
        inside += (node.children ?? []).map(element).joined()
        return "<div\(attributes) style=\"\(style)\">\(inside)</div>"
    }

    private static let weights = ["ultraLight": 100, "thin": 200, "light": 300, "regular": 400, "medium": 500,
                                  "semibold": 600, "bold": 700, "heavy": 800, "black": 900]

    /// Colours, corners, border, font, alignment, opacity, shadow and gradient as CSS.
    private static func appearance(_ node: ViewNode) -> String {
        var style = ""
        if let background = color(node.backgroundColor) { style += "background:\(background);" }
        if let text = color(node.textColor) ?? (node.kind == .button ? color(node.tintColor) : nil) { style += "color:\(text);" }
        if let radius = node.cornerRadius, radius.isFinite { style += "border-radius:\(number(radius))px;" }
        if let width = node.borderWidth, width.isFinite, width > 0 {
            style += "border:\(number(width))px solid \(color(node.borderColor) ?? "#000");"
        }
        if let font = node.font, font.size.isFinite {
            style += "font-size:\(number(font.size))px;font-weight:\(weights[font.weight] ?? 400);"
        }
        if let alignment = node.textAlignment, ["left", "center", "right"].contains(alignment) { style += "text-align:\(alignment);" }
        if let opacity = node.opacity, opacity.isFinite { style += "opacity:\(number(max(0, min(1, opacity))));" }
        if let shadow = node.shadow, let shade = color(shadow.color), [shadow.x, shadow.y, shadow.radius].allSatisfy(\.isFinite) {
            style += "box-shadow:\(number(shadow.x))px \(number(shadow.y))px \(number(max(0, shadow.radius * 2)))px \(shade);"
        }
        if let gradient = node.gradient, [gradient.start.x, gradient.start.y, gradient.end.x, gradient.end.y].allSatisfy(\.isFinite) {
            let stops = gradient.colors.compactMap(color)
            let angle = atan2(gradient.end.x - gradient.start.x, gradient.start.y - gradient.end.y) * 180 / .pi
            if stops.count > 1 { style += "background-image:linear-gradient(\(number(angle))deg,\(stops.joined(separator: ",")));" }
        }
        return style
    }

    /// `#RRGGBB` or `#RRGGBBAA` as CSS `rgba(...)`; anything else nil.
    static func color(_ value: String?) -> String? {
        guard let value, value.hasPrefix("#"), value.count == 7 || value.count == 9 else { return nil }
        let hex = value.dropFirst()
        guard hex.allSatisfy(\.isHexDigit), let bits = UInt32(hex, radix: 16) else { return nil }
        let rgba = hex.count == 6 ? bits << 8 | 0xFF : bits
        let alpha = Double(rgba & 0xFF) / 255
        return "rgba(\(rgba >> 24),\(rgba >> 16 & 0xFF),\(rgba >> 8 & 0xFF),\(number(alpha)))"
    }

    /// A PNG as an image, an SF Symbol by name in a grey box; nothing else.
    private static func image(_ picture: ViewNode.Image?) -> String {
        if let png = picture?.png, !png.isEmpty, png.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+/=".contains($0)) }) {
            return "<img alt=\"\" src=\"data:image/png;base64,\(png)\">"
        }
        return "<span class=\"symbol\">\(HTMLPage.escape(picture?.symbol ?? ""))</span>"
    }

    /// A finite number with at most two decimals, for CSS.
    private static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        let rounded = (value * 100).rounded() / 100
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
