import Foundation

// UIKit's image contexts: a stack per thread of bitmap `CGContext`s with the origin at the top
// left, drawn at a scale (0 means the screen's: 3, as on the simulated iPhone).

/// The simulated iPhone's screen scale.
let screenScale: CGFloat = 3

/// The current thread's image contexts, innermost last.
private final class ImageContextStack {
    var contexts: [CGContext] = []

    static var current: ImageContextStack {
        let key = "UIKit.ImageContextStack"
        if let stack = Thread.current.threadDictionary[key] as? ImageContextStack { return stack }
        let stack = ImageContextStack()
        Thread.current.threadDictionary[key] = stack
        return stack
    }
}

/// A bitmap context of `size` points at `scale`, origin top left; nil for an empty size.
func makeImageContext(size: CGSize, scale: CGFloat) -> CGContext? {
    let scale = scale > 0 ? scale : screenScale
    let width = Int((size.width * scale).rounded(.up))
    let height = Int((size.height * scale).rounded(.up))
    guard let context = CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: width * 4,
                                  space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
    else { return nil }
    context.originAtTop = true
    context.scale = scale
    return context
}

/// Starts an image context of `size` points (`UIGraphicsBeginImageContextWithOptions`); `scale`
/// 0 is the screen's. `opaque` is ignored: the context starts transparent.
public func UIGraphicsBeginImageContextWithOptions(_ size: CGSize, _ opaque: Bool, _ scale: CGFloat) {
    guard let context = makeImageContext(size: size, scale: scale) else {
        print("UIGraphicsBeginImageContextWithOptions: the size \(size) is empty; nothing will be drawn")
        return
    }
    ImageContextStack.current.contexts.append(context)
}

/// Starts an image context of `size` points at scale 1 (`UIGraphicsBeginImageContext`).
public func UIGraphicsBeginImageContext(_ size: CGSize) {
    UIGraphicsBeginImageContextWithOptions(size, false, 1)
}

/// The innermost image context of this thread, or nil.
public func UIGraphicsGetCurrentContext() -> CGContext? {
    ImageContextStack.current.contexts.last
}

/// What the current image context holds, as an image at its scale.
public func UIGraphicsGetImageFromCurrentImageContext() -> UIImage? {
    guard let context = UIGraphicsGetCurrentContext(), let image = context.makeImage() else { return nil }
    return UIImage(cgImage: image, scale: context.scale, orientation: .up)
}

/// Ends the current image context.
public func UIGraphicsEndImageContext() {
    _ = ImageContextStack.current.contexts.popLast()
}

/// Fills `rect` in the current context with its fill color (`UIRectFill`).
public func UIRectFill(_ rect: CGRect) {
    UIGraphicsGetCurrentContext()?.fill(rect)
}

/// How a ``UIGraphicsImageRenderer`` draws (`UIGraphicsImageRendererFormat`).
open class UIGraphicsImageRendererFormat: NSObject {
    /// Pixels per point; the screen's (3) by default.
    open var scale: CGFloat = screenScale
    /// Ignored: images start transparent.
    open var opaque = false
    /// The format for the main screen.
    open class func `default`() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
    /// The format for the main screen.
    open class func preferred() -> UIGraphicsImageRendererFormat { UIGraphicsImageRendererFormat() }
}

/// What a renderer's drawing closure draws into (`UIGraphicsImageRendererContext`).
open class UIGraphicsImageRendererContext: NSObject {
    /// The bitmap context, origin top left, in points.
    public let cgContext: CGContext
    /// The renderer's format.
    public let format: UIGraphicsImageRendererFormat

    init(cgContext: CGContext, format: UIGraphicsImageRendererFormat) {
        self.cgContext = cgContext
        self.format = format
    }

    /// What has been drawn so far.
    open var currentImage: UIImage {
        cgContext.makeImage().map { UIImage(cgImage: $0, scale: format.scale, orientation: .up) } ?? UIImage()
    }

    /// Fills `rect` with the fill color.
    open func fill(_ rect: CGRect) { cgContext.fill(rect) }
    /// Strokes `rect` with the stroke color.
    open func stroke(_ rect: CGRect) { cgContext.stroke(rect) }
}

/// Draws images in code (`UIGraphicsImageRenderer`).
open class UIGraphicsImageRenderer: NSObject {
    /// The drawing closure's type.
    public typealias DrawingActions = (UIGraphicsImageRendererContext) -> Void

    private let size: CGSize
    /// How images are drawn.
    public let format: UIGraphicsImageRendererFormat

    /// A renderer of images of `size` points at the screen's scale.
    public convenience init(size: CGSize) {
        self.init(size: size, format: .default())
    }

    /// A renderer of images of `size` points in `format`.
    public init(size: CGSize, format: UIGraphicsImageRendererFormat) {
        self.size = size
        self.format = format
    }

    /// A renderer of images of `bounds`' size in `format`.
    public convenience init(bounds: CGRect, format: UIGraphicsImageRendererFormat = .default()) {
        self.init(size: bounds.size, format: format)
    }

    /// The image `actions` draw; it is also the current image context while they run.
    open func image(actions: DrawingActions) -> UIImage {
        guard let context = makeImageContext(size: size, scale: format.scale) else { return UIImage() }
        ImageContextStack.current.contexts.append(context)
        defer { _ = ImageContextStack.current.contexts.popLast() }
        let rendererContext = UIGraphicsImageRendererContext(cgContext: context, format: format)
        actions(rendererContext)
        return rendererContext.currentImage
    }

    /// The PNG of the image `actions` draw.
    open func pngData(actions: DrawingActions) -> Data {
        image(actions: actions).pngData() ?? Data()
    }
}

extension UIImage {
    /// Draws the image into `rect` of the current context.
    public func draw(in rect: CGRect) {
        guard let cgImage else { return }
        UIGraphicsGetCurrentContext()?.draw(cgImage, in: rect)
    }

    /// Draws the image at its size with its top left at `point`.
    public func draw(at point: CGPoint) {
        draw(in: CGRect(origin: point, size: size))
    }
}
