import Foundation

/// A layout priority (`UILayoutPriority`).
public struct UILayoutPriority: RawRepresentable, Hashable, Sendable, ExpressibleByFloatLiteral {
    public let rawValue: Float
    public init(rawValue: Float) { self.rawValue = rawValue }
    public init(_ rawValue: Float) { self.rawValue = rawValue }
    public init(floatLiteral value: Float) { rawValue = value }
    public static let required = UILayoutPriority(1000)
    public static let defaultHigh = UILayoutPriority(750)
    public static let dragThatCanResizeScene = UILayoutPriority(510)
    public static let defaultLow = UILayoutPriority(250)
    public static let fittingSizeLevel = UILayoutPriority(50)

    public static func + (lhs: UILayoutPriority, rhs: Float) -> UILayoutPriority { UILayoutPriority(lhs.rawValue + rhs) }
    public static func - (lhs: UILayoutPriority, rhs: Float) -> UILayoutPriority { UILayoutPriority(lhs.rawValue - rhs) }
}

/// A relation between two layout attributes (`NSLayoutConstraint`). Constraints are kept with
/// their values, so that layout code compiles and reads back what it set; no layout is
/// computed (there is no screen), and frames stay as set.
@preconcurrency @MainActor
open class NSLayoutConstraint: NSObject {
    /// A layout attribute (`NSLayoutConstraint.Attribute`).
    public enum Attribute: Int, Sendable {
        case left = 1, right, top, bottom, leading, trailing, width, height, centerX, centerY, lastBaseline, firstBaseline
        case leftMargin, rightMargin, topMargin, bottomMargin, leadingMargin, trailingMargin, centerXWithinMargins
        case centerYWithinMargins
        case notAnAttribute = 0
    }

    /// How the two sides relate (`NSLayoutConstraint.Relation`).
    public enum Relation: Int, Sendable {
        case lessThanOrEqual = -1, equal = 0, greaterThanOrEqual = 1
    }

    /// An axis (`NSLayoutConstraint.Axis`).
    public enum Axis: Int, Sendable {
        case horizontal = 0, vertical = 1
    }

    /// The first item.
    open private(set) weak var firstItem: AnyObject?
    /// The first item's attribute.
    public let firstAttribute: Attribute
    /// The relation.
    public let relation: Relation
    /// The second item, if any.
    open private(set) weak var secondItem: AnyObject?
    /// The second item's attribute.
    public let secondAttribute: Attribute
    /// The multiplier of the second attribute.
    public let multiplier: CGFloat
    /// The constant added.
    open var constant: CGFloat
    /// The priority.
    open var priority = UILayoutPriority.required
    /// True while the constraint is in force: the next layout pass solves it with the others.
    open var isActive = false {
        didSet {
            guard isActive != oldValue else { return }
            if isActive { Self.activeConstraints.append(self) } else { Self.activeConstraints.removeAll { $0 === self } }
        }
    }

    /// Every active constraint, oldest first: held while active, as UIKit's views hold theirs,
    /// and let go once its first item is gone.
    private static var activeConstraints: [NSLayoutConstraint] = []

    /// The active constraints whose items are alive.
    package static var active: [NSLayoutConstraint] {
        activeConstraints.removeAll { $0.firstItem == nil || ($0.secondAttribute != .notAnAttribute && $0.secondItem == nil) }
        return activeConstraints
    }
    /// A name for debugging.
    open var identifier: String?

    /// `item1.attr1 relation multiplier * item2.attr2 + c`.
    public init(item view1: Any, attribute attr1: Attribute, relatedBy relation: Relation, toItem view2: Any?,
                attribute attr2: Attribute, multiplier: CGFloat, constant c: CGFloat) {
        firstItem = view1 as AnyObject
        firstAttribute = attr1
        self.relation = relation
        secondItem = view2.map { $0 as AnyObject }
        secondAttribute = attr2
        self.multiplier = multiplier
        constant = c
        super.init()
    }

    /// Activates every constraint.
    open class func activate(_ constraints: [NSLayoutConstraint]) {
        for constraint in constraints { constraint.isActive = true }
    }

    /// Deactivates every constraint.
    open class func deactivate(_ constraints: [NSLayoutConstraint]) {
        for constraint in constraints { constraint.isActive = false }
    }
}

/// An attribute of a view or layout guide to constrain (`NSLayoutAnchor`).
@preconcurrency @MainActor
open class NSLayoutAnchor<AnchorType: AnyObject>: NSObject {
    weak var item: AnyObject?
    let attribute: NSLayoutConstraint.Attribute

    init(item: AnyObject, attribute: NSLayoutConstraint.Attribute) {
        self.item = item
        self.attribute = attribute
        super.init()
    }

