import Cassowary
import Foundation

/// Auto Layout's pass: the active constraints among a view tree, solved by the Cassowary solver,
/// set the frames of the views that do not translate their autoresizing mask into constraints.
///
/// Each view or layout guide in a constraint is a rectangle of four variables (left, top,
/// width, height) in the root view's coordinates, and so is each of its superviews: a view that
/// keeps its frame (`translatesAutoresizingMaskIntoConstraints`, the default) is pinned to its
/// frame in its superview by required constraints, as UIKit's autoresizing constraints do. A
/// view's natural size (``UIView/intrinsicContentSize``) adds its hugging (`<=`) and compression
/// resistance (`>=`) constraints at their priorities. Guides: the safe area and margins are the
/// view's rectangle inset; a scroll view's frame guide is the scroll view, its content guide
/// starts at its origin with a size the constraints decide (the content size).
///
/// Priorities below 1000 are weights of `priority³` (so a 750 constraint outweighs up to 27
/// at 250); 1000 is required. A required constraint that conflicts with the ones before it is
/// left out and named on standard error, as UIKit logs "Unable to simultaneously satisfy
/// constraints". Leading and trailing are left and right (left-to-right text); the baselines
/// are the top and bottom.
@MainActor
enum AutoLayoutSolving {
    /// Solves the active constraints among `root` and its descendants and sets the frames.
    static func solve(in root: UIView) {
        let constraints = NSLayoutConstraint.active.filter { constraint in
            [constraint.firstItem, constraint.secondItem].allSatisfy { item in item.map { Self.view(of: $0)?.isDescendant(of: root) ?? false } ?? true }
        }
        guard !constraints.isEmpty else { return }
        // A label that wraps is as tall as its width allows: once the frames are set, solve again
        // if a natural size changed with them (once: its width does not depend on its height).
        for _ in 0..<2 {
            var system = LayoutSystem(root: root)
            for constraint in constraints { system.add(constraint) }
            system.applyFrames()
            guard system.naturalSizesChanged else { return }
        }
    }

    /// The view an anchor's item is, or the view owning the guide it is.
    static func view(of item: AnyObject) -> UIView? {
        (item as? UIView) ?? (item as? UILayoutGuide)?.owningView
    }
}

/// A rectangle's variables.
private struct Box {
    let left: Variable, top: Variable, width: Variable, height: Variable

    init(_ name: String) {
        left = Variable("\(name).left")
        top = Variable("\(name).top")
        width = Variable("\(name).width")
        height = Variable("\(name).height")
    }

    /// The expression for `attribute`; margins are added by the caller.
    func expression(_ attribute: NSLayoutConstraint.Attribute) -> LinearExpression {
        switch attribute {
        case .left, .leading, .leftMargin, .leadingMargin: return left.expression
        case .right, .trailing, .rightMargin, .trailingMargin: return left + width
        case .top, .topMargin, .firstBaseline: return top.expression
        case .bottom, .bottomMargin, .lastBaseline: return top + height
        case .width: return width.expression
        case .height: return height.expression
        case .centerX, .centerXWithinMargins: return left + width * 0.5
        case .centerY, .centerYWithinMargins: return top + height * 0.5
        case .notAnAttribute: return LinearExpression()
        }
    }
}

/// The solver and the rectangles of one layout pass.
@MainActor
private struct LayoutSystem {
    let root: UIView
    var solver = Solver()
    private var views: [ObjectIdentifier: (view: UIView, box: Box)] = [:]
    private var guides: [ObjectIdentifier: Box] = [:]
    private var guidesOfViews: [String: Box] = [:]
    private var contentGuides: [ObjectIdentifier: (scrollView: UIScrollView, box: Box)] = [:]
    private var naturalSizes: [(view: UIView, size: CGSize)] = []

    /// True when a view's natural size is not the one solved with (a wrapping label, now sized).
    var naturalSizesChanged: Bool { naturalSizes.contains { $0.view.intrinsicContentSize != $0.size } }

    init(root: UIView) { self.root = root }

    /// Adds `constraint` as UIKit reads it: `first.attribute relation multiplier x second.attribute + constant`.
    mutating func add(_ layout: NSLayoutConstraint) {
        guard let firstItem = layout.firstItem, let first = expression(for: firstItem, layout.firstAttribute) else { return }
        var second = LinearExpression(constant: Double(layout.constant))
        if let secondItem = layout.secondItem, layout.secondAttribute != .notAnAttribute,
           let other = expression(for: secondItem, layout.secondAttribute) {
            second = other * Double(layout.multiplier) + Double(layout.constant)
        }
        let relation: Constraint.Relation = switch layout.relation {
        case .equal: .equal
        case .lessThanOrEqual: .lessThanOrEqual
        case .greaterThanOrEqual: .greaterThanOrEqual
        }
        add(Constraint(first, relation, second, strength: Self.strength(layout.priority)), named: layout)
    }

    private mutating func add(_ constraint: Constraint, named layout: NSLayoutConstraint? = nil) {
        do {
            try solver.add(constraint)
        } catch {
            let name = layout.map { "\($0.identifier ?? "") \($0.firstAttribute) \($0.relation) \($0.secondAttribute) \($0.constant)" }
            FileHandle.standardError.write(Data("UIKit: Unable to simultaneously satisfy constraints; breaking \(name ?? constraint.description)\n".utf8))
        }
    }

    static func strength(_ priority: UILayoutPriority) -> Strength {
        priority.rawValue >= 1000 ? .required : Strength(pow(Double(max(priority.rawValue, 1)), 3))
    }

