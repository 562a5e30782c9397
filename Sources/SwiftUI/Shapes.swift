// Shapes (`Circle`, `Rectangle`, `RoundedRectangle`, `Capsule`, `Ellipse`) and what fills them.
// A shape is drawing, not a control: as a view it fills the space it is offered with its fill
// (the foreground colour unless `.fill` says) and adds nothing to the form; as an argument
// (`.clipShape(Circle())`, `.contentShape(Rectangle())`) it is accepted.

/// Something that fills a shape (`ShapeStyle`): a color, a gradient, the foreground.
public protocol ShapeStyle {}

extension Color: ShapeStyle {}

/// The current foreground style (`ForegroundStyle`).
public struct ForegroundStyle: ShapeStyle, Sendable { public init() {} }

extension ShapeStyle where Self == ForegroundStyle {
    /// The current foreground style.
    public static var foreground: ForegroundStyle { ForegroundStyle() }
}

/// A linear gradient (`LinearGradient`): as a view, nothing on the form; drawn as a gradient
/// (its first colour where only a colour is drawn).
public struct LinearGradient: ShapeStyle, View, PrimitiveView {
    public typealias Body = Never
    let colors: [Color]
    let startPoint: UnitPoint
    let endPoint: UnitPoint
    public init(colors: [Color], startPoint: UnitPoint, endPoint: UnitPoint) {
        self.colors = colors
        self.startPoint = startPoint
        self.endPoint = endPoint
    }
    public init(gradient: Gradient, startPoint: UnitPoint, endPoint: UnitPoint) {
        self.init(colors: gradient.colors, startPoint: startPoint, endPoint: endPoint)
    }

    func render(into renderer: inout Renderer) {
        let view = FillView()
        view.backgroundColor = (colors.first ?? .clear).uiColor
        fill(view)
        renderer.add(view)
    }

    /// Draws `view` filled with this gradient.
    @MainActor func fill(_ view: UIView) {
        view.setDrawnGradient(colors: colors.map(\.uiColor), start: CGPoint(x: startPoint.x, y: startPoint.y),
                              end: CGPoint(x: endPoint.x, y: endPoint.y))
    }
}

/// Colors for a gradient (`Gradient`).
public struct Gradient: Hashable, Sendable {
    /// The colors, in order.
    public var colors: [Color]
    public init(colors: [Color]) { self.colors = colors }
}

/// How a shape's inside is found (`FillStyle`).
public struct FillStyle: Equatable, Sendable {
    public var isEOFilled: Bool
    public var isAntialiased: Bool
    public init(eoFill: Bool = false, antialiased: Bool = true) {
        isEOFilled = eoFill
        isAntialiased = antialiased
    }
}

/// How a shape's outline is drawn (`StrokeStyle`).
public struct StrokeStyle: Equatable, Sendable {
    public var lineWidth: CGFloat
    public var dash: [CGFloat]
    public init(lineWidth: CGFloat = 1, dash: [CGFloat] = []) {
        self.lineWidth = lineWidth
        self.dash = dash
    }
}

/// The corner shape of rounded rectangles (`RoundedCornerStyle`).
public enum RoundedCornerStyle: Sendable, Hashable { case circular, continuous }

/// A point in a view's unit square (`UnitPoint`), for gradients, anchors and scaling.
public struct UnitPoint: Hashable, Sendable {
    public var x: CGFloat
    public var y: CGFloat
    public init() { self.init(x: 0, y: 0) }
    public init(x: CGFloat, y: CGFloat) {
        self.x = x
        self.y = y
    }
    public static let zero = UnitPoint(x: 0, y: 0), center = UnitPoint(x: 0.5, y: 0.5)
    public static let leading = UnitPoint(x: 0, y: 0.5), trailing = UnitPoint(x: 1, y: 0.5)
    public static let top = UnitPoint(x: 0.5, y: 0), bottom = UnitPoint(x: 0.5, y: 1)
    public static let topLeading = UnitPoint(x: 0, y: 0), topTrailing = UnitPoint(x: 1, y: 0)
    public static let bottomLeading = UnitPoint(x: 0, y: 1), bottomTrailing = UnitPoint(x: 1, y: 1)
}

