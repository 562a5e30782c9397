import Foundation

/// How colors combine with what is drawn (`CGBlendMode`): accepted; drawing is `.normal` here.
public enum CGBlendMode: Int32, Sendable {
    case normal, multiply, screen, overlay, darken, lighten, colorDodge, colorBurn, softLight, hardLight, difference, exclusion
    case hue, saturation, color, luminosity, clear, copy, sourceIn, sourceOut, sourceAtop, destinationOver, destinationIn
    case destinationOut, destinationAtop, xor, plusDarker, plusLighter
}

/// How a path is drawn (`CGPathDrawingMode`).
public enum CGPathDrawingMode: Int32, Sendable { case fill, eoFill, stroke, fillStroke, eoFillStroke }

extension CGContext {
    /// The fill color's straight RGBA components.
    package var fillComponents: [CGFloat] { state.fill }
    /// The stroke color's straight RGBA components.
    package var strokeComponents: [CGFloat] { state.stroke }
    /// Accepted; colors are drawn over what is there (`.normal`).
    public func setBlendMode(_ mode: CGBlendMode) {}
    /// Accepted; edges are not anti-aliased.
    public func setShouldAntialias(_ shouldAntialias: Bool) {}
    /// Accepted; edges are not anti-aliased.
    public func setAllowsAntialiasing(_ allowsAntialiasing: Bool) {}
    /// Accepted (how images are scaled: nearest pixel here).
    public var interpolationQuality: CGInterpolationQuality {
        get { .default }
        set {}
    }

    // MARK: The current transform

    /// Moves the origin by `tx`, `ty`.
    public func translateBy(x tx: CGFloat, y ty: CGFloat) { concatenate(CGAffineTransform(translationX: tx, y: ty)) }
    /// Scales what is drawn next.
    public func scaleBy(x sx: CGFloat, y sy: CGFloat) { concatenate(CGAffineTransform(scaleX: sx, y: sy)) }
    /// Rotates what is drawn next by `angle` radians.
    public func rotate(by angle: CGFloat) { concatenate(CGAffineTransform(rotationAngle: angle)) }
    /// Applies `transform` before the current transform.
    public func concatenate(_ transform: CGAffineTransform) { state.transform = transform.concatenating(state.transform) }
    /// The current transform, in the context's points.
    public var ctm: CGAffineTransform { state.transform }

    // MARK: Building the current path

