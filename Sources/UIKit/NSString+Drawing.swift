/// Text laid out for drawing: lines broken at words to fit a width, each with its width in points.
struct TextLayout {
    let lines: [(text: String, width: CGFloat)]
    let font: UIFont
    let color: UIColor
    let paragraph: NSParagraphStyle
    let bold: Bool

    /// The height of one line, with the paragraph's spacing.
    var lineHeight: CGFloat {
        var height = paragraph.lineHeightMultiple > 0 ? font.lineHeight * paragraph.lineHeightMultiple : font.lineHeight
        if paragraph.minimumLineHeight > 0 { height = max(height, paragraph.minimumLineHeight) }
        if paragraph.maximumLineHeight > 0 { height = min(height, paragraph.maximumLineHeight) }
        return height + paragraph.lineSpacing
    }

    /// The size the lines take.
    var size: CGSize {
        CGSize(width: lines.map(\.width).max() ?? 0, height: lines.isEmpty ? 0 : CGFloat(lines.count) * lineHeight - paragraph.lineSpacing)
    }

    /// `text` with `attributes`, broken into lines no wider than `maxWidth` (nil: at newlines only).
    init(_ text: String, attributes: [NSAttributedString.Key: Any]?, maxWidth: CGFloat?) {
        font = attributes?[.font] as? UIFont ?? .systemFont(ofSize: 12)
        color = attributes?[.foregroundColor] as? UIColor ?? .black
        paragraph = attributes?[.paragraphStyle] as? NSParagraphStyle ?? .default
        bold = font.weight.rawValue >= UIFont.Weight.semibold.rawValue || font.fontName.localizedCaseInsensitiveContains("bold")
        let (font, bold) = (font, bold)
        func width(_ line: String) -> CGFloat { TextRasterizer.width(of: line, pixelSize: font.pointSize, bold: bold) }
        var lines: [(String, CGFloat)] = []
        for paragraphText in text.components(separatedBy: "\n") {
            guard let maxWidth, maxWidth > 0 else {
                lines.append((paragraphText, width(paragraphText)))
                continue
            }
            var current = ""
            for word in paragraphText.split(separator: " ", omittingEmptySubsequences: false) {
                let candidate = current.isEmpty ? String(word) : current + " " + word
                if !current.isEmpty && width(candidate) > maxWidth {
                    lines.append((current, width(current)))
                    current = String(word)
                } else {
                    current = candidate
                }
            }
            lines.append((current, width(current)))
        }
        self.lines = lines
    }

    /// Draws the lines from the top of `rect` down, aligned in its width, while they fit its height
    /// (`rect`'s height 0 or less: no limit).
    func draw(in rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        let components = [color.red, color.green, color.blue, color.alpha]
        for (index, line) in lines.enumerated() {
            let top = rect.minY + CGFloat(index) * lineHeight
            if rect.height > 0 && index > 0 && top + font.lineHeight > rect.maxY + 0.5 { break }
            let x: CGFloat
            switch paragraph.alignment {
            case .center: x = rect.minX + (rect.width - line.width) / 2
            case .right: x = rect.maxX - line.width
            default: x = rect.minX
            }
            context.drawTextLine(line.text, baselineOrigin: CGPoint(x: x, y: top + font.ascender), pointSize: font.pointSize,
                                 bold: bold, color: components)
        }
    }
}

extension NSString {
    /// Draws the string in `rect` of the current image context: lines broken at words to fit its
    /// width, aligned by the paragraph style, with the font and color of `attrs` (12-point black
    /// when absent), as UIKit does. Glyphs are DejaVu Sans (FreeType), not San Francisco.
    public func draw(in rect: CGRect, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
        TextLayout(self as String, attributes: attrs, maxWidth: rect.width).draw(in: rect)
    }

    /// Draws the string on one line (per newline) with its top left at `point`.
    public func draw(at point: CGPoint, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
        TextLayout(self as String, attributes: attrs, maxWidth: nil).draw(in: CGRect(origin: point, size: .zero))
    }

    /// The size the string takes on one line (per newline).
    public func size(withAttributes attrs: [NSAttributedString.Key: Any]? = nil) -> CGSize {
        TextLayout(self as String, attributes: attrs, maxWidth: nil).size
    }

    /// The rectangle the string takes broken into lines of at most `size.width`.
    public func boundingRect(with size: CGSize, options: NSStringDrawingOptions = [], attributes: [NSAttributedString.Key: Any]?,
                             context: NSStringDrawingContext?) -> CGRect {
        CGRect(origin: .zero, size: TextLayout(self as String, attributes: attributes, maxWidth: size.width).size)
    }
}

extension String {
    /// Draws the string in `rect` (see `NSString.draw(in:withAttributes:)`).
    public func draw(in rect: CGRect, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
        NSString(string: self).draw(in: rect, withAttributes: attrs)
    }
    /// Draws the string at `point` (see `NSString.draw(at:withAttributes:)`).
    public func draw(at point: CGPoint, withAttributes attrs: [NSAttributedString.Key: Any]? = nil) {
        NSString(string: self).draw(at: point, withAttributes: attrs)
    }
    /// The size the string takes on one line.
    public func size(withAttributes attrs: [NSAttributedString.Key: Any]? = nil) -> CGSize {
        NSString(string: self).size(withAttributes: attrs)
    }
    /// The rectangle the string takes broken into lines of at most `size.width`.
    public func boundingRect(with size: CGSize, options: NSStringDrawingOptions = [], attributes: [NSAttributedString.Key: Any]?,
                             context: NSStringDrawingContext?) -> CGRect {
        NSString(string: self).boundingRect(with: size, options: options, attributes: attributes, context: context)
    }
}

extension NSAttributedString {
    /// Draws the string in `rect` with the attributes of its first character.
    public func draw(in rect: CGRect) {
        NSString(string: string).draw(in: rect, withAttributes: length > 0 ? attributes(at: 0, effectiveRange: nil) : nil)
    }
    /// Draws the string at `point` with the attributes of its first character.
    public func draw(at point: CGPoint) {
        NSString(string: string).draw(at: point, withAttributes: length > 0 ? attributes(at: 0, effectiveRange: nil) : nil)
    }
    /// The size the string takes on one line.
    public func size() -> CGSize {
        NSString(string: string).size(withAttributes: length > 0 ? attributes(at: 0, effectiveRange: nil) : nil)
    }
}
