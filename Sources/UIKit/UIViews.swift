import Foundation

/// Text alignment (`NSTextAlignment`), kept.
public enum NSTextAlignment: Int, Sendable {
    case left = 0, center, right, justified, natural
}

/// How text is cut (`NSLineBreakMode`), kept.
public enum NSLineBreakMode: Int, Sendable {
    case byWordWrapping = 0, byCharWrapping, byClipping, byTruncatingHead, byTruncatingTail, byTruncatingMiddle
}

/// A text label (`UILabel`): its text, while visible, is a line of the form's message, so an
/// error label the code shows is seen by the user agent.
@preconcurrency @MainActor
open class UILabel: UIView {
    /// The text.
    open var text: String? { didSet { screenDidChange() } }
    /// Attributed text: its string is the label's text.
    open var attributedText: NSAttributedString? {
        get { text.map { NSAttributedString(string: $0) } }
        set { text = newValue?.string }
    }
    /// Kept.
    open var font: UIFont! = .systemFont(ofSize: 17)
    /// Kept.
    open var textColor: UIColor! = .label
    /// Kept.
    open var textAlignment = NSTextAlignment.natural
    /// Kept.
    open var numberOfLines = 1
    /// Kept.
    open var lineBreakMode = NSLineBreakMode.byTruncatingTail
    /// Kept.
    open var adjustsFontSizeToFitWidth = false
    /// Kept.
    open var adjustsFontForContentSizeCategory = false
    /// Kept.
    open var minimumScaleFactor: CGFloat = 0
    /// The width a multi-line label wraps at for its natural size (0: its own width).
    open var preferredMaxLayoutWidth: CGFloat = 0
    /// The text's estimated size (``TextMetrics``).
    open override var intrinsicContentSize: CGSize { labelContentSize() }
}

/// An image view (`UIImageView`), kept; not part of the form.
@preconcurrency @MainActor
open class UIImageView: UIView {
    /// The image.
    open var image: UIImage?
    /// Kept.
    open var highlightedImage: UIImage?
    /// The image's size in points; an SF Symbol is 20.4 pt square (17 pt text's line).
    open override var intrinsicContentSize: CGSize {
        guard let image else { return CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric) }
        return image.symbolName != nil ? CGSize(width: 20.4, height: 20.4) : image.size
    }

    /// A view showing `image`.
    public init(image: UIImage?) {
        self.image = image
        super.init(frame: .zero)
    }

    /// An empty image view.
    public override init(frame: CGRect) {
        super.init(frame: frame)
    }

    /// Storyboards do not exist here; this initializer fails.
    public required init?(coder: NSCoder) {
        return nil
    }
}

/// A spinner (`UIActivityIndicatorView`): while one is visible and animating the screen is busy,
/// and the form is sent once the code has stopped it (or hidden it).
@preconcurrency @MainActor
open class UIActivityIndicatorView: UIView {
    /// Sizes (`UIActivityIndicatorView.Style`).
    public enum Style: Int, Sendable {
        case medium = 100, large = 101
        case whiteLarge = 0, white = 1, gray = 2
    }

    /// The style.
    open var style: Style
    /// Kept.
    open var color: UIColor!
    /// Hide when stopped (the default, as in UIKit).
    open var hidesWhenStopped = true
    /// True between ``startAnimating()`` and ``stopAnimating()``.
    open private(set) var isAnimating = false
    /// 20 pt square (medium), 37 pt (large), as iOS's.
    open override var intrinsicContentSize: CGSize {
        let side: CGFloat = style == .large || style == .whiteLarge ? 37 : 20
        return CGSize(width: side, height: side)
    }

    /// A spinner of `style`.
    public init(style: Style) {
        self.style = style
        super.init(frame: .zero)
    }

    /// A medium spinner.
    public override init(frame: CGRect) {
        style = .medium
        super.init(frame: frame)
    }

    /// Storyboards do not exist here; this initializer fails.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// Starts spinning: the screen is busy.
    open func startAnimating() {
        isAnimating = true
        screenDidChange()
    }

    /// Stops spinning.
    open func stopAnimating() {
        isAnimating = false
        screenDidChange()
    }
}