/// A 2D shape (`Shape`): a view that shows nothing on the form.
public protocol Shape: View, Sendable where Body == Never {}

extension Shape {
    /// The shape filled with `content`.
    public func fill<S: ShapeStyle>(_ content: S = ForegroundStyle(), style: FillStyle = FillStyle()) -> ModifiedContent<Self, FormModifier> {
        withEnvironment { environment in
            let gradient = content as? LinearGradient
            environment.shapeGradient = gradient
            environment.shapeFill = (content as? Color) ?? gradient?.colors.first ?? environment.foregroundColor ?? .primary
        }
    }
    /// The shape's outline in `content`.
    public func stroke<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> ModifiedContent<Self, FormModifier> {
        withEnvironment { $0.shapeStroke = ((content as? Color) ?? $0.foregroundColor ?? .primary, lineWidth) }
    }
    /// The shape's outline in `content` with `style`.
    public func stroke<S: ShapeStyle>(_ content: S, style: StrokeStyle) -> ModifiedContent<Self, FormModifier> {
        stroke(content, lineWidth: style.lineWidth)
    }
    /// The shape's outline in the foreground style.
    public func stroke(lineWidth: CGFloat = 1) -> ModifiedContent<Self, FormModifier> { stroke(ForegroundStyle(), lineWidth: lineWidth) }
    /// The outline drawn inside the shape.
    public func strokeBorder<S: ShapeStyle>(_ content: S, lineWidth: CGFloat = 1) -> ModifiedContent<Self, FormModifier> {
        stroke(content, lineWidth: lineWidth)
    }
}

/// The view a shape draws as: filled (unless only stroked), its outline, its corners.
@MainActor
func renderShape(into renderer: inout Renderer, cornerRadius: CGFloat = 0, isRound: Bool = false) {
    let view = FillView()
    view.drawnKind = .shape
    let environment = renderer.environment
    if let stroke = environment.shapeStroke {
        view.layer.borderWidth = stroke.width
        view.layer.borderColor = stroke.color.uiColor.cgColor
    }
    if environment.shapeStroke == nil || environment.shapeFill != nil {
        view.backgroundColor = (environment.shapeFill ?? environment.foregroundColor ?? .primary).uiColor
        environment.shapeGradient?.fill(view)
    }
    view.layer.cornerRadius = cornerRadius
    view.isRound = isRound
    renderer.add(view)
}

/// A circle (`Circle`).
public struct Circle: Shape, PrimitiveView {
    public init() {}
    func render(into renderer: inout Renderer) { renderShape(into: &renderer, isRound: true) }
}

/// A rectangle (`Rectangle`).
public struct Rectangle: Shape, PrimitiveView {
    public init() {}
    func render(into renderer: inout Renderer) { renderShape(into: &renderer) }
}

/// A rectangle with rounded corners (`RoundedRectangle`).
public struct RoundedRectangle: Shape, PrimitiveView {
    /// The corners' width and height.
    public var cornerSize: CGSize
    /// The corners' shape.
    public var style: RoundedCornerStyle

    public init(cornerRadius: CGFloat, style: RoundedCornerStyle = .continuous) {
        self.init(cornerSize: CGSize(width: cornerRadius, height: cornerRadius), style: style)
    }
    public init(cornerSize: CGSize, style: RoundedCornerStyle = .continuous) {
        self.cornerSize = cornerSize
        self.style = style
    }
    func render(into renderer: inout Renderer) { renderShape(into: &renderer, cornerRadius: cornerSize.width) }
}

/// A rectangle with half-circle ends (`Capsule`).
public struct Capsule: Shape, PrimitiveView {
    /// The ends' shape.
    public var style: RoundedCornerStyle
    public init(style: RoundedCornerStyle = .continuous) { self.style = style }
    func render(into renderer: inout Renderer) { renderShape(into: &renderer, isRound: true) }
}

/// An ellipse (`Ellipse`).
public struct Ellipse: Shape, PrimitiveView {
    public init() {}
    func render(into renderer: inout Renderer) { renderShape(into: &renderer, isRound: true) }
}
