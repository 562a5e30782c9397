/// A color (`Color`): RGBA in 0...1, the system colours with their light-mode values. As a view
/// it fills the space it is offered (a plain view of that colour in the drawn screen) and adds
/// nothing to the form.
public struct Color: View, PrimitiveView, Hashable, Sendable {
    public typealias Body = Never
    let red: Double, green: Double, blue: Double, opacity: Double

    /// An asset catalog's colour: `AccentColor` is the tint, any other name gray (catalog colours are not read).
    public init(_ name: String) {
        self.init(name == "AccentColor" ? .systemBlue : .systemGray)
    }
    public init(_ color: UIColor) {
        self.init(red: Double(color.red), green: Double(color.green), blue: Double(color.blue), opacity: Double(color.alpha))
    }
    public init(uiColor color: UIColor) { self.init(color) }
    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.opacity = opacity
    }
    public init(white: Double, opacity: Double = 1) { self.init(red: white, green: white, blue: white, opacity: opacity) }

    public static let accentColor = Color(.systemBlue), primary = Color(.label), secondary = Color(.secondaryLabel)
    public static let red = Color(.systemRed), green = Color(.systemGreen), blue = Color(.systemBlue), orange = Color(.systemOrange)
    public static let yellow = Color(.systemYellow), gray = Color(.systemGray), white = Color(.white), black = Color(.black)
    public static let clear = Color(.clear), indigo = Color(.systemIndigo), purple = Color(.systemPurple), pink = Color(.systemPink)
    public static let mint = Color(.systemMint), teal = Color(.systemTeal), cyan = Color(.systemCyan), brown = Color(.systemBrown)

    /// The colour at `opacity` times its alpha.
    public func opacity(_ opacity: Double) -> Color { Color(red: red, green: green, blue: blue, opacity: self.opacity * opacity) }

    /// The UIKit colour.
    var uiColor: UIColor { UIColor(red: red, green: green, blue: blue, alpha: opacity) }

    func render(into renderer: inout Renderer) {
        let view = FillView()
        view.backgroundColor = uiColor
        renderer.add(view)
    }
}

/// A font (`Font`): a point size and weight; the text styles have iOS's sizes at the default
/// Dynamic Type size (body 17 pt, large title 34 pt, ...).
public struct Font: Hashable, Sendable {
    let size: CGFloat
    let weight: Weight
    let isMonospaced: Bool

    /// A weight (`Font.Weight`).
    public struct Weight: Hashable, Sendable {
        let value: Double
        public static let regular = Weight(value: 0), medium = Weight(value: 0.23), semibold = Weight(value: 0.3)
        public static let bold = Weight(value: 0.4), heavy = Weight(value: 0.56), light = Weight(value: -0.4)
    }

    /// A design (`Font.Design`).
    public enum Design: Hashable, Sendable { case `default`, serif, rounded, monospaced }

    init(size: CGFloat, weight: Weight = .regular, isMonospaced: Bool = false) {
        self.size = size
        self.weight = weight
        self.isMonospaced = isMonospaced
    }

    public static let largeTitle = Font(size: 34), title = Font(size: 28), title2 = Font(size: 22)
    public static let title3 = Font(size: 20), headline = Font(size: 17, weight: .semibold), subheadline = Font(size: 15)
    public static let body = Font(size: 17), callout = Font(size: 16), footnote = Font(size: 13)
    public static let caption = Font(size: 12), caption2 = Font(size: 11)
    public static func system(size: CGFloat, weight: Weight = .regular) -> Font { Font(size: size, weight: weight) }
    public static func system(size: CGFloat, weight: Weight = .regular, design: Design) -> Font {
        Font(size: size, weight: weight, isMonospaced: design == .monospaced)
    }
    public static func custom(_ name: String, size: CGFloat) -> Font { Font(size: size) }
    public func bold() -> Font { weight(.bold) }
    public func weight(_ weight: Weight) -> Font { Font(size: size, weight: weight, isMonospaced: isMonospaced) }
    public func monospaced() -> Font { Font(size: size, weight: weight, isMonospaced: true) }

    /// The UIKit font.
    var uiFont: UIFont {
        isMonospaced ? .monospacedSystemFont(ofSize: size, weight: UIFont.Weight(rawValue: CGFloat(weight.value)))
            : .systemFont(ofSize: size, weight: UIFont.Weight(rawValue: CGFloat(weight.value)))
    }
}
