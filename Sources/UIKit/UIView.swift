import Foundation

/// A view (`UIView`). Nothing is drawn; views exist so that controller code that builds a
/// hierarchy compiles and keeps its structure.
@MainActor
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

/// A color (`UIColor`), kept as RGBA components.
public final class UIColor: NSObject, Sendable {
    /// Red, green, blue and alpha, each 0...1.
    public let red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat

    /// A color from RGBA components, each 0...1.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A gray from white 0 (black) to 1 (white).
    public convenience init(white: CGFloat, alpha: CGFloat) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    public static let black = UIColor(white: 0, alpha: 1)
    public static let white = UIColor(white: 1, alpha: 1)
    public static let clear = UIColor(white: 0, alpha: 0)
    public static let systemBackground = UIColor(white: 1, alpha: 1)
    public static let label = UIColor(white: 0, alpha: 1)
}