    /// Forgets the current path.
    public func beginPath() { currentPath = CGMutablePath() }
    /// Starts a subpath at `point`.
    public func move(to point: CGPoint) { currentPath.move(to: point) }
    /// A line to `point`.
    public func addLine(to point: CGPoint) { currentPath.addLine(to: point) }
    /// Lines through `points`.
    public func addLines(between points: [CGPoint]) { currentPath.addLines(between: points) }
    /// A rectangle.
    public func addRect(_ rect: CGRect) { currentPath.addRect(rect) }
    /// Rectangles.
    public func addRects(_ rects: [CGRect]) { currentPath.addRects(rects) }
    /// An ellipse inscribed in `rect`.
    public func addEllipse(in rect: CGRect) { currentPath.addEllipse(in: rect) }
    /// An arc (see `CGMutablePath.addArc`).
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        currentPath.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }
    /// A quadratic curve.
    public func addQuadCurve(to end: CGPoint, control: CGPoint) { currentPath.addQuadCurve(to: end, control: control) }
    /// A cubic curve.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        currentPath.addCurve(to: end, control1: control1, control2: control2)
    }
    /// Every subpath of `path`.
    public func addPath(_ path: CGPath) { currentPath.addPath(path) }
    /// Closes the current subpath.
    public func closePath() { currentPath.closeSubpath() }
    /// True when the current path is empty.
    public var isPathEmpty: Bool { currentPath.isEmpty }

    // MARK: Drawing the current path

    /// Fills the current path with the fill color, then forgets it.
    public func fillPath(using rule: CGPathFillRule = .winding) {
        fill(currentPath, rule: rule, color: state.fill)
        beginPath()
    }
    /// Fills the current path by the even-odd rule.
    public func eoFillPath() { fillPath(using: .evenOdd) }
    /// Strokes the current path with the stroke color and line width, then forgets it.
    public func strokePath() {
        stroke(currentPath, width: state.lineWidth, color: state.stroke)
        beginPath()
    }
    /// Fills and/or strokes the current path, then forgets it.
    public func drawPath(using mode: CGPathDrawingMode) {
        if mode != .stroke { fill(currentPath, rule: mode == .eoFill || mode == .eoFillStroke ? .evenOdd : .winding, color: state.fill) }
        if mode == .stroke || mode == .fillStroke || mode == .eoFillStroke { stroke(currentPath, width: state.lineWidth, color: state.stroke) }
        beginPath()
    }
    /// Strokes a line through each pair of `points`.
    public func strokeLineSegments(between points: [CGPoint]) {
        let path = CGMutablePath()
        for index in stride(from: 0, to: points.count - 1, by: 2) { path.addLines(between: [points[index], points[index + 1]]) }
        stroke(path, width: state.lineWidth, color: state.stroke)
    }
    /// Strokes the ellipse inscribed in `rect`.
    public func strokeEllipse(in rect: CGRect) {
        let path = CGMutablePath()
        path.addEllipse(in: rect)
        stroke(path, width: state.lineWidth, color: state.stroke)
    }

    // MARK: Clipping

    /// Limits drawing to the inside of the current path (intersected with the clip so far), then
    /// forgets the path. ``restoreGState()`` brings the previous clip back.
    public func clip(using rule: CGPathFillRule = .winding) {
        var mask = [UInt8](repeating: 0, count: width * height)
        PathRasterizer.forEachSpan(of: pixelPolygons(of: currentPath), rule: rule, width: width, height: height) { row, first, end in
            let start = row * width
            if let previous = state.clipMask {
                for index in start + first..<start + end { mask[index] = previous[index] }
            } else {
                for index in start + first..<start + end { mask[index] = 255 }
            }
        }
        state.clipMask = mask
        beginPath()
    }
    /// Limits drawing to `rect`.
    public func clip(to rect: CGRect) {
        beginPath()
        addRect(rect)
        clip()
    }
    /// Limits drawing to the union of `rects`.
    public func clip(to rects: [CGRect]) {
        beginPath()
        addRects(rects)
        clip()
    }
    /// The clip's bounds in points (the whole context without a clip).
    public var boundingBoxOfClipPath: CGRect {
        CGRect(x: 0, y: 0, width: CGFloat(width) / scale, height: CGFloat(height) / scale)
    }

    // MARK: Drawing paths

    /// Fills `path` (in the current transform's space) with `color`.
    package func fill(_ path: CGPath, rule: CGPathFillRule = .winding, color: [CGFloat]) {
        paintSpans(of: pixelPolygons(of: path), rule: rule, color: color)
    }

    /// Strokes `path` `width` points wide with `color`.
    package func stroke(_ path: CGPath, width lineWidth: CGFloat, color: [CGFloat]) {
        let pixelWidth = lineWidth * scale * sqrt(abs(state.transform.a * state.transform.d - state.transform.b * state.transform.c))
        let polygons = path.subpaths.flatMap { subpath in
            PathRasterizer.strokeOutline(of: subpath.points.map(pixelPoint), closed: subpath.closed, lineWidth: pixelWidth)
                .map { quad in signedArea(quad) < 0 ? quad.reversed() : quad }
        }
        paintSpans(of: polygons, rule: .winding, color: color)
    }

    /// `point` (user space) in pixels, y from the top row.
    func pixelPoint(_ point: CGPoint) -> CGPoint {
        let transformed = point.applying(state.transform)
        let x = transformed.x * scale, y = transformed.y * scale
        return CGPoint(x: x, y: originAtTop ? y : CGFloat(height) - y)
    }

    private func pixelPolygons(of path: CGPath) -> [[CGPoint]] {
        path.subpaths.map { $0.points.map(pixelPoint) }
    }

    private func paintSpans(of polygons: [[CGPoint]], rule: CGPathFillRule, color: [CGFloat]) {
        PathRasterizer.forEachSpan(of: polygons, rule: rule, width: width, height: height) { row, first, end in
            forEachPixel(in: CGRect(x: first, y: row, width: end - first, height: 1)) { _, _ in color }
        }
    }

    private func signedArea(_ polygon: [CGPoint]) -> CGFloat {
        zip(polygon, polygon.dropFirst() + [polygon[0]]).reduce(0) { $0 + $1.0.x * $1.1.y - $1.1.x * $1.0.y } / 2
    }
}

/// How images are scaled when drawn (`CGInterpolationQuality`): accepted.
public enum CGInterpolationQuality: Int32, Sendable { case `default`, none, low, medium, high }
