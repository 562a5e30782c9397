import Foundation

/// Colors at locations from 0 to 1 (`CGGradient`), drawn by `CGContext.drawLinearGradient` and
/// `drawRadialGradient`.
public final class CGGradient: Sendable {
    /// Each stop's location and straight RGBA color, by location.
    let stops: [(location: CGFloat, rgba: [CGFloat])]

    /// A gradient of `colors` (`CGColor`s, as a `CFArray`: `[a.cgColor, b.cgColor] as CFArray`) at
    /// `locations` (evenly spread when nil).
    /// - Returns: nil when `colors` holds no `CGColor`.
    public init?(colorsSpace space: CGColorSpace?, colors: CFArray, locations: UnsafePointer<CGFloat>?) {
        let colors = colors.compactMap { $0 as? CGColor }
        guard !colors.isEmpty else { return nil }
        stops = Self.sorted(colors.indices.map { index in
            (locations?[index] ?? Self.evenLocation(index, of: colors.count), colors[index].components ?? [0, 0, 0, 1])
        })
    }

    /// A gradient of `count` colors given as components in `space` (gray and alpha, or RGBA).
    public init?(colorSpace space: CGColorSpace, colorComponents components: UnsafePointer<CGFloat>,
                 locations: UnsafePointer<CGFloat>?, count: Int) {
        guard count > 0 else { return nil }
        let perColor = space.numberOfComponents + 1
        stops = Self.sorted((0..<count).map { index in
            let color = (0..<perColor).map { components[index * perColor + $0] }
            let rgba = perColor == 2 ? [color[0], color[0], color[0], color[1]] : color
            return (locations?[index] ?? Self.evenLocation(index, of: count), rgba)
        })
    }

    /// Straight RGBA bytes for `steps` evenly spaced locations from 0 to 1.
    func colorTable(steps: Int) -> [UInt8] {
        var table = [UInt8]()
        table.reserveCapacity(steps * 4)
        for step in 0..<steps {
            let location = CGFloat(step) / CGFloat(steps - 1)
            let rgba = color(at: location)
            table += rgba.map { UInt8((min(max($0, 0), 1) * 255).rounded()) }
        }
        return table
    }

    private func color(at location: CGFloat) -> [CGFloat] {
        guard let first = stops.first, let last = stops.last else { return [0, 0, 0, 0] }
        if location <= first.location { return first.rgba }
        if location >= last.location { return last.rgba }
        let upper = stops.firstIndex { $0.location >= location }!
        let (below, above) = (stops[upper - 1], stops[upper])
        let fraction = above.location == below.location ? 1 : (location - below.location) / (above.location - below.location)
        return (0..<4).map { below.rgba[$0] + (above.rgba[$0] - below.rgba[$0]) * fraction }
    }

    private static func evenLocation(_ index: Int, of count: Int) -> CGFloat {
        count == 1 ? 0 : CGFloat(index) / CGFloat(count - 1)
    }

    private static func sorted(_ stops: [(CGFloat, [CGFloat])]) -> [(location: CGFloat, rgba: [CGFloat])] {
        stops.map { (location: $0.0, rgba: $0.1) }.sorted { $0.location < $1.location }
    }
}

/// Whether a gradient's end colors extend past its ends (`CGGradientDrawingOptions`).
public struct CGGradientDrawingOptions: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    /// The first color fills before the start.
    public static let drawsBeforeStartLocation = CGGradientDrawingOptions(rawValue: 1)
    /// The last color fills after the end.
    public static let drawsAfterEndLocation = CGGradientDrawingOptions(rawValue: 2)
}

extension CGContext {
    /// Fills the clip (the whole context without one) with `gradient` varying from `startPoint`
    /// to `endPoint`; past the ends only as `options` say.
    public func drawLinearGradient(_ gradient: CGGradient, start startPoint: CGPoint, end endPoint: CGPoint,
                                   options: CGGradientDrawingOptions) {
        let start = pixelPoint(startPoint), end = pixelPoint(endPoint)
        let (dx, dy) = (end.x - start.x, end.y - start.y)
        let lengthSquared = max(dx * dx + dy * dy, 1e-9)
        drawGradient(gradient, options: options) { x, y in ((x - start.x) * dx + (y - start.y) * dy) / lengthSquared }
    }

    /// Fills the clip with `gradient` varying from the circle at `startCenter` to the one at
    /// `endCenter` (concentric circles are exact; for circles with different centres the
    /// colour follows the distance from a centre that moves between them).
    public func drawRadialGradient(_ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat, endCenter: CGPoint,
                                   endRadius: CGFloat, options: CGGradientDrawingOptions) {
        let start = pixelPoint(startCenter), end = pixelPoint(endCenter)
        let pixelsPerPoint = scale * sqrt(abs(ctm.a * ctm.d - ctm.b * ctm.c))
        let (startRadius, endRadius) = (startRadius * pixelsPerPoint, endRadius * pixelsPerPoint)
        let span = endRadius - startRadius == 0 ? 1e-9 : endRadius - startRadius
        drawGradient(gradient, options: options) { x, y in
            // Solve for t with the centre at its interpolated place: a fixed-point step or two suffices for art.
            var t: CGFloat = 0
            for _ in 0..<3 {
                let centreX = start.x + (end.x - start.x) * t, centreY = start.y + (end.y - start.y) * t
                t = (hypot(x - centreX, y - centreY) - startRadius) / span
                t = min(max(t, -1), 2)
            }
            return t
        }
    }

    /// Paints each pixel in the clip with the gradient's colour at `location(x, y)` (pixel centres).
    private func drawGradient(_ gradient: CGGradient, options: CGGradientDrawingOptions, location: (CGFloat, CGFloat) -> CGFloat) {
        let steps = 1024
        let table = gradient.colorTable(steps: steps)
        let alpha = min(max(state.alpha, 0), 1)
        let (width, height) = (width, height)
        let mask = state.clipMask
        pixels.withUnsafeMutableBufferPointer { pixels in
            for y in 0..<height {
                for x in 0..<width {
                    let coverage = mask.map { CGFloat($0[y * width + x]) / 255 } ?? 1
                    guard coverage > 0 else { continue }
                    var t = location(CGFloat(x) + 0.5, CGFloat(y) + 0.5)
                    if t < 0 { guard options.contains(.drawsBeforeStartLocation) else { continue }; t = 0 }
                    if t > 1 { guard options.contains(.drawsAfterEndLocation) else { continue }; t = 1 }
                    let entry = Int(t * CGFloat(steps - 1)) * 4
                    let sourceAlpha = CGFloat(table[entry + 3]) / 255 * alpha * coverage
                    let offset = (y * width + x) * 4
                    for channel in 0..<3 {
                        let blended = CGFloat(table[entry + channel]) * sourceAlpha + CGFloat(pixels[offset + channel]) * (1 - sourceAlpha)
                        pixels[offset + channel] = UInt8(blended.rounded())
                    }
                    let oldAlpha = CGFloat(pixels[offset + 3]) / 255
                    pixels[offset + 3] = UInt8(((sourceAlpha + oldAlpha * (1 - sourceAlpha)) * 255).rounded())
                }
            }
        }
    }
}

extension CGDataProvider {
    /// A provider of `data` (`CGDataProvider(data: d as CFData)`, Core Graphics' own signature).
    public convenience init?(data: CFData) {
        self.init(data: Data(referencing: data))
    }
}
