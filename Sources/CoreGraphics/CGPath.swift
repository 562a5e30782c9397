import Foundation

/// How the inside of a path is found (`CGPathFillRule`).
public enum CGPathFillRule: Int, Sendable {
    /// Inside where the path winds around the point a non-zero number of times.
    case winding
    /// Inside where a ray from the point crosses the path an odd number of times.
    case evenOdd
}

/// A shape of lines and curves (`CGPath`), immutable. Curves and arcs are kept as short lines
/// (at most a quarter point long at the sizes card art uses), which is what is filled.
public class CGPath: @unchecked Sendable {
    // @unchecked: a CGPath is not changed once made; CGMutablePath is used by one thread at a time, as Core Graphics' is.

    /// The subpaths, each a list of points joined by lines; `closed` ones join their ends.
    package var subpaths: [(points: [CGPoint], closed: Bool)] = []

    init() {}

    init(copying other: CGPath) {
        subpaths = other.subpaths
    }

    /// A rectangle.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init()
        let path = CGMutablePath()
        path.addRect(rect, transform: transform?.pointee ?? .identity)
        subpaths = path.subpaths
    }

    /// An ellipse inscribed in `rect`.
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init()
        let path = CGMutablePath()
        path.addEllipse(in: rect, transform: transform?.pointee ?? .identity)
        subpaths = path.subpaths
    }

    /// A rectangle with rounded corners.
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                            transform: UnsafePointer<CGAffineTransform>?) {
        self.init()
        let path = CGMutablePath()
        path.addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight, transform: transform?.pointee ?? .identity)
        subpaths = path.subpaths
    }

    /// The smallest rectangle holding every point of the path.
    public var boundingBox: CGRect {
        let points = subpaths.flatMap(\.points)
        guard let first = points.first else { return .null }
        var (minX, minY, maxX, maxY) = (first.x, first.y, first.x, first.y)
        for point in points {
            minX = min(minX, point.x); maxX = max(maxX, point.x)
            minY = min(minY, point.y); maxY = max(maxY, point.y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// The bounding box (curves are lines here, so it is the same).
    public var boundingBoxOfPath: CGRect { boundingBox }

    /// True when the path has no points.
    public var isEmpty: Bool { subpaths.allSatisfy { $0.points.isEmpty } }

    /// The last point added.
    public var currentPoint: CGPoint { subpaths.last?.points.last ?? .zero }

    /// True when `point` is inside the path by `rule`.
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding, transform: CGAffineTransform = .identity) -> Bool {
        let point = point.applying(transform.inverted())
        var winding = 0
        for polygon in subpaths where polygon.points.count > 1 {
            for (start, end) in zip(polygon.points, polygon.points.dropFirst() + [polygon.points[0]]) {
                guard (start.y <= point.y) != (end.y <= point.y) else { continue }
                let crossing = start.x + (point.y - start.y) / (end.y - start.y) * (end.x - start.x)
                if crossing > point.x { winding += end.y > start.y ? 1 : -1 }
            }
        }
        return rule == .winding ? winding != 0 : winding % 2 != 0
    }

    /// A mutable copy.
    public func mutableCopy() -> CGMutablePath? {
        let copy = CGMutablePath()
        copy.subpaths = subpaths
        return copy
    }

    /// The path transformed by `transform`.
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        let copy = CGPath(copying: self)
        if let transform = transform?.pointee {
            copy.subpaths = subpaths.map { ($0.points.map { $0.applying(transform) }, $0.closed) }
        }
        return copy
    }
}

