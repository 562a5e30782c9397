import Foundation

/// How a stack view places its arranged views, as UIKit's does: along the axis by
/// ``distribution``, across it by ``alignment``, ``spacing`` (or a custom spacing) between them;
/// a hidden arranged view takes no space. Each view's size along the axis is its
/// ``UIView/fittingSize`` (its natural size, or its frame's, within its constant size constraints).
///
/// With `.fill`, room left over goes to the view with the lowest hugging priority (a view with
/// no natural size first, the last one on a tie), and a shortfall comes off the view with the
/// lowest compression resistance; `.fillProportionally` shares the length in proportion to the
/// natural sizes; `.equalCentering` is placed as `.equalSpacing`.
extension UIStackView {
    private var isVertical: Bool { axis == .vertical }
    private var shownViews: [UIView] { arrangedSubviews.filter { !$0.isHidden && $0.superview === self } }

    private func along(_ size: CGSize) -> CGFloat { isVertical ? size.height : size.width }
    private func across(_ size: CGSize) -> CGFloat { isVertical ? size.width : size.height }

    /// The natural size: the arranged views' lengths and the spacing between them along the axis,
    /// the widest across it, plus the margins when the arrangement is relative to them.
    func arrangedContentSize() -> CGSize {
        let views = shownViews
        let sizes = views.map(\.fittingSize)
        var length = sizes.map(along).reduce(0, +) + gaps(between: views).reduce(0, +)
        if distribution == .fillEqually, let longest = sizes.map(along).max() {
            length = longest * CGFloat(views.count) + gaps(between: views).reduce(0, +)
        }
        let thickness = sizes.map(across).max() ?? 0
        let margins = isLayoutMarginsRelativeArrangement ? effectiveLayoutMargins : .zero
        return isVertical
            ? CGSize(width: thickness + margins.left + margins.right, height: length + margins.top + margins.bottom)
            : CGSize(width: length + margins.left + margins.right, height: thickness + margins.top + margins.bottom)
    }

    private func gaps(between views: [UIView]) -> [CGFloat] {
        views.dropLast().map { customSpacing(after: $0) }
    }

    /// Sets the arranged views' frames in the stack's bounds.
    func arrangeSubviews() {
        let views = shownViews
        guard !views.isEmpty else { return }
        let margins = isLayoutMarginsRelativeArrangement ? effectiveLayoutMargins : .zero
        let content = CGRect(x: margins.left, y: margins.top, width: max(0, bounds.width - margins.left - margins.right),
                             height: max(0, bounds.height - margins.top - margins.bottom))
        let natural = views.map(\.fittingSize)
        var gaps = self.gaps(between: views)
        let lengths = distribute(along(content.size), natural: natural.map(along), views: views, gaps: &gaps)
        var position = isVertical ? content.minY : content.minX
        for (index, view) in views.enumerated() {
            let room = across(content.size)
            let thickness = alignment == .fill ? room : min(across(natural[index]), room)
            let offset: CGFloat
            switch alignment {
            case .fill, .leading, .firstBaseline: offset = 0
            case .center: offset = (room - thickness) / 2
            case .trailing, .lastBaseline: offset = room - thickness
            }
            let crossOrigin = (isVertical ? content.minX : content.minY) + offset
            view.frame = isVertical
                ? CGRect(x: crossOrigin, y: position, width: thickness, height: lengths[index])
                : CGRect(x: position, y: crossOrigin, width: lengths[index], height: thickness)
            position += lengths[index] + (index < gaps.count ? gaps[index] : 0)
        }
    }

    /// Each view's length along the axis in `length`; `gaps` widened for the spacing distributions.
    private func distribute(_ length: CGFloat, natural: [CGFloat], views: [UIView], gaps: inout [CGFloat]) -> [CGFloat] {
        let spacing = gaps.reduce(0, +)
        switch distribution {
        case .fillEqually:
            return Array(repeating: max(0, (length - spacing) / CGFloat(views.count)), count: views.count)
        case .fillProportionally:
            let total = natural.reduce(0, +)
            guard total > 0 else { return natural }
            return natural.map { $0 / total * max(0, length - spacing) }
        case .equalSpacing, .equalCentering:
            if gaps.count > 0 {
                let even = (length - natural.reduce(0, +)) / CGFloat(gaps.count)
                gaps = gaps.map { max($0, even) }
            }
            return natural
        case .fill:
            var lengths = natural
            let extra = length - natural.reduce(0, +) - spacing
            if extra > 0, let index = stretchingIndex(views) {
                lengths[index] += extra
            } else if extra < 0, let index = shrinkingIndex(views) {
                lengths[index] = max(0, lengths[index] + extra)
            }
            return lengths
        }
    }

    private func stretchingIndex(_ views: [UIView]) -> Int? {
        let axis = self.axis
        func hugging(_ view: UIView) -> Float {
            along(view.intrinsicContentSize) < 0 ? -1 : view.contentHuggingPriority(for: axis).rawValue
        }
        let lowest = views.map(hugging).min()
        return views.lastIndex { hugging($0) == lowest }
    }

    private func shrinkingIndex(_ views: [UIView]) -> Int? {
        let lowest = views.map { $0.contentCompressionResistancePriority(for: axis).rawValue }.min()
        return views.lastIndex { $0.contentCompressionResistancePriority(for: axis).rawValue == lowest }
    }
}
