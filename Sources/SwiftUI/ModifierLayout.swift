/// The one view a layout modifier wraps: its first subview.
class WrapperLayoutView: LayoutView {
    var content: UIView? { subviews.first { !($0 is DecorationHolder) } }

    init(wrapping content: UIView) {
        super.init(frame: .zero)
        addSubview(content)
        isHidden = content.isHidden
    }

    required init?(coder: NSCoder) { nil }

    func contentSize(for proposal: ProposedSize) -> CGSize {
        content.map { SwiftUILayout.size(of: $0, for: proposal) } ?? .zero
    }

    /// The content's size, and the content placed in all of it (a wrapper that only carries a
    /// priority).
    override func size(for proposal: ProposedSize) -> CGSize { contentSize(for: proposal) }
    override func placeChildren() {
        if let content { SwiftUILayout.place(content, at: bounds) }
    }
}

/// `.padding`: the content offered the proposal less the insets; the insets added around it.
final class PaddingLayoutView: WrapperLayoutView {
    let insets: EdgeInsets

    init(wrapping content: UIView, insets: EdgeInsets) {
        self.insets = insets
        super.init(wrapping: content)
    }

    required init?(coder: NSCoder) { nil }

    private var horizontal: CGFloat { insets.leading + insets.trailing }
    private var vertical: CGFloat { insets.top + insets.bottom }

    override func size(for proposal: ProposedSize) -> CGSize {
        let inner = ProposedSize(width: proposal.width.map { max(0, $0 - horizontal) }, height: proposal.height.map { max(0, $0 - vertical) })
        let size = contentSize(for: inner)
        return CGSize(width: size.width + horizontal, height: size.height + vertical)
    }

    override func placeChildren() {
        guard let content else { return }
        let inner = CGSize(width: max(0, bounds.width - horizontal), height: max(0, bounds.height - vertical))
        let size = contentSize(for: ProposedSize(inner))
        SwiftUILayout.place(content, at: CGRect(x: insets.leading + (inner.width - size.width) / 2,
                                                y: insets.top + (inner.height - size.height) / 2, width: size.width, height: size.height))
    }
}

/// `.fixedSize`: the content offered nil (its ideal size) on the fixed axes, the proposal on
/// the others, and taking that size whatever its parent offered.
final class FixedSizeLayoutView: WrapperLayoutView {
    let horizontal: Bool
    let vertical: Bool

    init(wrapping content: UIView, horizontal: Bool, vertical: Bool) {
        self.horizontal = horizontal
        self.vertical = vertical
        super.init(wrapping: content)
    }

    required init?(coder: NSCoder) { nil }

    private func inner(_ proposal: ProposedSize) -> ProposedSize {
        ProposedSize(width: horizontal ? nil : proposal.width, height: vertical ? nil : proposal.height)
    }

    override func size(for proposal: ProposedSize) -> CGSize { contentSize(for: inner(proposal)) }

    override func placeChildren() {
        guard let content else { return }
        SwiftUILayout.place(content, at: CGRect(origin: .zero, size: contentSize(for: inner(ProposedSize(bounds.size)))))
    }
}

/// `.frame(width:height:)` and `.frame(minWidth:...maxHeight:)`, as Apple documents them: a
/// fixed dimension is offered to the content and taken; a flexible frame offers the proposal
/// clamped to its bounds and takes `min(max, max(min(min, ...)))` of the content's size and the
/// proposal. The content sits in the frame by `alignment`.
final class FrameLayoutView: WrapperLayoutView {
    struct Bounds {
        var fixed: CGFloat?
        var minimum: CGFloat?
        var ideal: CGFloat?
        var maximum: CGFloat?
    }

    let width: Bounds
    let height: Bounds
    let alignment: Alignment

    init(wrapping content: UIView, width: Bounds, height: Bounds, alignment: Alignment) {
        self.width = width
        self.height = height
        self.alignment = alignment
        super.init(wrapping: content)
    }

    required init?(coder: NSCoder) { nil }

