/// `List` and `Form` as iOS draws them by default, an inset grouped list: on the grouped
/// background, each section a white card 16 pt from the sides with 10 pt corners, 35 pt apart
/// (20 pt above a section with a header); each row at least 44 pt tall, its content 16 pt from
/// the card's sides and 11 pt above and below; a header or footer in its 13 pt text 16 pt inside
/// the card's edge, 6 pt from the card. Rows not in a `Section` form one. It takes the height
/// offered (it scrolls) and lays its sections out from the top.
final class ListLayoutView: LayoutView {
    static let sideInset: CGFloat = 16, rowInset: CGFloat = 16, rowMinimumHeight: CGFloat = 44, rowPadding: CGFloat = 11
    static let sectionGap: CGFloat = 35, headerGap: CGFloat = 20, captionGap: CGFloat = 6, cornerRadius: CGFloat = 10

    init(rows: [UIView]) {
        super.init(frame: .zero)
        drawnKind = .scroll
        backgroundColor = .systemGroupedBackground
        var loose: [UIView] = []
        for row in rows {
            if row is SectionLayoutView {
                if !loose.isEmpty { addSubview(SectionLayoutView(header: [], rows: loose, footer: [])) }
                loose = []
                addSubview(row)
            } else {
                loose.append(row)
            }
        }
        if !loose.isEmpty { addSubview(SectionLayoutView(header: [], rows: loose, footer: [])) }
    }

    required init?(coder: NSCoder) { nil }

    private func sectionHeights(width: CGFloat) -> [CGFloat] {
        subviews.map { SwiftUILayout.size(of: $0, for: ProposedSize(width: width, height: nil)).height }
    }

    private func gap(before section: UIView) -> CGFloat {
        (section as? SectionLayoutView)?.hasHeader == true ? Self.headerGap : Self.sectionGap
    }

    override func size(for proposal: ProposedSize) -> CGSize {
        let width = proposal.width ?? UIScreen.main.bounds.width
        let content = zip(subviews, sectionHeights(width: width)).map { gap(before: $0) + $1 }.reduce(0, +)
        return CGSize(width: width, height: proposal.height ?? content)
    }

    override func placeChildren() {
        var y: CGFloat = 0
        for (section, height) in zip(subviews, sectionHeights(width: bounds.width)) {
            y += gap(before: section)
            SwiftUILayout.place(section, at: CGRect(x: 0, y: y, width: bounds.width, height: height))
            y += height
        }
    }
}

/// A `Section`: header, a card of rows, footer (see ``ListLayoutView``). Outside a list it is
/// the same, at the width it is offered.
final class SectionLayoutView: LayoutView {
    private let header: [UIView]
    private let footer: [UIView]
    private let card = RowsCardView()
    var hasHeader: Bool { !header.isEmpty }

    init(header: [UIView], rows: [UIView], footer: [UIView]) {
        self.header = header
        self.footer = footer
        super.init(frame: .zero)
        for label in (header + footer).flatMap(\.labelsInside) {
            label.font = .systemFont(ofSize: 13)
            label.textColor = .secondaryLabel
        }
        header.forEach(addSubview)
        rows.forEach(card.addSubview)
        addSubview(card)
        footer.forEach(addSubview)
    }

    required init?(coder: NSCoder) { nil }

    private var captionWidth: (CGFloat) -> CGFloat { { max(0, $0 - 2 * (ListLayoutView.sideInset + ListLayoutView.rowInset)) } }

    private func captionHeight(_ views: [UIView], width: CGFloat) -> CGFloat {
        let heights = views.map { SwiftUILayout.size(of: $0, for: ProposedSize(width: captionWidth(width), height: nil)).height }
        return heights.isEmpty ? 0 : heights.reduce(0, +) + ListLayoutView.captionGap
    }

    override func size(for proposal: ProposedSize) -> CGSize {
        let width = proposal.width ?? UIScreen.main.bounds.width
        let cardHeight = SwiftUILayout.size(of: card, for: ProposedSize(width: width - 2 * ListLayoutView.sideInset, height: nil)).height
        return CGSize(width: width, height: captionHeight(header, width: width) + cardHeight + captionHeight(footer, width: width))
    }

    override func placeChildren() {
        let x = ListLayoutView.sideInset + ListLayoutView.rowInset
        var y: CGFloat = 0
        for view in header {
            let size = SwiftUILayout.size(of: view, for: ProposedSize(width: captionWidth(bounds.width), height: nil))
            SwiftUILayout.place(view, at: CGRect(x: x, y: y, width: size.width, height: size.height))
            y += size.height
        }
        if !header.isEmpty { y += ListLayoutView.captionGap }
        let cardWidth = bounds.width - 2 * ListLayoutView.sideInset
        let cardHeight = SwiftUILayout.size(of: card, for: ProposedSize(width: cardWidth, height: nil)).height
        SwiftUILayout.place(card, at: CGRect(x: ListLayoutView.sideInset, y: y, width: cardWidth, height: cardHeight))
        y += cardHeight + (footer.isEmpty ? 0 : ListLayoutView.captionGap)
        for view in footer {
            let size = SwiftUILayout.size(of: view, for: ProposedSize(width: captionWidth(bounds.width), height: nil))
            SwiftUILayout.place(view, at: CGRect(x: x, y: y, width: size.width, height: size.height))
            y += size.height
        }
    }
}

/// A section's white card: one row per subview, each at least 44 pt tall.
final class RowsCardView: LayoutView {
    override init(frame: CGRect) {
        super.init(frame: frame)
        backgroundColor = .secondarySystemGroupedBackground
        layer.cornerRadius = ListLayoutView.cornerRadius
    }

    required init?(coder: NSCoder) { nil }

    private func rowSizes(width: CGFloat) -> [CGSize] {
        let inner = max(0, width - 2 * ListLayoutView.rowInset)
        return subviews.map { SwiftUILayout.size(of: $0, for: ProposedSize(width: inner, height: nil)) }
    }

    private static func rowHeight(_ content: CGSize) -> CGFloat {
        max(ListLayoutView.rowMinimumHeight, content.height + 2 * ListLayoutView.rowPadding)
    }

    override func size(for proposal: ProposedSize) -> CGSize {
        let width = proposal.width ?? UIScreen.main.bounds.width
        return CGSize(width: width, height: rowSizes(width: width).map(Self.rowHeight).reduce(0, +))
    }

    override func placeChildren() {
        var y: CGFloat = 0
        for (row, size) in zip(subviews, rowSizes(width: bounds.width)) {
            let height = Self.rowHeight(size)
            SwiftUILayout.place(row, at: CGRect(x: ListLayoutView.rowInset, y: y + (height - size.height) / 2, width: size.width, height: size.height))
            y += height
        }
    }
}

extension UIView {
    /// The labels in this view's tree, itself included.
    var labelsInside: [UILabel] { (self as? UILabel).map { [$0] } ?? subviews.flatMap(\.labelsInside) }
}
