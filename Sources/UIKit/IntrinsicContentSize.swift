import Foundation

// The natural sizes of UIKit's views (`intrinsicContentSize`), with the numbers iOS gives them
// (docs/SDK.md lists them); text by ``TextMetrics``.

extension UIView {
    /// A dimension a view has no natural size in (`UIView.noIntrinsicMetric`).
    public static let noIntrinsicMetric: CGFloat = -1

    /// The size a stack view or Auto Layout gives the view when nothing else says: its
    /// `intrinsicContentSize`, else its frame's size, each dimension for itself, within the
    /// constant width and height constraints active on it.
    package var fittingSize: CGSize {
        let natural = intrinsicContentSize
        var size = CGSize(width: natural.width >= 0 ? natural.width : frame.width,
                          height: natural.height >= 0 ? natural.height : frame.height)
        for constraint in NSLayoutConstraint.active where constraint.firstItem === self && constraint.secondItem == nil {
            switch (constraint.firstAttribute, constraint.relation) {
            case (.width, .equal): size.width = constraint.constant
            case (.width, .greaterThanOrEqual): size.width = max(size.width, constraint.constant)
            case (.width, .lessThanOrEqual): size.width = min(size.width, constraint.constant)
            case (.height, .equal): size.height = constraint.constant
            case (.height, .greaterThanOrEqual): size.height = max(size.height, constraint.constant)
            case (.height, .lessThanOrEqual): size.height = min(size.height, constraint.constant)
            default: break
            }
        }
        return size
    }
}

extension UILabel {
    /// The text's size, wrapped at `preferredMaxLayoutWidth` (else the label's width) when it may
    /// take several lines.
    package func labelContentSize() -> CGSize {
        let wrapWidth = preferredMaxLayoutWidth > 0 ? preferredMaxLayoutWidth : (frame.width > 0 ? frame.width : nil)
        return TextMetrics.size(of: text ?? "", font: font ?? .systemFont(ofSize: 17),
                                maxWidth: numberOfLines == 1 ? nil : wrapWidth, lineLimit: numberOfLines)
    }
}

extension UIButton {
    /// The title's font: the title label's (15 pt for a plain system button), 17 pt with a configuration.
    package var titleFont: UIFont {
        configuration == nil ? (titleLabel?.font ?? .systemFont(ofSize: 15)) : .systemFont(ofSize: 17)
    }

    /// How the button is drawn: its title colour, fill and corner radius. A configuration's
    /// filled style fills with the tint and rounds by 6 pt (a capsule style by half the height).
    package var drawnStyle: (foreground: UIColor, background: UIColor?, cornerRadius: CGFloat) {
        let tint = isEnabled ? (tintColor ?? .systemBlue) : UIColor.tertiaryLabel
        guard let configuration else { return (buttonType == .custom ? .white : tint, nil, 0) }
        let radius: CGFloat = configuration.cornerStyle == .capsule ? frame.height / 2 : 6
        switch configuration.look {
        case .plain: return (configuration.baseForegroundColor ?? tint, nil, 0)
        case .filled: return (configuration.baseForegroundColor ?? .white, configuration.baseBackgroundColor ?? tint, radius)
        case .tinted: return (configuration.baseForegroundColor ?? tint, (configuration.baseBackgroundColor ?? tint).withAlphaComponent(0.15), radius)
        case .gray: return (configuration.baseForegroundColor ?? tint, configuration.baseBackgroundColor ?? .systemFill, radius)
        }
    }

    /// Title and image side by side; a plain button is 6 pt taller than its line above and
    /// below (30 pt at 15 pt), a configured one 7 pt and 14 pt wider on each side (34.4 pt tall).
    package func buttonContentSize() -> CGSize {
        let text = TextMetrics.size(of: currentTitle ?? "", font: titleFont)
        let image = currentImage.map { $0.symbolName != nil ? CGSize(width: 20.4, height: 20.4) : $0.size } ?? .zero
        let gap: CGFloat = text.width > 0 && image.width > 0 ? (configuration?.imagePadding ?? 0) : 0
        let content = CGSize(width: text.width + gap + image.width, height: max(text.height, image.height))
        if configuration != nil {
            return CGSize(width: content.width + 28, height: content.height + 14)
        }
        let insets = contentEdgeInsets
        return CGSize(width: content.width + insets.left + insets.right,
                      height: max(content.height + 12, 30) + insets.top + insets.bottom)
    }
}

extension UITextField {
    /// The text (or placeholder) on one line; a rounded-rect field adds 7 pt above and below and
    /// on each side (34.4 pt tall at 17 pt, as iOS's 34).
    package func fieldContentSize() -> CGSize {
        let font = self.font ?? .systemFont(ofSize: 17)
        let widest = max(TextMetrics.width(of: text ?? "", font: font), TextMetrics.width(of: placeholder ?? "", font: font))
        let padding: CGFloat = borderStyle == .roundedRect ? 14 : 0
        return CGSize(width: widest + padding, height: TextMetrics.lineHeight(font) + padding)
    }
}
