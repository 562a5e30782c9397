import Foundation

/// A color (`UIColor`), kept as RGBA components. The system colors have their light-mode values.
public final class UIColor: NSObject, Sendable {
    /// Red, green, blue and alpha, each 0...1.
    public let red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat

    /// A color from RGBA components, each 0...1.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A gray from white 0 (black) to 1 (white).
    public convenience init(white: CGFloat, alpha: CGFloat) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// The color of a Core Graphics color.
    public convenience init(cgColor: CGColor) {
        let components = cgColor.components ?? [0, 0, 0, 1]
        self.init(red: components[0], green: components[1], blue: components[2], alpha: components[3])
    }

    /// The color as a Core Graphics color.
    public var cgColor: CGColor { CGColor(red: red, green: green, blue: blue, alpha: alpha) }

    /// The same color with `alpha`.
    public func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
        UIColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Makes this the fill color of the current image context (``UIGraphicsGetCurrentContext()``).
    public func setFill() {
        UIGraphicsGetCurrentContext()?.setFillColor(cgColor)
    }

    /// Makes this the stroke color of the current image context.
    public func setStroke() {
        UIGraphicsGetCurrentContext()?.setStrokeColor(cgColor)
    }

    /// Makes this the fill and stroke color of the current image context.
    public func set() {
        setFill()
        setStroke()
    }

    private static func rgb(_ red: Int, _ green: Int, _ blue: Int) -> UIColor {
        UIColor(red: CGFloat(red) / 255, green: CGFloat(green) / 255, blue: CGFloat(blue) / 255, alpha: 1)
    }

    public static let black = UIColor(white: 0, alpha: 1)
    public static let darkGray = UIColor(white: 1.0 / 3, alpha: 1)
    public static let lightGray = UIColor(white: 2.0 / 3, alpha: 1)
    public static let white = UIColor(white: 1, alpha: 1)
    public static let gray = UIColor(white: 0.5, alpha: 1)
    public static let red = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
    public static let green = UIColor(red: 0, green: 1, blue: 0, alpha: 1)
    public static let blue = UIColor(red: 0, green: 0, blue: 1, alpha: 1)
    public static let cyan = UIColor(red: 0, green: 1, blue: 1, alpha: 1)
    public static let yellow = UIColor(red: 1, green: 1, blue: 0, alpha: 1)
    public static let magenta = UIColor(red: 1, green: 0, blue: 1, alpha: 1)
    public static let orange = UIColor(red: 1, green: 0.5, blue: 0, alpha: 1)
    public static let purple = UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1)
    public static let brown = UIColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1)
    public static let clear = UIColor(white: 0, alpha: 0)

    public static let systemRed = rgb(255, 59, 48)
    public static let systemOrange = rgb(255, 149, 0)
    public static let systemYellow = rgb(255, 204, 0)
    public static let systemGreen = rgb(52, 199, 89)
    public static let systemMint = rgb(0, 199, 190)
    public static let systemTeal = rgb(48, 176, 199)
    public static let systemCyan = rgb(50, 173, 230)
    public static let systemBlue = rgb(0, 122, 255)
    public static let systemIndigo = rgb(88, 86, 214)
    public static let systemPurple = rgb(175, 82, 222)
    public static let systemPink = rgb(255, 45, 85)
    public static let systemBrown = rgb(162, 132, 94)
    public static let systemGray = rgb(142, 142, 147)
    public static let systemGray2 = rgb(174, 174, 178)
    public static let systemGray3 = rgb(199, 199, 204)
    public static let systemGray4 = rgb(209, 209, 214)
    public static let systemGray5 = rgb(229, 229, 234)
    public static let systemGray6 = rgb(242, 242, 247)
    public static let tintColor = systemBlue
    public static let link = systemBlue

    public static let label = UIColor(white: 0, alpha: 1)
    public static let secondaryLabel = UIColor(red: 60.0 / 255, green: 60.0 / 255, blue: 67.0 / 255, alpha: 0.6)
    public static let tertiaryLabel = UIColor(red: 60.0 / 255, green: 60.0 / 255, blue: 67.0 / 255, alpha: 0.3)
    public static let quaternaryLabel = UIColor(red: 60.0 / 255, green: 60.0 / 255, blue: 67.0 / 255, alpha: 0.18)
    public static let placeholderText = tertiaryLabel
    public static let separator = UIColor(red: 60.0 / 255, green: 60.0 / 255, blue: 67.0 / 255, alpha: 0.29)
    public static let opaqueSeparator = rgb(198, 198, 200)
    public static let systemFill = UIColor(red: 120.0 / 255, green: 120.0 / 255, blue: 128.0 / 255, alpha: 0.2)
    public static let secondarySystemFill = UIColor(red: 120.0 / 255, green: 120.0 / 255, blue: 128.0 / 255, alpha: 0.16)
    public static let systemBackground = UIColor(white: 1, alpha: 1)
    public static let secondarySystemBackground = rgb(242, 242, 247)
    public static let tertiarySystemBackground = UIColor(white: 1, alpha: 1)
    public static let systemGroupedBackground = rgb(242, 242, 247)
    public static let secondarySystemGroupedBackground = UIColor(white: 1, alpha: 1)
    public static let tertiarySystemGroupedBackground = rgb(242, 242, 247)
    public static let lightText = UIColor(white: 1, alpha: 0.6)
    public static let darkText = UIColor(white: 0, alpha: 1)
}
