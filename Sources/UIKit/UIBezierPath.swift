/// The corners of a rectangle (`UIRectCorner`).
public struct UIRectCorner: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let topLeft = UIRectCorner(rawValue: 1), topRight = UIRectCorner(rawValue: 2)
    public static let bottomLeft = UIRectCorner(rawValue: 4), bottomRight = UIRectCorner(rawValue: 8)
    public static let allCorners: UIRectCorner = [.topLeft, .topRight, .bottomLeft, .bottomRight]
}

/// A path of lines and curves drawn in the current image context (`UIBezierPath`): filled with
/// the fill color, stroked with the stroke color, or made the clip (``addClip()``), on a
/// `CGMutablePath`.
open class UIBezierPath: NSObject {
    /// The path.
    public private(set) var cgPath = CGMutablePath()
    /// The stroke width, in points.
    open var lineWidth: CGFloat = 1
    /// True to fill and clip by the even-odd rule.
    open var usesEvenOddFillRule = false

    /// An empty path.
    public override init() {
        super.init()
    }

    /// A rectangle.
    public convenience init(rect: CGRect) {
        self.init()
        cgPath.addRect(rect)
    }

    /// A rectangle with corners of `cornerRadius`.
    public convenience init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        self.init()
        cgPath.addRoundedRect(in: rect, cornerWidth: cornerRadius, cornerHeight: cornerRadius)
    }

    /// A rectangle whose `corners` are rounded with `cornerRadii`.
    public convenience init(roundedRect rect: CGRect, byRoundingCorners corners: UIRectCorner, cornerRadii: CGSize) {
        self.init()
        let (radiusX, radiusY) = (min(cornerRadii.width, rect.width / 2), min(cornerRadii.height, rect.height / 2))
        func corner(_ which: UIRectCorner, _ point: CGPoint, _ centre: CGPoint, _ start: CGFloat) {
            guard corners.contains(which), radiusX > 0 else { return point == rect.origin ? cgPath.move(to: point) : cgPath.addLine(to: point) }
            for step in 0...16 {
                let angle = start + CGFloat(step) / 16 * .pi / 2
                let point = CGPoint(x: centre.x + radiusX * cos(angle), y: centre.y + radiusY * sin(angle))
                if step == 0 && which == .topLeft { cgPath.move(to: point) } else { cgPath.addLine(to: point) }
            }
        }
        corner(.topLeft, CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.minX + radiusX, y: rect.minY + radiusY), .pi)
        corner(.topRight, CGPoint(x: rect.maxX, y: rect.minY), CGPoint(x: rect.maxX - radiusX, y: rect.minY + radiusY), -.pi / 2)
        corner(.bottomRight, CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.maxX - radiusX, y: rect.maxY - radiusY), 0)
        corner(.bottomLeft, CGPoint(x: rect.minX, y: rect.maxY), CGPoint(x: rect.minX + radiusX, y: rect.maxY - radiusY), .pi / 2)
        cgPath.closeSubpath()
    }

    /// The ellipse inscribed in `rect`.
    public convenience init(ovalIn rect: CGRect) {
        self.init()
        cgPath.addEllipse(in: rect)
    }

    /// An arc of the circle at `center`; `clockwise` as on screen (y down).
    public convenience init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        self.init()
        addArc(withCenter: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }

    /// A path of `path`'s lines.
    public convenience init(cgPath path: CGPath) {
        self.init()
        cgPath.addPath(path)
    }

    /// The smallest rectangle holding the path.
    open var bounds: CGRect { cgPath.boundingBox }
    /// The last point added.
    open var currentPoint: CGPoint { cgPath.currentPoint }
    /// True when the path has no points.
    open var isEmpty: Bool { cgPath.isEmpty }

    /// Starts a subpath at `point`.
    open func move(to point: CGPoint) { cgPath.move(to: point) }
    /// A line to `point`.
    open func addLine(to point: CGPoint) { cgPath.addLine(to: point) }
    /// A cubic curve to `endPoint`.
    open func addCurve(to endPoint: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
        cgPath.addCurve(to: endPoint, control1: controlPoint1, control2: controlPoint2)
    }
    /// A quadratic curve to `endPoint`.
    open func addQuadCurve(to endPoint: CGPoint, controlPoint: CGPoint) { cgPath.addQuadCurve(to: endPoint, control: controlPoint) }
    /// An arc; `clockwise` as on screen (y down), which is UIKit's sense.
    open func addArc(withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        // In y-down coordinates increasing angles turn clockwise on screen.
        cgPath.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: !clockwise)
    }
    /// Closes the current subpath.
    open func close() { cgPath.closeSubpath() }
    /// Adds `path`'s subpaths.
    open func append(_ path: UIBezierPath) { cgPath.addPath(path.cgPath) }
    /// Forgets every point.
    open func removeAllPoints() { cgPath = CGMutablePath() }
    /// True when `point` is inside the path.
    open func contains(_ point: CGPoint) -> Bool { cgPath.contains(point, using: usesEvenOddFillRule ? .evenOdd : .winding) }
    /// Transforms every point.
    open func apply(_ transform: CGAffineTransform) {
        let transformed = CGMutablePath()
        transformed.addPath(cgPath, transform: transform)
        cgPath = transformed
    }

    /// Fills the path in the current context with its fill color.
    open func fill() {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.fill(cgPath, rule: usesEvenOddFillRule ? .evenOdd : .winding, color: context.fillComponents)
    }

    /// Fills the path blended with `alpha` (the blend mode is ignored).
    open func fill(with blendMode: CGBlendMode, alpha: CGFloat) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.saveGState()
        context.setAlpha(alpha)
        fill()
        context.restoreGState()
    }

    /// Strokes the path in the current context with its stroke color and ``lineWidth``.
    open func stroke() {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.stroke(cgPath, width: lineWidth, color: context.strokeComponents)
    }

    /// Limits what the current context draws next to the inside of the path, until the
    /// context's state is restored (`restoreGState()`) or the image ends.
    open func addClip() {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        context.beginPath()
        context.addPath(cgPath)
        context.clip(using: usesEvenOddFillRule ? .evenOdd : .winding)
    }
}
