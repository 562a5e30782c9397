// FreeType behind a Swift module of its own, compiled without warnings: it imports the C loader
// implementation-only, so that modules importing CoreGraphics (and code type-checked against the
// built modules) need not find FreeType's module, and the compiler's note that
// implementation-only imports want library evolution does not reach a user's build.
@_implementationOnly import CFreeTypeLoader
import Foundation
import Synchronization

/// Lines of text drawn with real glyphs: FreeType (loaded on first use) and the DejaVu fonts
/// (Debian's fonts-dejavu-core) standing in for San Francisco, which is Apple's. When either is
/// missing, text is measured with an average advance and not drawn, and the extension's log says
/// why once.
package enum TextRasterizer {
    /// The regular and bold faces.
    package static let regularFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    package static let boldFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
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
    package static func render(_ text: String, pixelSize: CGFloat, bold: Bool, into coverage: inout [UInt8], width: Int, height: Int,
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