    private func relate(_ relation: NSLayoutConstraint.Relation, _ anchor: NSLayoutAnchor<AnchorType>?,
                        multiplier: CGFloat = 1, constant: CGFloat) -> NSLayoutConstraint {
        NSLayoutConstraint(item: item as Any, attribute: attribute, relatedBy: relation, toItem: anchor?.item,
                           attribute: anchor?.attribute ?? .notAnAttribute, multiplier: multiplier, constant: constant)
    }

    /// `self == anchor`.
    open func constraint(equalTo anchor: NSLayoutAnchor<AnchorType>) -> NSLayoutConstraint {
        relate(.equal, anchor, constant: 0)
    }
    /// `self == anchor + c`.
    open func constraint(equalTo anchor: NSLayoutAnchor<AnchorType>, constant c: CGFloat) -> NSLayoutConstraint {
        relate(.equal, anchor, constant: c)
    }
    /// `self >= anchor`.
    open func constraint(greaterThanOrEqualTo anchor: NSLayoutAnchor<AnchorType>) -> NSLayoutConstraint {
        relate(.greaterThanOrEqual, anchor, constant: 0)
    }
    /// `self >= anchor + c`.
    open func constraint(greaterThanOrEqualTo anchor: NSLayoutAnchor<AnchorType>, constant c: CGFloat) -> NSLayoutConstraint {
        relate(.greaterThanOrEqual, anchor, constant: c)
    }
    /// `self <= anchor`.
    open func constraint(lessThanOrEqualTo anchor: NSLayoutAnchor<AnchorType>) -> NSLayoutConstraint {
        relate(.lessThanOrEqual, anchor, constant: 0)
    }
    /// `self <= anchor + c`.
    open func constraint(lessThanOrEqualTo anchor: NSLayoutAnchor<AnchorType>, constant c: CGFloat) -> NSLayoutConstraint {
        relate(.lessThanOrEqual, anchor, constant: c)
    }

    fileprivate func dimension(_ relation: NSLayoutConstraint.Relation, _ anchor: NSLayoutAnchor<AnchorType>?,
                               multiplier: CGFloat, constant: CGFloat) -> NSLayoutConstraint {
        relate(relation, anchor, multiplier: multiplier, constant: constant)
    }
}

/// A horizontal anchor (`NSLayoutXAxisAnchor`).
@preconcurrency @MainActor
open class NSLayoutXAxisAnchor: NSLayoutAnchor<NSLayoutXAxisAnchor> {
    /// `self == anchor + multiplier * system spacing`.
    open func constraint(equalToSystemSpacingAfter anchor: NSLayoutXAxisAnchor, multiplier: CGFloat) -> NSLayoutConstraint {
        constraint(equalTo: anchor, constant: 8 * multiplier)
    }
}

/// A vertical anchor (`NSLayoutYAxisAnchor`).
@preconcurrency @MainActor
open class NSLayoutYAxisAnchor: NSLayoutAnchor<NSLayoutYAxisAnchor> {
    /// `self == anchor + multiplier * system spacing`.
    open func constraint(equalToSystemSpacingBelow anchor: NSLayoutYAxisAnchor, multiplier: CGFloat) -> NSLayoutConstraint {
        constraint(equalTo: anchor, constant: 8 * multiplier)
    }
}

/// A width or height anchor (`NSLayoutDimension`).
@preconcurrency @MainActor
open class NSLayoutDimension: NSLayoutAnchor<NSLayoutDimension> {
    /// `self == c`.
    open func constraint(equalToConstant c: CGFloat) -> NSLayoutConstraint { dimension(.equal, nil, multiplier: 0, constant: c) }
    /// `self >= c`.
    open func constraint(greaterThanOrEqualToConstant c: CGFloat) -> NSLayoutConstraint {
        dimension(.greaterThanOrEqual, nil, multiplier: 0, constant: c)
    }
    /// `self <= c`.
    open func constraint(lessThanOrEqualToConstant c: CGFloat) -> NSLayoutConstraint {
        dimension(.lessThanOrEqual, nil, multiplier: 0, constant: c)
    }
    /// `self == m * anchor`.
    open func constraint(equalTo anchor: NSLayoutDimension, multiplier m: CGFloat) -> NSLayoutConstraint {
        dimension(.equal, anchor, multiplier: m, constant: 0)
    }
    /// `self == m * anchor + c`.
    open func constraint(equalTo anchor: NSLayoutDimension, multiplier m: CGFloat, constant c: CGFloat) -> NSLayoutConstraint {
        dimension(.equal, anchor, multiplier: m, constant: c)
    }
}

/// The anchors every view and layout guide has.
@preconcurrency @MainActor
public protocol LayoutAnchorProviding: AnyObject {}

extension LayoutAnchorProviding {
    public var leadingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .leading) }
    public var trailingAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .trailing) }
    public var leftAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .left) }
    public var rightAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .right) }
    public var centerXAnchor: NSLayoutXAxisAnchor { NSLayoutXAxisAnchor(item: self, attribute: .centerX) }
    public var topAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .top) }
    public var bottomAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .bottom) }
    public var centerYAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .centerY) }
    public var widthAnchor: NSLayoutDimension { NSLayoutDimension(item: self, attribute: .width) }
    public var heightAnchor: NSLayoutDimension { NSLayoutDimension(item: self, attribute: .height) }
}

