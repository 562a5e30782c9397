extension UIView {
    /// UIKit's layout pass for this view's tree: each view places its subviews as its kind does
    /// (``placeSubviews()``: a stack view its arranged views, a SwiftUI host its content), then
    /// each view that asked for layout runs ``layoutSubviews()``, parents before their subviews
    /// (a parent sets its subviews' frames, then they lay out their own).
    func runLayoutPass() {
        placeSubviews()
        if needsLayout {
            needsLayout = false
            layoutSubviews()
        }
        for subview in subviews { subview.runLayoutPass() }
    }
}

extension UIViewController {
    /// The layout pass before the screen is shown, as on an iPhone between `viewWillAppear` and
    /// `viewDidAppear`: a root view without a size takes the screen's bounds, then
    /// `viewWillLayoutSubviews`, the views' `layoutSubviews` and `viewDidLayoutSubviews` run.
    func layOutForScreen() {
        guard let view else { return }
        if view.frame.size == .zero { view.frame = UIScreen.main.bounds }
        layOutViews()
    }

    /// One layout pass of the controller's view: `viewWillLayoutSubviews`, the views that asked
    /// for layout, `viewDidLayoutSubviews`.
    func layOutViews() {
        guard let view else { return }
        viewWillLayoutSubviews()
        AutoLayoutSolving.solve(in: view)
        view.runLayoutPass()
        viewDidLayoutSubviews()
    }
}

/// The device's screen (`UIScreen`): the simulated iPhone's, 390 x 844 points at 3x.
@preconcurrency @MainActor
open class UIScreen: NSObject {
    /// The one screen.
    public static let main = UIScreen()
    /// The screen in points.
    open var bounds: CGRect { CGRect(x: 0, y: 0, width: 390, height: 844) }
    /// Pixels per point: 3.
    open var scale: CGFloat { screenScale }
    /// Pixels per point of the panel: 3.
    open var nativeScale: CGFloat { screenScale }
    /// The screen in pixels.
    open var nativeBounds: CGRect { CGRect(x: 0, y: 0, width: bounds.width * scale, height: bounds.height * scale) }
}

extension UIView {
    /// `point`, in this view's coordinates, in `view`'s (the screen's when nil: the window
    /// fills the screen).
    public func convert(_ point: CGPoint, to view: UIView?) -> CGPoint {
        let here = originOnScreen, there = view?.originOnScreen ?? .zero
        return CGPoint(x: point.x + here.x - there.x, y: point.y + here.y - there.y)
    }

    /// `point`, in `view`'s coordinates (the screen's when nil), in this view's.
    public func convert(_ point: CGPoint, from view: UIView?) -> CGPoint {
        let here = originOnScreen, there = view?.originOnScreen ?? .zero
        return CGPoint(x: point.x + there.x - here.x, y: point.y + there.y - here.y)
    }

    /// `rect`, in this view's coordinates, in `view`'s (the screen's when nil).
    public func convert(_ rect: CGRect, to view: UIView?) -> CGRect {
        CGRect(origin: convert(rect.origin, to: view), size: rect.size)
    }

    /// `rect`, in `view`'s coordinates (the screen's when nil), in this view's.
    public func convert(_ rect: CGRect, from view: UIView?) -> CGRect {
        CGRect(origin: convert(rect.origin, from: view), size: rect.size)
    }

    /// Where this view's top left corner is on the screen: its frames' origins up to the root.
    private var originOnScreen: CGPoint {
        var point = CGPoint.zero
        var view: UIView? = self
        while let current = view {
            point.x += current.frame.origin.x
            point.y += current.frame.origin.y
            view = current.superview
        }
        return point
    }
}
