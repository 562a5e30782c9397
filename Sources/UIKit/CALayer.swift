import Foundation

/// A view's layer (`CALayer`): its appearance is kept, not drawn.
@preconcurrency @MainActor
open class CALayer: NSObject {
    open var cornerRadius: CGFloat = 0
    open var borderWidth: CGFloat = 0
    open var borderColor: CGColor?
    open var backgroundColor: CGColor?
    open var masksToBounds = false
    open var shadowColor: CGColor?
    open var shadowOpacity: Float = 0
    open var shadowRadius: CGFloat = 3
    open var shadowOffset = CGSize(width: 0, height: -3)
    open var cornerCurve = CALayerCornerCurve.circular
    open var opacity: Float = 1
    /// The layer's frame in its superlayer (a view's own layer follows the view's bounds).
    open var frame = CGRect.zero
    open var bounds: CGRect {
        get { CGRect(origin: .zero, size: frame.size) }
        set { frame.size = newValue.size }
    }
    /// Layers added to this one, back to front: a `CAGradientLayer` among them is drawn.
    open private(set) var sublayers: [CALayer]?
    open private(set) weak var superlayer: CALayer?

    public override init() { super.init() }

    open func addSublayer(_ layer: CALayer) {
        layer.removeFromSuperlayer()
        sublayers = (sublayers ?? []) + [layer]
        layer.superlayer = self
    }

    open func insertSublayer(_ layer: CALayer, at index: UInt32) {
        layer.removeFromSuperlayer()
        var list = sublayers ?? []
        list.insert(layer, at: min(Int(index), list.count))
        sublayers = list
        layer.superlayer = self
    }

    open func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        let index = sibling.flatMap { sibling in sublayers?.firstIndex { $0 === sibling } } ?? 0
        insertSublayer(layer, at: UInt32(index))
    }

    open func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        let index = sibling.flatMap { sibling in sublayers?.firstIndex { $0 === sibling }.map { $0 + 1 } } ?? (sublayers?.count ?? 0)
        insertSublayer(layer, at: UInt32(index))
    }

    open func removeFromSuperlayer() {
        superlayer?.sublayers?.removeAll { $0 === self }
        superlayer = nil
    }
}

/// A layer filled with a linear gradient (`CAGradientLayer`): drawn on the screen's tree when
/// it is a sublayer of a view's layer (its colours evenly spaced; `locations` are kept).
@preconcurrency @MainActor
open class CAGradientLayer: CALayer {
    /// The colours, as `CGColor`s (`UIColor.red.cgColor`), top to bottom by default.
    open var colors: [Any]?
    open var locations: [NSNumber]?
    /// Where the gradient starts and ends in the layer's unit square (0,0 top left).
    open var startPoint = CGPoint(x: 0.5, y: 0)
    open var endPoint = CGPoint(x: 0.5, y: 1)
    open var type = CAGradientLayerType.axial

    public override init() { super.init() }
}

/// The kind of gradient (`CAGradientLayerType`): only axial (linear) ones are drawn.
public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let axial = CAGradientLayerType(rawValue: "axial")
    public static let radial = CAGradientLayerType(rawValue: "radial")
    public static let conic = CAGradientLayerType(rawValue: "conic")
}

/// The shape of rounded corners (`CALayerCornerCurve`).
public struct CALayerCornerCurve: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let circular = CALayerCornerCurve(rawValue: "circular")
    public static let continuous = CALayerCornerCurve(rawValue: "continuous")
}
