import CFreeTypeLoader
import Foundation
import Synchronization

/// Lines of text drawn with real glyphs: FreeType (loaded on first use) and the DejaVu fonts
/// (Debian's fonts-dejavu-core) standing in for San Francisco, which is Apple's. When either is
/// missing, text is measured with an average advance and not drawn, and the extension's log says
/// why once.
package enum TextRasterizer {
    /// The regular and bold faces.
    static let regularFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    static let boldFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
    private static let reported = Atomic<Bool>(false)

    /// The advance of `text` at `pixelSize` in pixels.
    package static func width(of text: String, pixelSize: CGFloat, bold: Bool) -> CGFloat {
        let advance = wh_text_render(text, bold ? boldFont : regularFont, Double(pixelSize), nil, 0, 0, 0, 0)
        guard advance >= 0 else {
            reportUnavailable()
            // SF's average advance is about 0.55 of the size.
            return CGFloat(text.count) * pixelSize * 0.55
        }
        return CGFloat(advance)
    }

    /// Draws `text` into `coverage` (`width` x `height`), the pen at `penX` on `baseline`.
    static func render(_ text: String, pixelSize: CGFloat, bold: Bool, into coverage: inout [UInt8], width: Int, height: Int,
                       penX: CGFloat, baseline: CGFloat) -> Bool {
        let advance = coverage.withUnsafeMutableBufferPointer { buffer in
            wh_text_render(text, bold ? boldFont : regularFont, Double(pixelSize), buffer.baseAddress, Int32(width), Int32(height),
                           Double(penX), Double(baseline))
        }
        if advance < 0 { reportUnavailable() }
        return advance >= 0
    }

    private static func reportUnavailable() {
        guard !reported.exchange(true, ordering: .relaxed) else { return }
        let reason = wh_text_load_error().map { String(cString: $0) } ?? "FreeType is not available"
        FileHandle.standardError.write(Data("text is not drawn: \(reason) (install libfreetype6 and fonts-dejavu-core)\n".utf8))
    }
}

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
