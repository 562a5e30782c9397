/// A stack's layout (`HStack`, `VStack`, `ZStack`), as Apple documents it: the stack offers
/// each child the space left, least flexible child first, divided equally among those not yet
/// sized, and higher `.layoutPriority` first (what the lower ones need at least is kept back
/// for them); spacing (8 pt unless given) goes between children; across the axis, children are
/// placed by the alignment. A ZStack offers every child its whole proposal and takes the
/// largest size.
final class StackLayoutView: LayoutView {
    enum Axis { case horizontal, vertical, depth }

    let axis: Axis
    let spacing: CGFloat
    /// Where children sit across the axis: 0 leading/top, 0.5 centre, 1 trailing/bottom.
    let alignment: (horizontal: CGFloat, vertical: CGFloat)

    /// The spacing SwiftUI puts between two views when the stack does not give one.
    static let defaultSpacing: CGFloat = 8

    init(axis: Axis, spacing: CGFloat?, alignment: (horizontal: CGFloat, vertical: CGFloat)) {
        self.axis = axis
        self.spacing = spacing ?? Self.defaultSpacing
        self.alignment = alignment
        super.init(frame: .zero)
    }

    required init?(coder: NSCoder) { nil }

    private var isVertical: Bool { axis == .vertical }
    private func along(_ size: CGSize) -> CGFloat { isVertical ? size.height : size.width }
    private func across(_ size: CGSize) -> CGFloat { isVertical ? size.width : size.height }
    private func size(along: CGFloat, across: CGFloat) -> CGSize {
        isVertical ? CGSize(width: across, height: along) : CGSize(width: along, height: across)
    }
    private func proposal(along: CGFloat?, across: CGFloat?) -> ProposedSize {
        isVertical ? ProposedSize(width: across, height: along) : ProposedSize(width: along, height: across)
    }

    override func size(for proposal: ProposedSize) -> CGSize {
        guard axis != .depth else {
            let sizes = subviews.map { SwiftUILayout.size(of: $0, for: proposal) }
            return CGSize(width: sizes.map(\.width).max() ?? 0, height: sizes.map(\.height).max() ?? 0)
        }
        let sizes = childSizes(for: proposal)
        let length = sizes.map(along).reduce(0, +) + totalSpacing
        return size(along: length, across: sizes.map(across).max() ?? 0)
    }

    private var totalSpacing: CGFloat { CGFloat(max(0, subviews.count - 1)) * spacing }

    /// Each child's size: the least flexible first, each offered an equal share of what is left.
    private func childSizes(for proposal: ProposedSize) -> [CGSize] {
        let children = subviews
        for case let spacer as SpacerView in children { spacer.axis = isVertical ? .vertical : .horizontal }
        let acrossProposal = isVertical ? proposal.width : proposal.height
        guard let available = isVertical ? proposal.height : proposal.width else {
            return children.map { SwiftUILayout.size(of: $0, for: self.proposal(along: nil, across: acrossProposal)) }
        }
        let least = children.map { along(SwiftUILayout.size(of: $0, for: self.proposal(along: 0, across: acrossProposal))) }
        let flexibility = children.indices.map { index in
            along(SwiftUILayout.size(of: children[index], for: self.proposal(along: .infinity, across: acrossProposal))) - least[index]
        }
        let priorities = children.map(SwiftUILayout.priority(of:))
        var remaining = available - totalSpacing
        var sizes = Array(repeating: CGSize.zero, count: children.count)
        for priority in Set(priorities).sorted(by: >) {
            let group = children.indices.filter { priorities[$0] == priority }
            // The lower priorities' least sizes are kept back for them.
            let keptBack = children.indices.filter { priorities[$0] < priority }.map { least[$0] }.reduce(0, +)
            var left = group.count
            for index in group.sorted(by: { flexibility[$0] < flexibility[$1] }) {
                let offer = max(0, (remaining - keptBack) / CGFloat(left))
                sizes[index] = SwiftUILayout.size(of: children[index], for: self.proposal(along: offer, across: acrossProposal))
                remaining -= along(sizes[index])
                left -= 1
            }
        }
        return sizes
    }

    override func placeChildren() {
        let bounds = self.bounds
        guard axis != .depth else {
            for child in subviews {
                let size = SwiftUILayout.size(of: child, for: ProposedSize(bounds.size))
                SwiftUILayout.place(child, at: CGRect(x: (bounds.width - size.width) * alignment.horizontal,
                                                      y: (bounds.height - size.height) * alignment.vertical,
                                                      width: size.width, height: size.height))
            }
            return
        }
        let sizes = childSizes(for: ProposedSize(bounds.size))
        let crossAlignment = isVertical ? alignment.horizontal : alignment.vertical
        var position: CGFloat = 0
        for (child, size) in zip(subviews, sizes) {
            let offset = (across(bounds.size) - across(size)) * crossAlignment
            let origin = isVertical ? CGPoint(x: offset, y: position) : CGPoint(x: position, y: offset)
            SwiftUILayout.place(child, at: CGRect(origin: origin, size: size))
            position += along(size) + spacing
        }
    }
}

/// Space that grows along its stack's axis (`Spacer`): at least `minLength` (8 pt unless given)
/// along it, nothing across it; in no stack, it grows both ways.
final class SpacerView: LayoutView {
    enum Axis { case horizontal, vertical, both }
    var axis = Axis.both
    let minLength: CGFloat

    init(minLength: CGFloat?) {
        self.minLength = minLength ?? StackLayoutView.defaultSpacing
        super.init(frame: .zero)
    }

    required init?(coder: NSCoder) { nil }

    override func size(for proposal: ProposedSize) -> CGSize {
        let width = max(minLength, proposal.width ?? minLength)
        let height = max(minLength, proposal.height ?? minLength)
        switch axis {
        case .horizontal: return CGSize(width: width, height: 0)
        case .vertical: return CGSize(width: 0, height: height)
        case .both: return CGSize(width: width, height: height)
        }
    }
}
