/// How a paragraph is laid out (`NSParagraphStyle`): alignment, line breaks, spacing.
open class NSParagraphStyle: NSObject, @unchecked Sendable {
    // @unchecked: an NSParagraphStyle is not changed once made; the mutable subclass is used by one thread at a time.
    /// The default style: natural alignment, word wrapping, no extra spacing.
    open class var `default`: NSParagraphStyle { NSParagraphStyle() }

    /// The text's alignment.
    open internal(set) var alignment = NSTextAlignment.natural
    /// Where lines break.
    open internal(set) var lineBreakMode = NSLineBreakMode.byWordWrapping
    /// Extra space between lines, in points.
    open internal(set) var lineSpacing: CGFloat = 0
    /// Extra space after the paragraph.
    open internal(set) var paragraphSpacing: CGFloat = 0
    /// Extra space before the paragraph.
    open internal(set) var paragraphSpacingBefore: CGFloat = 0
    /// The first line's indent.
    open internal(set) var firstLineHeadIndent: CGFloat = 0
    /// Every other line's indent.
    open internal(set) var headIndent: CGFloat = 0
    /// The trailing indent.
    open internal(set) var tailIndent: CGFloat = 0
    /// The least line height (0: none).
    open internal(set) var minimumLineHeight: CGFloat = 0
    /// The greatest line height (0: none).
    open internal(set) var maximumLineHeight: CGFloat = 0
    /// The line height as a multiple of the font's (0: the font's).
    open internal(set) var lineHeightMultiple: CGFloat = 0

    public override init() {
        super.init()
    }

    /// A mutable copy.
    open override func mutableCopy() -> Any {
        let copy = NSMutableParagraphStyle()
        copy.setParagraphStyle(self)
        return copy
    }
}

/// A paragraph style to set up (`NSMutableParagraphStyle`).
open class NSMutableParagraphStyle: NSParagraphStyle, @unchecked Sendable {
    open override var alignment: NSTextAlignment {
        get { super.alignment }
        set { super.alignment = newValue }
    }
    open override var lineBreakMode: NSLineBreakMode {
        get { super.lineBreakMode }
        set { super.lineBreakMode = newValue }
    }
    open override var lineSpacing: CGFloat {
        get { super.lineSpacing }
        set { super.lineSpacing = newValue }
    }
    open override var paragraphSpacing: CGFloat {
        get { super.paragraphSpacing }
        set { super.paragraphSpacing = newValue }
    }
    open override var paragraphSpacingBefore: CGFloat {
        get { super.paragraphSpacingBefore }
        set { super.paragraphSpacingBefore = newValue }
    }
    open override var firstLineHeadIndent: CGFloat {
        get { super.firstLineHeadIndent }
        set { super.firstLineHeadIndent = newValue }
    }
    open override var headIndent: CGFloat {
        get { super.headIndent }
        set { super.headIndent = newValue }
    }
    open override var tailIndent: CGFloat {
        get { super.tailIndent }
        set { super.tailIndent = newValue }
    }
    open override var minimumLineHeight: CGFloat {
        get { super.minimumLineHeight }
        set { super.minimumLineHeight = newValue }
    }
    open override var maximumLineHeight: CGFloat {
        get { super.maximumLineHeight }
        set { super.maximumLineHeight = newValue }
    }
    open override var lineHeightMultiple: CGFloat {
        get { super.lineHeightMultiple }
        set { super.lineHeightMultiple = newValue }
    }

    /// Takes every setting of `style`.
    open func setParagraphStyle(_ style: NSParagraphStyle) {
        alignment = style.alignment
        lineBreakMode = style.lineBreakMode
        lineSpacing = style.lineSpacing
        paragraphSpacing = style.paragraphSpacing
        paragraphSpacingBefore = style.paragraphSpacingBefore
        firstLineHeadIndent = style.firstLineHeadIndent
        headIndent = style.headIndent
        tailIndent = style.tailIndent
        minimumLineHeight = style.minimumLineHeight
        maximumLineHeight = style.maximumLineHeight
        lineHeightMultiple = style.lineHeightMultiple
    }
}

extension NSAttributedString.Key {
    /// The font (`UIFont`); 12-point system font when absent, as UIKit draws.
    public static let font = NSAttributedString.Key("NSFont")
    /// The text color (`UIColor`); black when absent.
    public static let foregroundColor = NSAttributedString.Key("NSColor")
    /// The background color (`UIColor`).
    public static let backgroundColor = NSAttributedString.Key("NSBackgroundColor")
    /// The paragraph style (``NSParagraphStyle``).
    public static let paragraphStyle = NSAttributedString.Key("NSParagraphStyle")
    /// Extra space between letters, in points (kept).
    public static let kern = NSAttributedString.Key("NSKern")
    /// Extra space between letters, in points (kept).
    public static let tracking = NSAttributedString.Key("NSTracking")
    /// Underline (kept).
    public static let underlineStyle = NSAttributedString.Key("NSUnderline")
    /// Strikethrough (kept).
    public static let strikethroughStyle = NSAttributedString.Key("NSStrikethrough")
    /// Outline color (kept).
    public static let strokeColor = NSAttributedString.Key("NSStrokeColor")
    /// Outline width (kept).
    public static let strokeWidth = NSAttributedString.Key("NSStrokeWidth")
    /// Shadow (kept).
    public static let shadow = NSAttributedString.Key("NSShadow")
    /// Baseline offset in points (kept).
    public static let baselineOffset = NSAttributedString.Key("NSBaselineOffset")
    /// A link (kept).
    public static let link = NSAttributedString.Key("NSLink")
}

/// Underline styles (`NSUnderlineStyle`).
public struct NSUnderlineStyle: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let single = NSUnderlineStyle(rawValue: 1), thick = NSUnderlineStyle(rawValue: 2)
    public static let double = NSUnderlineStyle(rawValue: 9)
}

/// How text is measured (`NSStringDrawingOptions`).
public struct NSStringDrawingOptions: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let usesLineFragmentOrigin = NSStringDrawingOptions(rawValue: 1)
    public static let usesFontLeading = NSStringDrawingOptions(rawValue: 2)
    public static let usesDeviceMetrics = NSStringDrawingOptions(rawValue: 8)
    public static let truncatesLastVisibleLine = NSStringDrawingOptions(rawValue: 32)
}

/// What text measuring reports beside the size (`NSStringDrawingContext`), kept.
open class NSStringDrawingContext: NSObject {
    open var minimumScaleFactor: CGFloat = 0
    open var actualScaleFactor: CGFloat { 1 }
    open var totalBounds: CGRect { .zero }
}
