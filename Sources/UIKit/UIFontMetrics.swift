extension UIFont {
    // San Francisco's vertical metrics per point of size (SF Pro Text: ascender 0.952, descender
    // -0.241): what UIKit reports for the system font, so that layout code computes the same heights.
    private static let ascenderPerPoint: CGFloat = 0.952
    private static let descenderPerPoint: CGFloat = -0.241
    private static let capHeightPerPoint: CGFloat = 0.705
    private static let xHeightPerPoint: CGFloat = 0.528

    /// The height of a line of text: ascender minus descender (20.3 points for 17-point text).
    public var lineHeight: CGFloat { ascender - descender }
    /// How far glyphs rise above the baseline.
    public var ascender: CGFloat { pointSize * Self.ascenderPerPoint }
    /// How far glyphs fall below the baseline (negative).
    public var descender: CGFloat { pointSize * Self.descenderPerPoint }
    /// The height of capital letters.
    public var capHeight: CGFloat { pointSize * Self.capHeightPerPoint }
    /// The height of lower-case letters without ascenders.
    public var xHeight: CGFloat { pointSize * Self.xHeightPerPoint }
    /// Extra space between lines: 0, as for the system font.
    public var leading: CGFloat { 0 }
    /// The font's family name.
    public var familyName: String { fontName.hasPrefix(".SF") ? "System Font" : fontName }
}

/// Scales fonts and sizes for Dynamic Type (`UIFontMetrics`). The simulated iPhone uses the
/// default text size (Large), at which UIKit scales nothing: fonts and values come back as given.
public final class UIFontMetrics: NSObject, Sendable {
    /// The text style whose scaling this follows.
    public let textStyle: UIFont.TextStyle

    /// Metrics for `textStyle`.
    public init(forTextStyle textStyle: UIFont.TextStyle) {
        self.textStyle = textStyle
    }

    /// Metrics for the body style.
    public static let `default` = UIFontMetrics(forTextStyle: .body)

    /// `font` scaled for the current text size: the same font at Large.
    public func scaledFont(for font: UIFont) -> UIFont { font }
    /// `font` scaled, at most `maximumPointSize`.
    public func scaledFont(for font: UIFont, maximumPointSize: CGFloat) -> UIFont {
        font.pointSize > maximumPointSize ? font.withSize(maximumPointSize) : font
    }
    /// `font` scaled for `traitCollection`'s text size: Large here.
    public func scaledFont(for font: UIFont, compatibleWith traitCollection: UITraitCollection?) -> UIFont { font }
    /// `font` scaled for `traitCollection`, at most `maximumPointSize`.
    public func scaledFont(for font: UIFont, maximumPointSize: CGFloat, compatibleWith traitCollection: UITraitCollection?) -> UIFont {
        scaledFont(for: font, maximumPointSize: maximumPointSize)
    }
    /// `value` scaled for the current text size: unchanged at Large.
    public func scaledValue(for value: CGFloat) -> CGFloat { value }
    /// `value` scaled for `traitCollection`'s text size.
    public func scaledValue(for value: CGFloat, compatibleWith traitCollection: UITraitCollection?) -> CGFloat { value }
}

extension UIFont.TextStyle {
    /// The metrics of this style.
    public var metrics: UIFontMetrics { UIFontMetrics(forTextStyle: self) }
}