/// A path being built (`CGMutablePath`).
public final class CGMutablePath: CGPath, @unchecked Sendable {
    public override init() { super.init() }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        subpaths.append(([point.applying(transform)], false))
    }

    /// A line from the current point to `point`.
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        if subpaths.isEmpty || subpaths[subpaths.count - 1].closed { move(to: currentPoint) }
        subpaths[subpaths.count - 1].points.append(point.applying(transform))
    }

    /// Lines through `points`, starting a subpath at the first.
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        move(to: first, transform: transform)
        for point in points.dropFirst() { addLine(to: point, transform: transform) }
    }

    /// Joins the current subpath's end to its start.
    public func closeSubpath() {
        guard !subpaths.isEmpty else { return }
        subpaths[subpaths.count - 1].closed = true
    }

    /// A closed rectangle.
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        addLines(between: [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
                           CGPoint(x: rect.maxX, y: rect.maxY), CGPoint(x: rect.minX, y: rect.maxY)], transform: transform)
        closeSubpath()
    }

    /// Closed rectangles.
    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for rect in rects { addRect(rect, transform: transform) }
    }

    /// A closed ellipse inscribed in `rect`.
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        let steps = segmentCount(forLength: .pi * (rect.width + rect.height) / 2)
        let points = (0..<steps).map { step -> CGPoint in
            let angle = CGFloat(step) / CGFloat(steps) * 2 * .pi
            return CGPoint(x: rect.midX + rect.width / 2 * cos(angle), y: rect.midY + rect.height / 2 * sin(angle))
        }
        addLines(between: points, transform: transform)
        closeSubpath()
    }

    /// A closed rectangle with elliptical corners of `cornerWidth` x `cornerHeight`.
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: CGAffineTransform = .identity) {
        let radiusX = min(max(cornerWidth, 0), rect.width / 2), radiusY = min(max(cornerHeight, 0), rect.height / 2)
        let corners = [(CGPoint(x: rect.maxX - radiusX, y: rect.minY + radiusY), -CGFloat.pi / 2),
                       (CGPoint(x: rect.maxX - radiusX, y: rect.maxY - radiusY), 0),
                       (CGPoint(x: rect.minX + radiusX, y: rect.maxY - radiusY), CGFloat.pi / 2),
                       (CGPoint(x: rect.minX + radiusX, y: rect.minY + radiusY), CGFloat.pi)]
        let steps = segmentCount(forLength: .pi * (radiusX + radiusY) / 4)
        var points: [CGPoint] = []
        for (center, start) in corners {
            for step in 0...steps {
                let angle = start + CGFloat(step) / CGFloat(steps) * .pi / 2
                points.append(CGPoint(x: center.x + radiusX * cos(angle), y: center.y + radiusY * sin(angle)))
            }
        }
        addLines(between: points, transform: transform)
        closeSubpath()
    }

    /// An arc of the circle at `center` from `startAngle` to `endAngle` (radians), joined by a
    /// line to the current point. `clockwise` is in Core Graphics' flipped sense, as on iOS.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool,
                       transform: CGAffineTransform = .identity) {
        var sweep = endAngle - startAngle
        if clockwise { while sweep > 0 { sweep -= 2 * .pi } } else { while sweep < 0 { sweep += 2 * .pi } }
        let steps = segmentCount(forLength: abs(sweep) * radius)
        for step in 0...steps {
            let angle = startAngle + sweep * CGFloat(step) / CGFloat(steps)
            let point = CGPoint(x: center.x + radius * cos(angle), y: center.y + radius * sin(angle))
            if step == 0 && (subpaths.isEmpty || subpaths[subpaths.count - 1].closed) {
                move(to: point, transform: transform)
            } else {
                addLine(to: point, transform: transform)
            }
        }
    }

    /// A quadratic Bézier curve from the current point.
    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        let start = currentPoint.applying(transform.inverted())
        let steps = segmentCount(forLength: distance(start, control) + distance(control, end))
        for step in 1...steps {
            let t = CGFloat(step) / CGFloat(steps), u = 1 - t
            addLine(to: CGPoint(x: u * u * start.x + 2 * u * t * control.x + t * t * end.x,
                                y: u * u * start.y + 2 * u * t * control.y + t * t * end.y), transform: transform)
        }
    }

    /// A cubic Bézier curve from the current point.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint, transform: CGAffineTransform = .identity) {
        let start = currentPoint.applying(transform.inverted())
        let steps = segmentCount(forLength: distance(start, control1) + distance(control1, control2) + distance(control2, end))
        for step in 1...steps {
            let t = CGFloat(step) / CGFloat(steps), u = 1 - t
            let (w0, w1, w2, w3) = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
            addLine(to: CGPoint(x: w0 * start.x + w1 * control1.x + w2 * control2.x + w3 * end.x,
                                y: w0 * start.y + w1 * control1.y + w2 * control2.y + w3 * end.y), transform: transform)
        }
    }

    /// Every subpath of `path`.
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        subpaths += path.subpaths.map { ($0.points.map { $0.applying(transform) }, $0.closed) }
    }

    private func segmentCount(forLength length: CGFloat) -> Int {
        min(max(Int((length * 4).rounded(.up)), 8), 512)
    }

    private func distance(_ first: CGPoint, _ second: CGPoint) -> CGFloat {
        hypot(second.x - first.x, second.y - first.y)
    }
}
