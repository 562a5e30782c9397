@_spi(WalletHost) import UIKit

/// What a parent offers a child (`ProposedViewSize`): a width and height, nil for "your ideal
/// size", `.infinity` for "as much as you like".
struct ProposedSize: Hashable {
    var width: CGFloat?
    var height: CGFloat?

    /// The ideal size: no constraint on either axis.
    static let unspecified = ProposedSize(width: nil, height: nil)

    init(width: CGFloat?, height: CGFloat?) {
        self.width = width
        self.height = height
    }

    init(_ size: CGSize) { self.init(width: size.width, height: size.height) }
}

/// A UIKit view made by SwiftUI that lays out its subviews SwiftUI's way: a parent proposes a
/// size, the view answers with the size it takes (``size(for:)``), and the parent places it;
/// then the view places its own children in its bounds (``placeChildren()``).
@MainActor
class LayoutView: UIView {
    private var sizes: [ProposedSize: CGSize] = [:]
    /// `.layoutPriority`: which children of a stack are sized first.
    var layoutPriority: Double = 0

    /// The size this view takes for `proposal`, remembered for the layout pass.
    final func cachedSize(for proposal: ProposedSize) -> CGSize {
        if let size = sizes[proposal] { return size }
        let size = size(for: proposal)
        sizes[proposal] = size
        return size
    }

    /// The size the view takes for `proposal`; subclasses say.
    func size(for proposal: ProposedSize) -> CGSize { CGSize(width: proposal.width ?? 0, height: proposal.height ?? 0) }

    /// Sets the children's frames in ``bounds``; subclasses say.
    func placeChildren() {}

    /// Forgets the sizes of the last layout pass, here and below.
    func forgetSizes() {
        sizes.removeAll()
        for case let child as LayoutView in allDescendants { child.sizes.removeAll() }
    }

    private var allDescendants: [UIView] { subviews + subviews.flatMap { ($0 as? LayoutView)?.allDescendants ?? [] } }
}

/// SwiftUI's layout of any view the renderer made: a ``LayoutView`` answers for itself, the
/// UIKit controls standing for SwiftUI's primitives with the sizes iOS gives them (docs/SDK.md).
@MainActor
enum SwiftUILayout {
    /// The size `view` takes for `proposal`.
    static func size(of view: UIView, for proposal: ProposedSize) -> CGSize {
        switch view {
        case let layout as LayoutView: return layout.cachedSize(for: proposal)
        case let label as UILabel:
            let size = TextMetrics.size(of: label.text ?? "", font: label.font, maxWidth: proposal.width, lineLimit: label.numberOfLines)
            return size
        case let field as UITextField:
            let natural = field.fieldContentSize()
            return CGSize(width: proposal.width ?? natural.width, height: natural.height)
        case let toggle as UISwitch:
            let label = TextMetrics.size(of: toggle.title ?? "", font: .systemFont(ofSize: 17))
            return CGSize(width: proposal.width ?? (label.width + 8 + 51), height: max(31, label.height))
        case let button as SwiftUIButton where button.labelLayout != nil:
            return labelledButtonSize(button, label: button.labelLayout!, for: proposal)
        case let button as UIButton:
            return buttonSize(button)
        case let image as UIImageView:
            return imageSize(image, for: proposal)
        default:
            let natural = view.intrinsicContentSize
            return CGSize(width: natural.width >= 0 ? natural.width : proposal.width ?? 10,
                          height: natural.height >= 0 ? natural.height : proposal.height ?? 10)
        }
    }

    /// The view's `.layoutPriority` (0 unless set).
    static func priority(of view: UIView) -> Double { (view as? LayoutView)?.layoutPriority ?? 0 }

    /// Puts `view` at `frame` (in its superview) and lays out its children.
    static func place(_ view: UIView, at frame: CGRect) {
        view.frame = frame
        (view as? LayoutView)?.placeChildren()
    }

    /// A button's label (17 pt, no padding) or, styled `.borderedProminent` or `.bordered`, its
    /// configuration's padded size (UIButton's, 34.4 pt tall).
    private static func buttonSize(_ button: UIButton) -> CGSize {
        if button.configuration != nil { return button.buttonContentSize() }
        let text = TextMetrics.size(of: button.currentTitle ?? "", font: button.titleFont)
        return text
    }

    /// A button whose label has a layout: the label's size for the proposal less the style's
    /// padding (14 pt each side, 7 above and below with a configuration), plus the padding.
    private static func labelledButtonSize(_ button: UIButton, label: UIView, for proposal: ProposedSize) -> CGSize {
        let padding = button.configuration == nil ? CGSize.zero : CGSize(width: 28, height: 14)
        let inner = ProposedSize(width: proposal.width.map { max(0, $0 - padding.width) }, height: proposal.height.map { max(0, $0 - padding.height) })
        let size = size(of: label, for: inner)
        return CGSize(width: size.width + padding.width, height: size.height + padding.height)
    }

    /// An image at its size; a symbol as a line of text (1.2 x the font's size, scaled by
    /// `.imageScale`); a resizable image takes what it is offered, keeping its aspect ratio
    /// when it fits or fills.
    private static func imageSize(_ view: UIImageView, for proposal: ProposedSize) -> CGSize {
        let style = view.imageStyle
        let natural = view.image.map { $0.symbolName != nil ? CGSize(width: style.symbolSide, height: style.symbolSide) : $0.size } ?? .zero
        guard style.isResizable else { return natural }
        var size = CGSize(width: proposal.width ?? natural.width, height: proposal.height ?? natural.height)
        if let aspect = style.aspect, natural.width > 0, natural.height > 0 {
            let scale = aspect == .fit ? min(size.width / natural.width, size.height / natural.height)
                : max(size.width / natural.width, size.height / natural.height)
            if scale.isFinite { size = CGSize(width: natural.width * scale, height: natural.height * scale) }
        }
        return size
    }
}

/// How an image view made by SwiftUI sizes its image.
struct ImageStyle {
    var isResizable = false
    var aspect: ContentMode?
    var symbolSide: CGFloat = 20.4
}

/// A SwiftUI image's view.
final class SwiftUIImageView: UIImageView {
    var style = ImageStyle()
}

extension UIImageView {
    var imageStyle: ImageStyle { (self as? SwiftUIImageView)?.style ?? ImageStyle() }
}

/// A view that fills what it is offered (a `Color`, a shape), 10 pt for an ideal size as SwiftUI's.
final class FillView: LayoutView {
    /// Rounds the corners by half the shorter side once placed (a `Circle` or `Capsule`).
    var isRound = false

    override func size(for proposal: ProposedSize) -> CGSize {
        CGSize(width: proposal.width ?? 10, height: proposal.height ?? 10)
    }

    override func placeChildren() {
        if isRound { layer.cornerRadius = min(bounds.width, bounds.height) / 2 }
    }
}