/// A row or column of views (`UIStackView`): its arranged subviews are subviews, in order.
@preconcurrency @MainActor
open class UIStackView: UIView {
    /// Alignment across the axis (`UIStackView.Alignment`), kept.
    public enum Alignment: Int, Sendable {
        case fill, leading, firstBaseline, center, trailing, lastBaseline
        public static var top: Alignment { .leading }
        public static var bottom: Alignment { .trailing }
    }

    /// Distribution along the axis (`UIStackView.Distribution`), kept.
    public enum Distribution: Int, Sendable { case fill, fillEqually, fillProportionally, equalSpacing, equalCentering }

    /// Kept.
    open var axis = NSLayoutConstraint.Axis.horizontal
    /// Kept.
    open var spacing: CGFloat = 0
    /// Kept.
    open var alignment = Alignment.fill
    /// Kept.
    open var distribution = Distribution.fill
    /// Kept.
    open var isLayoutMarginsRelativeArrangement = false
    /// The arranged views, in order.
    open private(set) var arrangedSubviews: [UIView] = []

    /// A stack of `views`.
    public convenience init(arrangedSubviews views: [UIView]) {
        self.init(frame: .zero)
        views.forEach(addArrangedSubview)
    }

    /// Appends `view` to the arranged views (and the subviews).
    open func addArrangedSubview(_ view: UIView) {
        insertArrangedSubview(view, at: arrangedSubviews.count)
    }

    /// Inserts `view` at `stackIndex` among the arranged views.
    open func insertArrangedSubview(_ view: UIView, at stackIndex: Int) {
        view.translatesAutoresizingMaskIntoConstraints = false
        arrangedSubviews.removeAll { $0 === view }
        let index = min(max(stackIndex, 0), arrangedSubviews.count)
        arrangedSubviews.insert(view, at: index)
        let following = arrangedSubviews.dropFirst(index + 1).first
        if let following, following.superview === self {
            insertSubview(view, belowSubview: following)
        } else {
            addSubview(view)
        }
    }

    /// Removes `view` from the arranged views; it stays a subview, as in UIKit.
    open func removeArrangedSubview(_ view: UIView) {
        arrangedSubviews.removeAll { $0 === view }
        screenDidChange()
    }

    /// Spacing after an arranged view, by its identity (``setCustomSpacing(_:after:)``).
    private(set) var customSpacings: [ObjectIdentifier: CGFloat] = [:]

    /// Sets the spacing after `arrangedSubview` instead of ``spacing``.
    open func setCustomSpacing(_ spacing: CGFloat, after arrangedSubview: UIView) {
        customSpacings[ObjectIdentifier(arrangedSubview)] = spacing
    }

    /// The spacing after `arrangedSubview`: its custom spacing, else ``spacing``.
    open func customSpacing(after arrangedSubview: UIView) -> CGFloat {
        customSpacings[ObjectIdentifier(arrangedSubview)] ?? spacing
    }

    /// The arranged views' natural sizes along the axis with the spacing between them, and the
    /// largest across it (see UIStackView+Arrangement.swift).
    open override var intrinsicContentSize: CGSize { arrangedContentSize() }

    /// Arranges the views (UIStackView+Arrangement.swift).
    @_spi(WalletHost) open override func placeSubviews() { arrangeSubviews() }
}

/// A scrolling view (`UIScrollView`): everything in it is on the form, scrolled or not.
@preconcurrency @MainActor
open class UIScrollView: UIView {
    /// Kept.
    open var contentSize = CGSize.zero
    /// Kept.
    open var contentOffset = CGPoint.zero
    /// Kept.
    open var contentInset = UIEdgeInsets.zero
    /// Kept.
    open var alwaysBounceVertical = false
    /// Kept.
    open var alwaysBounceHorizontal = false
    /// Kept.
    open var showsVerticalScrollIndicator = true
    /// Kept.
    open var showsHorizontalScrollIndicator = true
    /// Kept.
    open var isScrollEnabled = true
    /// Kept.
    open var keyboardDismissMode = KeyboardDismissMode.none
    /// Kept.
    open var contentInsetAdjustmentBehavior = ContentInsetAdjustmentBehavior.automatic
    /// The content's layout guide.
    public var contentLayoutGuide: UILayoutGuide { standardGuide(.scrollContent) }
    /// The frame's layout guide.
    public var frameLayoutGuide: UILayoutGuide { standardGuide(.scrollFrame) }

