import Foundation
import WalletWire

/// A view (`UIView`). Views keep their structure and state; what is visible becomes the form
/// the host's user agent shows (see ``UIViewController``), and the laid-out views the screen a
/// page draws (``ScreenTreeReader``). No pixels are drawn here.
@preconcurrency @MainActor
open class UIView: UIResponder {
    /// The view's frame in its superview.
    open var frame: CGRect
    /// The view's bounds: its frame's size at the origin.
    open var bounds: CGRect {
        get { CGRect(origin: .zero, size: frame.size) }
        set { frame.size = newValue.size }
    }
    /// The centre of the frame.
    open var center: CGPoint {
        get { CGPoint(x: frame.midX, y: frame.midY) }
        set { frame.origin = CGPoint(x: newValue.x - frame.width / 2, y: newValue.y - frame.height / 2) }
    }
    /// The view's background color.
    open var backgroundColor: UIColor?
    /// The tint of the view's controls.
    open var tintColor: UIColor! = .systemBlue
    /// True when the view is hidden: it and its subviews are left out of the form.
    open var isHidden = false { didSet { screenDidChange() } }
    /// Opacity; a view at 0 is left out of the form, as the user could not see it.
    open var alpha: CGFloat = 1 { didSet { screenDidChange() } }
    /// False to ignore touches; a button in such a view is left out of the form.
    open var isUserInteractionEnabled = true { didSet { screenDidChange() } }
    /// Clips subviews to the bounds (kept, not applied).
    open var clipsToBounds = false
    /// How content fills the bounds (kept, not applied).
    open var contentMode = ContentMode.scaleToFill
    /// A number to find the view by (``viewWithTag(_:)``).
    open var tag = 0
    /// True (the default) to keep the frame the code sets; false to have Auto Layout set it
    /// from the constraints (see AutoLayoutSolving.swift).
    open var translatesAutoresizingMaskIntoConstraints = true
    /// The identifier UI tests find the view by; a text field's or switch's name in the form.
    open var accessibilityIdentifier: String?
    /// What VoiceOver reads; a switch's label in the form when set.
    open var accessibilityLabel: String?
    /// True when VoiceOver treats the view as one element (kept).
    open var isAccessibilityElement = false
    /// Margins inside the view; zero for UIKit's defaults (``effectiveLayoutMargins``).
    open var layoutMargins = UIEdgeInsets.zero
    /// Margins inside the view in reading direction; zero for UIKit's defaults.
    open var directionalLayoutMargins = NSDirectionalEdgeInsets.zero
    /// The view's layer: corner radius, border and shadow kept for source compatibility.
    public let layer = CALayer()
    /// The views added to this one, in order.
    open private(set) var subviews: [UIView] = []
    /// The view this one was added to.
    open private(set) weak var superview: UIView?
    /// What the drawn screen shows this plain view as (SwiftUI's shapes say `.shape`); nil for
    /// what the view's class says.
    package var drawnKind: ViewNode.Kind?
    /// The gradient this view fills itself with (SwiftUI's `LinearGradient`), for the drawn screen.
    package private(set) var drawnGradient: ViewNode.Gradient?

