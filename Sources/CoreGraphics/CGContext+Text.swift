@_exported import FreeTypeText
import Foundation
import Synchronization

extension CGContext {
    /// Pixels per point of the current transform and scale.
    package var pixelsPerPoint: CGFloat {
        scale * sqrt(abs(state.transform.a * state.transform.d - state.transform.b * state.transform.c))
    }

    /// Draws one line of `text` with its baseline starting at `origin` (points, user space) at
    /// `pointSize`, in `color` (straight RGBA), through the clip.
    package func drawTextLine(_ text: String, baselineOrigin origin: CGPoint, pointSize: CGFloat, bold: Bool, color: [CGFloat]) {
        let pixelSize = pointSize * pixelsPerPoint
        let start = pixelPoint(origin)
        let lineWidth = TextRasterizer.width(of: text, pixelSize: pixelSize, bold: bold)
        // The box the glyphs can touch: an ascent above the baseline, a descent below.
        let left = Int(start.x.rounded(.down)) - Int(pixelSize / 4) - 1
        let top = Int((start.y - pixelSize * 1.2).rounded(.down))
        let boxWidth = Int(lineWidth.rounded(.up)) + Int(pixelSize / 2) + 2
        let boxHeight = Int((pixelSize * 1.6).rounded(.up))
        guard boxWidth > 0, boxHeight > 0 else { return }
        var coverage = [UInt8](repeating: 0, count: boxWidth * boxHeight)
        guard TextRasterizer.render(text, pixelSize: pixelSize, bold: bold, into: &coverage, width: boxWidth, height: boxHeight,
                                    penX: start.x - CGFloat(left), baseline: start.y - CGFloat(top)) else { return }
        let baseAlpha = color[3]
        for row in 0..<boxHeight {
            for column in 0..<boxWidth where coverage[row * boxWidth + column] > 0 {
                let amount = CGFloat(coverage[row * boxWidth + column]) / 255
                let rgba = [color[0], color[1], color[2], baseAlpha * amount]
                forEachPixel(in: CGRect(x: left + column, y: top + row, width: 1, height: 1)) { _, _ in rgba }
            }
        }
    }
}
