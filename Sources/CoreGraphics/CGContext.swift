import Foundation

/// A color (`CGColor`): RGBA components, each 0...1.
public final class CGColor: Sendable {
    /// Red, green, blue and alpha.
    public let components: [CGFloat]?
    /// 4: red, green, blue and alpha.
    public var numberOfComponents: Int { 4 }
    /// The alpha component.
    public var alpha: CGFloat { components?[3] ?? 1 }

    /// A color from RGBA components.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        components = [red, green, blue, alpha]
    }

    /// A gray.
    public convenience init(gray: CGFloat, alpha: CGFloat) {
        self.init(red: gray, green: gray, blue: gray, alpha: alpha)
    }

    public static let black = CGColor(gray: 0, alpha: 1)
    public static let white = CGColor(gray: 1, alpha: 1)
    public static let clear = CGColor(gray: 0, alpha: 0)
}

/// A bitmap drawing context (`CGContext`): 8-bit RGBA pixels that rectangles, paths (filled,
/// stroked, clipped to) and linear and radial gradients are drawn in and images drawn into,
/// then ``makeImage()``, with a current transform (translate, scale, rotate). Enough for card
/// art drawn in code; edges are not anti-aliased, and text is drawn by UIKit (`NSString.draw`).
/// Core Graphics' origin is the bottom left; UIKit's image contexts flip it to the top left, as on iOS.
public final class CGContext {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// 8.
    public let bitsPerComponent = 8
    /// `width * 4`.
    public var bytesPerRow: Int { width * 4 }
    var pixels: [UInt8]
    var state = GraphicsState()
    /// The path being built (`move(to:)`, `addLine(to:)`, ...), in the current transform's space.
    var currentPath = CGMutablePath()
    private var savedStates: [GraphicsState] = []
    /// True when y grows downwards (UIKit's image contexts).
    package var originAtTop = false
    /// Points to pixels (UIKit's image contexts draw at the screen scale).
    package var scale: CGFloat = 1

    struct GraphicsState {
        var fill: [CGFloat] = [0, 0, 0, 1]
        var stroke: [CGFloat] = [0, 0, 0, 1]
        var lineWidth: CGFloat = 1
        var alpha: CGFloat = 1
        /// The current transform (user space to the context's points).
        var transform = CGAffineTransform.identity
        /// Per pixel, 255 where drawing lands and 0 where the clip keeps it out; nil: no clip.
        var clipMask: [UInt8]?
    }

    /// A bitmap context of `width` x `height` pixels, 8 bits per component. `data` is not written:
    /// the context keeps its own pixels, read with ``makeImage()``.
    /// - Returns: nil when the size is not positive or the layout is not 8-bit.
    public init?(data: UnsafeMutableRawPointer?, width: Int, height: Int, bitsPerComponent: Int, bytesPerRow: Int,
                 space: CGColorSpace, bitmapInfo: UInt32) {
        guard width > 0, height > 0, bitsPerComponent == 8 else { return nil }
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Sets the fill color.
    public func setFillColor(_ color: CGColor) { state.fill = color.components ?? [0, 0, 0, 1] }
    /// Sets the fill color from components.
    public func setFillColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) { state.fill = [red, green, blue, alpha] }
    /// Sets the stroke color.
    public func setStrokeColor(_ color: CGColor) { state.stroke = color.components ?? [0, 0, 0, 1] }
    /// Sets the stroke color from components.
    public func setStrokeColor(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) { state.stroke = [red, green, blue, alpha] }
    /// Sets the width of stroked lines, in points.
    public func setLineWidth(_ width: CGFloat) { state.lineWidth = width }
    /// Sets an alpha applied to everything drawn.
    public func setAlpha(_ alpha: CGFloat) { state.alpha = alpha }
    /// Saves the colors, line width, alpha, transform and clip.
    public func saveGState() { savedStates.append(state) }
    /// Restores what ``saveGState()`` saved last.
    public func restoreGState() { if let saved = savedStates.popLast() { state = saved } }

    /// Fills `rect` with the fill color.
    public func fill(_ rect: CGRect) { paint(rect, color: state.fill) }
    /// Fills each rectangle.
    public func fill(_ rects: [CGRect]) { rects.forEach(fill) }
    /// Fills the ellipse inscribed in `rect`.
    public func fillEllipse(in rect: CGRect) {
        let path = CGMutablePath()
        path.addEllipse(in: rect)
        fill(path, color: state.fill)
    }
    /// Strokes the outline of `rect` with the stroke color and line width (centred on the edge).
    public func stroke(_ rect: CGRect) { stroke(rect, width: state.lineWidth) }
    /// Strokes the outline of `rect` with `width`.
    public func stroke(_ rect: CGRect, width: CGFloat) {
        guard state.transform.isIdentity else {
            let path = CGMutablePath()
            path.addRect(rect)
            stroke(path, width: width, color: state.stroke)
            return
        }
        let half = width / 2
        let edges = [CGRect(x: rect.minX - half, y: rect.minY - half, width: rect.width + width, height: width),
                     CGRect(x: rect.minX - half, y: rect.maxY - half, width: rect.width + width, height: width),
                     CGRect(x: rect.minX - half, y: rect.minY + half, width: width, height: rect.height - width),
                     CGRect(x: rect.maxX - half, y: rect.minY + half, width: width, height: rect.height - width)]
        for edge in edges { paint(edge, color: state.stroke) }
    }
    /// Makes `rect` transparent.
    public func clear(_ rect: CGRect) {
        forEachPixel(in: pixelRect(rect), blend: false) { _, _ in [0, 0, 0, 0] }
    }