    /// Fills the view with a linear gradient of `colors` from `start` to `end` (points in its
    /// unit square), as the drawn screen shows it.
    package func setDrawnGradient(colors: [UIColor], start: CGPoint, end: CGPoint) {
        guard [start.x, start.y, end.x, end.y].allSatisfy(\.isFinite) else { return }
        drawnGradient = ViewNode.Gradient(colors: colors.map(ScreenTreeReader.hex),
                                          start: ViewNode.UnitPoint(x: Double(start.x), y: Double(start.y)),
                                          end: ViewNode.UnitPoint(x: Double(end.x), y: Double(end.y)))
    }
    /// The constraints added with ``addConstraint(_:)``.
    open private(set) var constraints: [NSLayoutConstraint] = []

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
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` at `index` among the subviews.
    open func insertSubview(_ view: UIView, at index: Int) {
        view.removeFromSuperview()
        subviews.insert(view, at: min(max(index, 0), subviews.count))
        view.superview = self
        screenDidChange()
    }

    /// Inserts `view` just below `siblingSubview`.
    open func insertSubview(_ view: UIView, belowSubview siblingSubview: UIView) {
        insertSubview(view, at: subviews.firstIndex { $0 === siblingSubview } ?? 0)
    }

    /// Inserts `view` just above `siblingSubview`.
    open func insertSubview(_ view: UIView, aboveSubview siblingSubview: UIView) {
        insertSubview(view, at: (subviews.firstIndex { $0 === siblingSubview } ?? subviews.count - 1) + 1)
    }

    /// Moves `view` to the top of the subviews.
    open func bringSubviewToFront(_ view: UIView) {
        guard view.superview === self else { return }
        addSubview(view)
    }

    /// Moves `view` to the bottom of the subviews.
    open func sendSubviewToBack(_ view: UIView) {
        guard view.superview === self else { return }
        insertSubview(view, at: 0)
    }

    /// Removes this view from its superview.
    open func removeFromSuperview() {
        guard let parent = superview else { return }
        parent.subviews.removeAll { $0 === self }
        superview = nil
        parent.screenDidChange()
    }

    /// This view or the first subview (depth first) whose ``tag`` is `tag`.
    open func viewWithTag(_ tag: Int) -> UIView? {
        if self.tag == tag { return self }
        for view in subviews { if let found = view.viewWithTag(tag) { return found } }
        return nil
    }

    /// True when `view` is this view or one of its descendants.
    open func isDescendant(of view: UIView) -> Bool {
        var current: UIView? = self
        while let candidate = current {
            if candidate === view { return true }
            current = candidate.superview
        }
        return false
    }

    /// Adds and activates `constraint` (solved in the layout pass, see AutoLayoutSolving.swift).
    open func addConstraint(_ constraint: NSLayoutConstraint) {
        constraints.append(constraint)
        constraint.isActive = true
    }
    /// Adds and activates `constraints`.
    open func addConstraints(_ constraints: [NSLayoutConstraint]) { constraints.forEach(addConstraint) }
    /// Removes and deactivates `constraint`.
    open func removeConstraint(_ constraint: NSLayoutConstraint) {
        constraints.removeAll { $0 === constraint }
        constraint.isActive = false
    }
    /// Forgets `constraints`.
    open func removeConstraints(_ constraints: [NSLayoutConstraint]) { constraints.forEach(removeConstraint) }
    /// Asks for a layout pass: ``layoutSubviews()`` runs at the next ``layoutIfNeeded()`` (its
    /// controller's screen runs one before it is shown).
    open func setNeedsLayout() { needsLayout = true }
    /// Runs ``layoutSubviews()`` now if a layout was asked for (a new view asks), then lays out
    /// the subviews the same way, top down, as UIKit's layout pass does (see UIView+Layout.swift).
    open func layoutIfNeeded() { runLayoutPass() }
    /// Lays out the subviews: override it to set their frames from ``bounds``. Frames from Auto
    /// Layout constraints and stack views are set before it runs (see UIView+Layout.swift).
    open func layoutSubviews() {}
    /// The safe area, margins and other guides UIKit gives the view, made on first use.
    var standardGuides: [UILayoutGuide.Kind: UILayoutGuide] = [:]
    /// The guides the code added (``addLayoutGuide(_:)``).
    var addedGuides: [UILayoutGuide] = []
    /// True for a view controller's root view (its margins are 16 pt on the sides).
    package var isControllerRoot: Bool { owningController != nil }
    /// The controller whose root view this is.
    package weak var owningController: UIViewController?
    /// True until the next layout pass.
    var needsLayout = true
    /// Sets the subviews' frames as the view's kind does, in every layout pass before
    /// ``layoutSubviews()``: a stack view arranges its views; nothing for a plain view.
    @_spi(WalletHost) open func placeSubviews() {}
    /// Nothing is drawn.
    open func setNeedsDisplay() {}
    /// How much the view resists growing past its ``intrinsicContentSize`` along each axis
    /// (horizontal, vertical); 250 by default, as in UIKit.
    package var huggingPriorities = (horizontal: UILayoutPriority.defaultLow, vertical: UILayoutPriority.defaultLow)
    /// How much the view resists shrinking below its ``intrinsicContentSize``; 750 by default.
    package var compressionPriorities = (horizontal: UILayoutPriority.defaultHigh, vertical: UILayoutPriority.defaultHigh)
    /// Sets how much the view resists growing along `axis` (Auto Layout and stack views use it).
    open func setContentHuggingPriority(_ priority: UILayoutPriority, for axis: NSLayoutConstraint.Axis) {
        if axis == .horizontal { huggingPriorities.horizontal = priority } else { huggingPriorities.vertical = priority }
    }
    /// Sets how much the view resists shrinking along `axis`.
    open func setContentCompressionResistancePriority(_ priority: UILayoutPriority, for axis: NSLayoutConstraint.Axis) {
        if axis == .horizontal { compressionPriorities.horizontal = priority } else { compressionPriorities.vertical = priority }
    }
    /// The hugging priority along `axis`.
    open func contentHuggingPriority(for axis: NSLayoutConstraint.Axis) -> UILayoutPriority {
        axis == .horizontal ? huggingPriorities.horizontal : huggingPriorities.vertical
    }
    /// The compression resistance along `axis`.
    open func contentCompressionResistancePriority(for axis: NSLayoutConstraint.Axis) -> UILayoutPriority {
        axis == .horizontal ? compressionPriorities.horizontal : compressionPriorities.vertical
    }
    /// The view's natural size (see IntrinsicContentSize.swift); ``noIntrinsicMetric`` in a
    /// dimension it has none in, as a plain view in both.
    open var intrinsicContentSize: CGSize { CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric) }
    /// Tells layout the natural size changed: the next layout pass uses the new one.
    open func invalidateIntrinsicContentSize() { superview?.setNeedsLayout() }
    /// The view's size for `size`: its natural size where it has one, else its frame's.
    open func sizeThatFits(_ size: CGSize) -> CGSize {
        let natural = intrinsicContentSize
        return CGSize(width: natural.width >= 0 ? natural.width : frame.width, height: natural.height >= 0 ? natural.height : frame.height)
    }
    /// Resizes the frame to ``sizeThatFits(_:)``.
    open func sizeToFit() { frame.size = sizeThatFits(frame.size) }
    /// Ends editing in the view's text fields.
    @discardableResult
    open func endEditing(_ force: Bool) -> Bool { true }

    /// Runs `animations` at once and `completion` with true: nothing is animated here.
    open class func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void,
                            completion: ((Bool) -> Void)? = nil) {
        animations()
        completion?(true)
    }

    /// Runs `animations` at once and `completion` with true.
    open class func animate(withDuration duration: TimeInterval, delay: TimeInterval, options: AnimationOptions = [],
                            animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        animations()
        completion?(true)
    }

    /// Animation options (`UIView.AnimationOptions`), accepted and ignored.
    public struct AnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let curveEaseInOut = AnimationOptions([])
        public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
        public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
        public static let curveLinear = AnimationOptions(rawValue: 3 << 16)
        public static let transitionCrossDissolve = AnimationOptions(rawValue: 5 << 20)
    }

    /// How content fills the view (`UIView.ContentMode`).
    public enum ContentMode: Int, Sendable {
        case scaleToFill, scaleAspectFit, scaleAspectFill, redraw, center, top, bottom, left, right
        case topLeft, topRight, bottomLeft, bottomRight
    }

    /// Tells the screen shown to the user agent that what is visible may have changed.
    package func screenDidChange() {
        ScreenSession.noteChange()
    }
}

/// Insets on four sides (`UIEdgeInsets`).
public struct UIEdgeInsets: Hashable, Sendable {
    public var top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }
    public init() { self.init(top: 0, left: 0, bottom: 0, right: 0) }
    public static let zero = UIEdgeInsets()
}

/// Insets on four sides in reading direction (`NSDirectionalEdgeInsets`).
public struct NSDirectionalEdgeInsets: Hashable, Sendable {
    public var top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat
    public init(top: CGFloat, leading: CGFloat, bottom: CGFloat, trailing: CGFloat) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }
    public init() { self.init(top: 0, leading: 0, bottom: 0, trailing: 0) }
    public static let zero = NSDirectionalEdgeInsets()
}
