@_spi(WalletHost) import UIKit

/// A coordinate space (`CoordinateSpace`): the view's own, the screen's, or one named by
/// `.coordinateSpace(name:)` (taken as the screen's here).
public enum CoordinateSpace: Hashable {
    case global
    case local
    case named(AnyHashable)
}

/// What a ``GeometryReader`` tells its content (`GeometryProxy`): the size it was given and
/// where it is.
public struct GeometryProxy: Sendable {
    /// The size the reader takes: all it is offered.
    public let size: CGSize
    /// The reader's frame on the screen.
    let globalFrame: CGRect
    /// The safe area's insets inside the reader (none: a sheet's content is laid out inside it).
    public var safeAreaInsets: EdgeInsets { EdgeInsets() }

    /// The reader's frame in `coordinateSpace`: at zero in its own, on the screen otherwise.
    public func frame(in coordinateSpace: CoordinateSpace) -> CGRect {
        coordinateSpace == .local ? CGRect(origin: .zero, size: size) : globalFrame
    }
}

/// A view whose content is built from the size it is given (`GeometryReader`): it takes all
/// it is offered (10 x 10 for an ideal size, as SwiftUI's) and puts its content at its top
/// leading corner. The content is rendered for the screen's size first, so the form has it
/// before any layout, and again in each layout pass that gives the reader another size.
public struct GeometryReader<Content: View>: View, PrimitiveView {
    public typealias Body = Never
    let content: (GeometryProxy) -> Content

    public init(@ViewBuilder content: @escaping (GeometryProxy) -> Content) {
        self.content = content
    }

    func render(into renderer: inout Renderer) {
        let place = renderer
        let content = self.content
        let view = GeometryReaderView { proxy in
            var inner = place
            return inner.renderChildren(content(proxy), as: "geometry")
        }
        renderer.add(view)
    }
}

/// The view a ``GeometryReader`` makes: renders its content again when it is placed at a new size.
final class GeometryReaderView: LayoutView {
    private let renderContent: (GeometryProxy) -> [UIView]
    private var renderedFor: CGRect?

    init(renderContent: @escaping (GeometryProxy) -> [UIView]) {
        self.renderContent = renderContent
        super.init(frame: .zero)
        show(GeometryProxy(size: UIScreen.main.bounds.size, globalFrame: UIScreen.main.bounds))
    }

    required init?(coder: NSCoder) { nil }

    private func show(_ proxy: GeometryProxy) {
        for view in subviews { view.removeFromSuperview() }
        renderContent(proxy).forEach(addSubview)
        renderedFor = proxy.globalFrame
    }

    override func size(for proposal: ProposedSize) -> CGSize {
        CGSize(width: proposal.width ?? 10, height: proposal.height ?? 10)
    }

    override func placeChildren() {
        let global = convert(bounds, to: nil)
        if renderedFor != global { show(GeometryProxy(size: bounds.size, globalFrame: global)) }
        for child in subviews {
            let size = SwiftUILayout.size(of: child, for: ProposedSize(bounds.size))
            SwiftUILayout.place(child, at: CGRect(origin: .zero, size: size))
        }
    }
}
