@_spi(WalletHost) import UIKit

/// A view controller showing a SwiftUI view (`UIHostingController`): its view holds the UIKit
/// views the SwiftUI view renders to, so the screen is the form as for any UIKit screen, and
/// each state change renders the next one; each layout pass lays them out in the safe area
/// (``HostingView``).
@preconcurrency @MainActor
open class UIHostingController<Content: View>: UIViewController {
    private let state = HostingState()
    private var environmentObjects: [ObjectIdentifier: AnyObject] = [:]

    /// The SwiftUI view shown; setting it renders it.
    public var rootView: Content {
        didSet { state.invalidate() }
    }

    /// A controller showing `rootView`.
    public init(rootView: Content) {
        self.rootView = rootView
        super.init(nibName: nil, bundle: nil)
        state.render = { [weak self] in self?.renderNow() }
    }

    /// Storyboards do not exist here; this initializer fails.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// The hosting view, rendered at once.
    open override func loadView() {
        view = HostingView()
        renderNow()
    }

    /// The size the SwiftUI view takes when offered `size` (SwiftUI's layout; see LayoutView.swift).
    open func sizeThatFits(in size: CGSize) -> CGSize {
        guard let root = viewIfLoaded?.subviews.first else { return size }
        (root as? LayoutView)?.forgetSizes()
        return SwiftUILayout.size(of: root, for: ProposedSize(size))
    }

    /// Renders the pending state changes before the user agent's tap lands.
    @_spi(WalletHost) open override func updateBeforeTap() {
        state.renderIfNeeded()
        super.updateBeforeTap()
    }

    /// Renders `rootView` into the view's subviews, replacing the previous render.
    private func renderNow() {
        guard let view = viewIfLoaded else { return }
        var environment = EnvironmentValues()
        environment.dismiss = DismissAction { [weak self] in self?.dismissFromSwiftUI() }
        var renderer = Renderer(host: state, environment: environment)
        state.navigationTitle = nil
        renderer.render(rootView, as: "root")
        if let title = state.navigationTitle { self.title = title }
        for subview in view.subviews { subview.removeFromSuperview() }
        // Several views at the root are a column, as SwiftUI lays them out.
        if renderer.views.count == 1 {
            view.addSubview(renderer.views[0])
        } else if !renderer.views.isEmpty {
            let column = StackLayoutView(axis: .vertical, spacing: nil, alignment: (0.5, 0.5))
            renderer.views.forEach(column.addSubview)
            view.addSubview(column)
        }
        view.setNeedsLayout()
    }

    /// `@Environment(\.dismiss)`: dismisses this controller, or the controller presenting it.
    private func dismissFromSwiftUI() {
        if presentingViewController != nil {
            dismiss(animated: true)
        } else if let parent, parent.presentingViewController != nil {
            parent.dismiss(animated: true)
        } else {
            print("SwiftUI: dismiss() called on a screen that nothing presents; nothing to dismiss")
        }
    }
}
