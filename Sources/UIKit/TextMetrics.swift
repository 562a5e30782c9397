import Foundation

/// Text sizes estimated from the font's point size: San Francisco, Apple's system font, is not
/// here, and the DejaVu faces the SDK draws card text with are wider, so no glyph is measured.
///
/// - A glyph's average advance is 0.5 x the point size (0.55 at semibold and heavier), which is
///   close to San Francisco's for mixed-case Latin text;
/// - a line is 1.2 x the point size tall (SF's 17 pt body line is 20.3 pt);
/// - text wider than the width it is given wraps into `ceil(width / available)` lines per
///   paragraph, up to the line limit (0: none).
///
/// docs/SDK.md says the same; layout tests compute their expected frames with these rules.
package enum TextMetrics {
    /// The height of one line of `font`.
    package static func lineHeight(_ font: UIFont) -> CGFloat { font.pointSize * 1.2 }

    /// The advance of `text` on one line in `font`.
    package static func width(of text: String, font: UIFont) -> CGFloat {
        let advance: CGFloat = font.weight.rawValue >= UIFont.Weight.semibold.rawValue ? 0.55 : 0.5
        return CGFloat(text.count) * font.pointSize * advance
    }

    /// The size of `text` in `font` wrapped at `maxWidth` (nil: one line per paragraph), at most
    /// `lineLimit` lines (0: no limit).
    package static func size(of text: String, font: UIFont, maxWidth: CGFloat? = nil, lineLimit: Int = 0) -> CGSize {
        guard !text.isEmpty else { return .zero }
        let paragraphs = text.split(separator: "\n", omittingEmptySubsequences: false).map { width(of: String($0), font: font) }
        var lines = 0
        var widest: CGFloat = 0
        for paragraph in paragraphs {
            if let maxWidth, maxWidth > 0, paragraph > maxWidth, lineLimit != 1 {
                lines += Int((paragraph / maxWidth).rounded(.up))
                widest = maxWidth
            } else {
                lines += 1
                widest = max(widest, maxWidth.map { min(paragraph, max($0, 0)) } ?? paragraph)
            }
        }
        if lineLimit > 0 { lines = min(lines, lineLimit) }
        return CGSize(width: widest, height: CGFloat(lines) * lineHeight(font))
    }
}