    private static func offer(_ proposed: CGFloat?, _ bounds: Bounds) -> CGFloat? {
        if let fixed = bounds.fixed { return fixed }
        guard var value = proposed ?? bounds.ideal else { return nil }
        if let minimum = bounds.minimum { value = max(minimum, value) }
        if let maximum = bounds.maximum { value = min(maximum, value) }
        return value
    }

    private static func take(_ child: CGFloat, _ proposed: CGFloat?, _ bounds: Bounds) -> CGFloat {
        if let fixed = bounds.fixed { return fixed }
        let proposed = proposed ?? bounds.ideal ?? child
        var result = child
        if let minimum = bounds.minimum { result = max(minimum, min(result, proposed)) }
        if let maximum = bounds.maximum { result = min(maximum, max(result, proposed)) }
        return result
    }

    override func size(for proposal: ProposedSize) -> CGSize {
        let child = contentSize(for: ProposedSize(width: Self.offer(proposal.width, width), height: Self.offer(proposal.height, height)))
        return CGSize(width: Self.take(child.width, proposal.width, width), height: Self.take(child.height, proposal.height, height))
    }

    override func placeChildren() {
        guard let content else { return }
        let size = contentSize(for: ProposedSize(width: Self.offer(bounds.width, width), height: Self.offer(bounds.height, height)))
        SwiftUILayout.place(content, at: CGRect(x: (bounds.width - size.width) * alignment.horizontal.fraction,
                                                y: (bounds.height - size.height) * alignment.vertical.fraction,
                                                width: size.width, height: size.height))
    }
}

/// Views drawn behind or in front of a modifier's content (`.background`, `.overlay`): drawn,
/// never read into the form (which never had them), so touches pass through them.
final class DecorationHolder: LayoutView {
    let alignment: Alignment

    init(_ views: [UIView], alignment: Alignment) {
        self.alignment = alignment
        super.init(frame: .zero)
        isUserInteractionEnabled = false
        views.forEach(addSubview)
    }

    required init?(coder: NSCoder) { nil }

    override func placeChildren() {
        for child in subviews {
            let size = SwiftUILayout.size(of: child, for: ProposedSize(bounds.size))
            SwiftUILayout.place(child, at: CGRect(x: (bounds.width - size.width) * alignment.horizontal.fraction,
                                                  y: (bounds.height - size.height) * alignment.vertical.fraction,
                                                  width: size.width, height: size.height))
        }
    }
}

/// A modifier's content with what decorates it: the size is the content's; the background and
/// overlay are offered that size. Corner radius, border and a round clip apply to this view.
final class DecoratedLayoutView: WrapperLayoutView {
    /// Rounds by half the shorter side once placed (`.clipShape(Circle())`, `Capsule()`).
    var isRound = false
    /// Moves the content by this much without moving the frame (`.offset`).
    var offset = CGSize.zero

    func addBackground(_ views: [UIView], alignment: Alignment) {
        insertSubview(DecorationHolder(views, alignment: alignment), at: 0)
    }

    func addOverlay(_ views: [UIView], alignment: Alignment) {
        addSubview(DecorationHolder(views, alignment: alignment))
    }

    override func size(for proposal: ProposedSize) -> CGSize { contentSize(for: proposal) }

    override func placeChildren() {
        if let content { SwiftUILayout.place(content, at: CGRect(origin: CGPoint(x: offset.width, y: offset.height), size: bounds.size)) }
        for case let holder as DecorationHolder in subviews { SwiftUILayout.place(holder, at: bounds) }
        if isRound { layer.cornerRadius = min(bounds.width, bounds.height) / 2 }
    }
}

extension HorizontalAlignment {
    /// 0 leading, 0.5 centre, 1 trailing.
    var fraction: CGFloat { self == .leading ? 0 : self == .trailing ? 1 : 0.5 }
}

extension VerticalAlignment {
    /// 0 top, 0.5 centre (and first baseline), 1 bottom.
    var fraction: CGFloat { self == .top ? 0 : self == .bottom ? 1 : 0.5 }
}