    /// The expression of `attribute` of a view or guide, margins included.
    private mutating func expression(for item: AnyObject, _ attribute: NSLayoutConstraint.Attribute) -> LinearExpression? {
        let base: LinearExpression
        var margins = UIEdgeInsets.zero
        if let view = item as? UIView {
            guard let box = box(for: view) else { return nil }
            base = box.expression(attribute)
            margins = view.effectiveLayoutMargins
        } else if let guide = item as? UILayoutGuide, let box = box(for: guide) {
            base = box.expression(attribute)
        } else {
            return nil
        }
        switch attribute {
        case .leftMargin, .leadingMargin: return base + Double(margins.left)
        case .rightMargin, .trailingMargin: return base - Double(margins.right)
        case .topMargin: return base + Double(margins.top)
        case .bottomMargin: return base - Double(margins.bottom)
        case .centerXWithinMargins: return base + Double(margins.left - margins.right) / 2
        case .centerYWithinMargins: return base + Double(margins.top - margins.bottom) / 2
        default: return base
        }
    }

    /// The view's rectangle, made with its superviews' on first use.
    private mutating func box(for view: UIView) -> Box? {
        if let known = views[ObjectIdentifier(view)] { return known.box }
        guard view.isDescendant(of: root) else { return nil }
        let box = Box(String(describing: type(of: view)))
        views[ObjectIdentifier(view)] = (view, box)
        if view === root {
            for (variable, value) in [(box.left, 0.0), (box.top, 0.0), (box.width, view.frame.width), (box.height, view.frame.height)] {
                add(variable |==| Double(value))
            }
            return box
        }
        guard let parent = view.superview.flatMap({ self.box(for: $0) }) else { return box }
        if view.translatesAutoresizingMaskIntoConstraints {
            add(box.left |==| parent.left + Double(view.frame.minX))
            add(box.top |==| parent.top + Double(view.frame.minY))
            add(box.width |==| Double(view.frame.width))
            add(box.height |==| Double(view.frame.height))
        } else {
            addNaturalSize(of: view, box)
        }
        return box
    }

    /// Hugging and compression resistance at the view's natural size.
    private mutating func addNaturalSize(of view: UIView, _ box: Box) {
        let natural = view.intrinsicContentSize
        naturalSizes.append((view, natural))
        for (variable, value, axis) in [(box.width, natural.width, NSLayoutConstraint.Axis.horizontal), (box.height, natural.height, .vertical)]
        where value >= 0 {
            add(Constraint(variable, .lessThanOrEqual, Double(value), strength: Self.strength(view.contentHuggingPriority(for: axis))))
            add(Constraint(variable, .greaterThanOrEqual, Double(value),
                           strength: Self.strength(view.contentCompressionResistancePriority(for: axis))))
        }
    }

    /// A guide's rectangle: its view's inset for the safe area and margins, its own for a
    /// guide the code added and a scroll view's content.
    private mutating func box(for guide: UILayoutGuide) -> Box? {
        guard let view = guide.owningView, let owner = box(for: view) else { return nil }
        if guide.kind == .custom {
            if let known = guides[ObjectIdentifier(guide)] { return known }
            let box = Box("guide")
            guides[ObjectIdentifier(guide)] = box
            return box
        }
        if guide.kind == .scrollFrame { return owner }
        let key = "\(ObjectIdentifier(view).hashValue).\(guide.kind)"
        if let known = guidesOfViews[key] { return known }
        let box = Box("\(guide.kind)")
        guidesOfViews[key] = box
        if guide.kind == .scrollContent, let scrollView = view as? UIScrollView {
            add(box.left |==| owner.left)
            add(box.top |==| owner.top)
            add(box.width |>=| 0.0)
            add(box.height |>=| 0.0)
            contentGuides[ObjectIdentifier(scrollView)] = (scrollView, box)
            return box
        }
        var insets = guide.kind == .safeArea ? view.safeAreaInsets : view.effectiveLayoutMargins
        if guide.kind == .keyboard {
            insets = UIEdgeInsets(top: view.frame.height - view.safeAreaInsets.bottom, left: 0, bottom: 0, right: 0)
        }
        add(box.left |==| owner.left + Double(insets.left))
        add(box.top |==| owner.top + Double(insets.top))
        add(box.width |==| owner.width - Double(insets.left + insets.right))
        add(box.height |==| owner.height - Double(insets.top + insets.bottom))
        if guide.kind == .readable { add(box.width |<=| 672.0) }
        return box
    }

    /// Sets the frame of each view Auto Layout places (not the root, not a view that keeps
    /// its frame, not a stack view's arranged view: the stack places those), and each scroll
    /// view's content size.
    func applyFrames() {
        for (view, box) in views.values where view !== root && !view.translatesAutoresizingMaskIntoConstraints {
            if let stack = view.superview as? UIStackView, stack.arrangedSubviews.contains(where: { $0 === view }) { continue }
            guard let parent = view.superview.flatMap({ views[ObjectIdentifier($0)]?.box }) else { continue }
            let value = solver.value(of:)
            let frame = CGRect(x: value(box.left) - value(parent.left), y: value(box.top) - value(parent.top),
                               width: max(0, value(box.width)), height: max(0, value(box.height)))
            if view.frame != frame {
                view.frame = frame
                view.setNeedsLayout()
            }
        }
        for (scrollView, box) in contentGuides.values {
            scrollView.contentSize = CGSize(width: solver.value(of: box.width), height: solver.value(of: box.height))
        }
    }
}