    /// When the keyboard goes (`UIScrollView.KeyboardDismissMode`), kept.
    public enum KeyboardDismissMode: Int, Sendable { case none, onDrag, interactive }
    /// How insets adjust (`UIScrollView.ContentInsetAdjustmentBehavior`), kept.
    public enum ContentInsetAdjustmentBehavior: Int, Sendable { case automatic, scrollableAxes, never, always }

    /// Scrolls (kept).
    open func setContentOffset(_ contentOffset: CGPoint, animated: Bool) { self.contentOffset = contentOffset }
    /// Scrolls `rect` into view (nothing to do).
    open func scrollRectToVisible(_ rect: CGRect, animated: Bool) {}
}

/// A font (`UIFont`): name and size, kept.
public final class UIFont: NSObject, Sendable {
    /// A weight (`UIFont.Weight`).
    public struct Weight: RawRepresentable, Hashable, Sendable {
        public let rawValue: CGFloat
        public init(rawValue: CGFloat) { self.rawValue = rawValue }
        public static let ultraLight = Weight(rawValue: -0.8)
        public static let thin = Weight(rawValue: -0.6)
        public static let light = Weight(rawValue: -0.4)
        public static let regular = Weight(rawValue: 0)
        public static let medium = Weight(rawValue: 0.23)
        public static let semibold = Weight(rawValue: 0.3)
        public static let bold = Weight(rawValue: 0.4)
        public static let heavy = Weight(rawValue: 0.56)
        public static let black = Weight(rawValue: 0.62)
    }

    /// A Dynamic Type style (`UIFont.TextStyle`).
    public struct TextStyle: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let largeTitle = TextStyle(rawValue: "UICTFontTextStyleTitle0")
        public static let title1 = TextStyle(rawValue: "UICTFontTextStyleTitle1")
        public static let title2 = TextStyle(rawValue: "UICTFontTextStyleTitle2")
        public static let title3 = TextStyle(rawValue: "UICTFontTextStyleTitle3")
        public static let headline = TextStyle(rawValue: "UICTFontTextStyleHeadline")
        public static let subheadline = TextStyle(rawValue: "UICTFontTextStyleSubhead")
        public static let body = TextStyle(rawValue: "UICTFontTextStyleBody")
        public static let callout = TextStyle(rawValue: "UICTFontTextStyleCallout")
        public static let footnote = TextStyle(rawValue: "UICTFontTextStyleFootnote")
        public static let caption1 = TextStyle(rawValue: "UICTFontTextStyleCaption1")
        public static let caption2 = TextStyle(rawValue: "UICTFontTextStyleCaption2")

        var pointSize: CGFloat {
            [Self.largeTitle: 34, .title1: 28, .title2: 22, .title3: 20, .headline: 17, .subheadline: 15, .body: 17,
             .callout: 16, .footnote: 13, .caption1: 12, .caption2: 11][self] ?? 17
        }
    }

    /// The font's name.
    public let fontName: String
    /// The size in points.
    public let pointSize: CGFloat
    /// The weight.
    public let weight: Weight

    /// The font called `fontName` at `fontSize`; any name is accepted.
    public init?(name fontName: String, size fontSize: CGFloat) {
        self.fontName = fontName
        pointSize = fontSize
        weight = .regular
    }

    private init(system size: CGFloat, weight: Weight, name: String = ".SFUI") {
        fontName = name
        pointSize = size
        self.weight = weight
    }

    public static func systemFont(ofSize fontSize: CGFloat) -> UIFont { UIFont(system: fontSize, weight: .regular) }
    public static func systemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont { UIFont(system: fontSize, weight: weight) }
    public static func boldSystemFont(ofSize fontSize: CGFloat) -> UIFont { UIFont(system: fontSize, weight: .bold) }
    public static func italicSystemFont(ofSize fontSize: CGFloat) -> UIFont { UIFont(system: fontSize, weight: .regular) }
    public static func monospacedSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        UIFont(system: fontSize, weight: weight, name: ".SFMono")
    }
    public static func monospacedDigitSystemFont(ofSize fontSize: CGFloat, weight: Weight) -> UIFont {
        UIFont(system: fontSize, weight: weight)
    }
    public static func preferredFont(forTextStyle style: TextStyle) -> UIFont { UIFont(system: style.pointSize, weight: .regular) }
    /// The same font at `fontSize`.
    public func withSize(_ fontSize: CGFloat) -> UIFont { UIFont(system: fontSize, weight: weight, name: fontName) }
}
