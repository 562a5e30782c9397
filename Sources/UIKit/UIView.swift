import Foundation

/// A view (`UIView`). Nothing is drawn; views exist so that controller code that builds a
/// hierarchy compiles and keeps its structure.
@preconcurrency @MainActor
open class UIView: UIResponder {
    /// The view's frame in its superview.
    open var frame: CGRect
    /// The view's background color.
    open var backgroundColor: UIColor?
    /// True when the view is hidden.
    open var isHidden = false
    /// The identifier UI tests find the view by; a text field's name in a user-agent script.
    open var accessibilityIdentifier: String?
    /// The views added to this one, in order.
    open private(set) var subviews: [UIView] = []
    /// The view this one was added to.
    open private(set) weak var superview: UIView?

    /// A view with `frame`.
    public init(frame: CGRect) {
        self.frame = frame
        super.init()
    }

    /// An empty view.
    public convenience override init() {
        self.init(frame: .zero)
    }

    /// Storyboards do not exist here; this initializer fails.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// Adds `view` on top of the subviews.
    open func addSubview(_ view: UIView) {
        view.removeFromSuperview()
        subviews.append(view)
        view.superview = self
    }

    /// Removes this view from its superview.
    open func removeFromSuperview() {
        superview?.subviews.removeAll { $0 === self }
        superview = nil
    }
}