    /// Draws `image` scaled into `rect` (nearest pixel). Images read from PNG files carry no
    /// decoded pixels and are not drawn; images from contexts and raw pixels are.
    public func draw(_ image: CGImage, in rect: CGRect) {
        guard let source = image.rgbaPixels else { return }
        let box = pixelRect(rect)
        guard box.width > 0, box.height > 0 else { return }
        forEachPixel(in: box) { x, y in
            var column = Int((CGFloat(x) + 0.5 - box.minX) / box.width * CGFloat(image.width))
            var row = Int((CGFloat(y) + 0.5 - box.minY) / box.height * CGFloat(image.height))
            column = min(max(column, 0), image.width - 1)
            row = min(max(row, 0), image.height - 1)
            // Pixel rows run top to bottom in the image; in a bottom-left context, flip.
            if !originAtTop { row = image.height - 1 - row }
            let offset = (row * image.width + column) * 4
            return source[offset..<offset + 4].map { CGFloat($0) / 255 }
        }
    }

    /// The pixels drawn so far as an image.
    public func makeImage() -> CGImage? {
        CGImage(width: width, height: height, rgbaPixels: pixels)
    }

    /// Fills `rect` with one color; opaque colors are written without blending (card art is
    /// 1.5 million pixels).
    private func paint(_ rect: CGRect, color: [CGFloat]) {
        guard state.transform.isIdentity else {
            let path = CGMutablePath()
            path.addRect(rect)
            fill(path, color: color)
            return
        }
        guard min(max(color[3] * state.alpha, 0), 1) == 1, state.clipMask == nil else {
            forEachPixel(in: pixelRect(rect)) { _, _ in color }
            return
        }
        let box = pixelRect(rect)
        let minX = max(0, Int(box.minX.rounded())), maxX = min(width, Int(box.maxX.rounded()))
        let minY = max(0, Int(box.minY.rounded())), maxY = min(height, Int(box.maxY.rounded()))
        guard minX < maxX, minY < maxY else { return }
        let bytes = color.prefix(3).map { UInt8((min(max($0, 0), 1) * 255).rounded()) } + [255]
        pixels.withUnsafeMutableBufferPointer { buffer in
            for y in minY..<maxY {
                var offset = (y * width + minX) * 4
                for _ in minX..<maxX {
                    buffer[offset] = bytes[0]
                    buffer[offset + 1] = bytes[1]
                    buffer[offset + 2] = bytes[2]
                    buffer[offset + 3] = 255
                    offset += 4
                }
            }
        }
    }

    /// `rect` in pixels, y counted from the top row.
    private func pixelRect(_ rect: CGRect) -> CGRect {
        let rect = state.transform.isIdentity ? rect : rect.applying(state.transform)
        let scaled = CGRect(x: rect.minX * scale, y: rect.minY * scale, width: rect.width * scale, height: rect.height * scale).standardized
        return originAtTop ? scaled : CGRect(x: scaled.minX, y: CGFloat(height) - scaled.maxY, width: scaled.width, height: scaled.height)
    }

    /// Blends `color(x, y)` (RGBA 0...1, nil to skip) over each pixel whose centre is in `box`.
    func forEachPixel(in box: CGRect, blend: Bool = true, _ color: (Int, Int) -> [CGFloat]?) {
        let minX = max(0, Int((box.minX).rounded())), maxX = min(width, Int((box.maxX).rounded()))
        let minY = max(0, Int((box.minY).rounded())), maxY = min(height, Int((box.maxY).rounded()))
        guard minX < maxX, minY < maxY else { return }
        for y in minY..<maxY {
            for x in minX..<maxX {
                let coverage = state.clipMask.map { CGFloat($0[y * width + x]) / 255 } ?? 1
                guard coverage > 0, let rgba = color(x, y) else { continue }
                let offset = (y * width + x) * 4
                let alpha = (blend ? min(max(rgba[3] * state.alpha, 0), 1) : rgba[3]) * coverage
                for channel in 0..<3 {
                    let new = min(max(rgba[channel], 0), 1) * 255
                    let old = CGFloat(pixels[offset + channel])
                    pixels[offset + channel] = UInt8((blend ? new * alpha + old * (1 - alpha) : new).rounded())
                }
                let oldAlpha = CGFloat(pixels[offset + 3]) / 255
                pixels[offset + 3] = UInt8(((blend ? alpha + oldAlpha * (1 - alpha) : alpha) * 255).rounded())
            }
        }
    }
}

extension PNGEncoder.ColorType {
    /// `pixels` of this type as straight RGBA.
    func rgba(_ pixels: [UInt8]) -> [UInt8] {
        switch self {
        case .rgba: return pixels
        case .rgb:
            var rgba = [UInt8]()
            rgba.reserveCapacity(pixels.count / 3 * 4)
            for start in stride(from: 0, to: pixels.count, by: 3) {
                rgba.append(contentsOf: pixels[start..<start + 3])
                rgba.append(255)
            }
            return rgba
        case .gray:
            var rgba = [UInt8]()
            rgba.reserveCapacity(pixels.count * 4)
            for gray in pixels { rgba.append(contentsOf: [gray, gray, gray, 255]) }
            return rgba
        }
    }
}
