@_spi(WalletHost) import UIKit

/// A hosting controller's view: SwiftUI's root is offered the safe area (the screen less the
/// status bar's 47 pt and the home indicator's 34 pt, where the view reaches them) and centred
/// in it, in every layout pass.
final class HostingView: UIView {
    @_spi(WalletHost) public override func placeSubviews() {
        guard let root = subviews.first else { return }
        (root as? LayoutView)?.forgetSizes()
        let insets = safeAreaInsets
        let area = CGRect(x: insets.left, y: insets.top, width: max(0, bounds.width - insets.left - insets.right),
                          height: max(0, bounds.height - insets.top - insets.bottom))
        let size = SwiftUILayout.size(of: root, for: ProposedSize(area.size))
        SwiftUILayout.place(root, at: CGRect(x: area.minX + (area.width - size.width) / 2, y: area.minY + (area.height - size.height) / 2,
                                             width: size.width, height: size.height))
    }
}

/// `ScrollView`: takes what it is offered and offers its content the width (vertical) or
/// height (horizontal) and an ideal length, placed at the top leading corner.
final class ScrollLayoutView: WrapperLayoutView {
    let isHorizontal: Bool

    init(wrapping content: UIView, isHorizontal: Bool) {
        self.isHorizontal = isHorizontal
        super.init(wrapping: content)
        drawnKind = .scroll
    }

    required init?(coder: NSCoder) { nil }

    private func contentProposal(_ size: CGSize) -> ProposedSize {
        isHorizontal ? ProposedSize(width: nil, height: size.height) : ProposedSize(width: size.width, height: nil)
    }

    override func size(for proposal: ProposedSize) -> CGSize {
        let ideal = contentSize(for: isHorizontal ? ProposedSize(width: nil, height: proposal.height) : ProposedSize(width: proposal.width, height: nil))
        return CGSize(width: proposal.width ?? ideal.width, height: proposal.height ?? ideal.height)
    }

    override func placeChildren() {
        guard let content else { return }
        var size = contentSize(for: contentProposal(bounds.size))
        if isHorizontal { size.height = bounds.height } else { size.width = bounds.width }
        SwiftUILayout.place(content, at: CGRect(origin: .zero, size: size))
    }
}

/// `NavigationView` and `NavigationStack`: a 44 pt bar, and below it the large title (34 pt
/// bold in a 52 pt row) when the screen has one; the content fills the rest, centred. The title
/// is drawn, not read into the form (the form's title is already the screen's title).
final class NavigationLayoutView: LayoutView {
    static let barHeight: CGFloat = 44
    static let largeTitleHeight: CGFloat = 52
    private let content: UIView
    private let titleHolder: DecorationHolder?

    init(content: UIView, title: String?) {
        self.content = content
        if let title, !title.isEmpty {
            let label = UILabel()
            label.text = title
            label.font = .systemFont(ofSize: 34, weight: .bold)
            titleHolder = DecorationHolder([label], alignment: .leading)
        } else {
            titleHolder = nil
        }
        super.init(frame: .zero)
        if let titleHolder { addSubview(titleHolder) }
        addSubview(content)
    }

    required init?(coder: NSCoder) { nil }

    private var barsHeight: CGFloat { Self.barHeight + (titleHolder == nil ? 0 : Self.largeTitleHeight) }

    override func size(for proposal: ProposedSize) -> CGSize {
        let inner = SwiftUILayout.size(of: content, for: ProposedSize(width: proposal.width, height: proposal.height.map { max(0, $0 - barsHeight) }))
        return CGSize(width: proposal.width ?? inner.width, height: proposal.height ?? inner.height + barsHeight)
    }

    override func placeChildren() {
        if let titleHolder {
            SwiftUILayout.place(titleHolder, at: CGRect(x: 16, y: Self.barHeight, width: max(0, bounds.width - 32), height: Self.largeTitleHeight))
        }
        let area = CGSize(width: bounds.width, height: max(0, bounds.height - barsHeight))
        let size = SwiftUILayout.size(of: content, for: ProposedSize(area))
        SwiftUILayout.place(content, at: CGRect(x: (area.width - size.width) / 2, y: barsHeight + (area.height - size.height) / 2,
                                                width: size.width, height: size.height))
    }
}