extension UIView: LayoutAnchorProviding {
    public var firstBaselineAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .firstBaseline) }
    public var lastBaselineAnchor: NSLayoutYAxisAnchor { NSLayoutYAxisAnchor(item: self, attribute: .lastBaseline) }
    /// The area not covered by the status bar and home indicator (``safeAreaInsets``).
    public var safeAreaLayoutGuide: UILayoutGuide { standardGuide(.safeArea) }
    /// The view's margins (``effectiveLayoutMargins``).
    public var layoutMarginsGuide: UILayoutGuide { standardGuide(.margins) }
    /// The readable width of the view: its margins, at most 672 pt wide.
    public var readableContentGuide: UILayoutGuide { standardGuide(.readable) }
    /// The keyboard's top (the keyboard is never shown: the safe area's bottom).
    public var keyboardLayoutGuide: UILayoutGuide { standardGuide(.keyboard) }

    /// The parts of the view under the status bar (47 pt), a navigation bar (44 pt more, see
    /// ``UIViewController/showsNavigationBar``) and the home indicator (34 pt) of the 390 x 844
    /// screen, from where the view is on it.
    public var safeAreaInsets: UIEdgeInsets {
        var origin = frame.origin
        var top: UIView = self
        while let view = top.superview {
            origin.x += view.frame.minX
            origin.y += view.frame.minY
            top = view
        }
        let screen = UIScreen.main.bounds.height
        let bars = UIScreen.safeAreaTop + (top.owningController?.showsNavigationBar == true ? UINavigationController.barHeight : 0)
        return UIEdgeInsets(top: max(0, min(frame.height, bars - origin.y)), left: 0,
                            bottom: max(0, min(frame.height, origin.y + frame.height - (screen - UIScreen.safeAreaBottom))), right: 0)
    }

    /// The margins Auto Layout and stack views use: the ones the code set, else UIKit's
    /// defaults, 8 pt on each side, or for a controller's root view 16 pt left and right and
    /// none above and below, inside the safe area.
    package var effectiveLayoutMargins: UIEdgeInsets {
        if layoutMargins != .zero { return layoutMargins }
        let directional = directionalLayoutMargins
        if directional != .zero {
            return UIEdgeInsets(top: directional.top, left: directional.leading, bottom: directional.bottom, right: directional.trailing)
        }
        guard isControllerRoot else { return UIEdgeInsets(top: 8, left: 8, bottom: 8, right: 8) }
        let safe = safeAreaInsets
        return UIEdgeInsets(top: safe.top, left: 16 + safe.left, bottom: safe.bottom, right: 16 + safe.right)
    }
}

extension UIScreen {
    /// The status bar's height on the 390 x 844 screen (an iPhone 14's safe area top).
    package static let safeAreaTop: CGFloat = 47
    /// The home indicator's height.
    package static let safeAreaBottom: CGFloat = 34
}

/// A rectangle to lay views out against (`UILayoutGuide`).
@preconcurrency @MainActor
open class UILayoutGuide: NSObject, LayoutAnchorProviding {
    /// The view the guide belongs to.
    open weak var owningView: UIView?
    /// A name for debugging.
    open var identifier = ""
    /// Which rectangle of its view the guide is: a guide the code added is its own.
    package let kind: Kind

    /// The rectangles a view's guides stand for.
    package enum Kind: Hashable, Sendable { case custom, safeArea, margins, readable, keyboard, scrollContent, scrollFrame }

    /// A guide to add to a view with `addLayoutGuide`.
    public override init() {
        kind = .custom
        super.init()
    }

    init(owningView: UIView, kind: Kind) {
        self.owningView = owningView
        self.kind = kind
        super.init()
    }
}

extension UIView {
    /// The view's guide of `kind`, made once and kept (a constraint holds its items weakly).
    package func standardGuide(_ kind: UILayoutGuide.Kind) -> UILayoutGuide {
        if let guide = standardGuides[kind] { return guide }
        let guide = UILayoutGuide(owningView: self, kind: kind)
        standardGuides[kind] = guide
        return guide
    }

    /// Adds a layout guide: its rectangle is one more the constraints decide.
    public func addLayoutGuide(_ layoutGuide: UILayoutGuide) {
        layoutGuide.owningView = self
        addedGuides.append(layoutGuide)
    }

    /// Removes a guide added with ``addLayoutGuide(_:)``.
    public func removeLayoutGuide(_ layoutGuide: UILayoutGuide) {
        addedGuides.removeAll { $0 === layoutGuide }
        layoutGuide.owningView = nil
    }

    /// The guides added to the view.
    public var layoutGuides: [UILayoutGuide] { addedGuides }
}
