import Foundation
import Testing
@testable import CoreGraphics
import UIKit

/// Card art drawn the way real issuer code draws it: a rounded clip, a gradient, text with
/// attributes, at the scale the format says (issue 33).
@Suite("Drawing gaps of issue 33")
struct DrawingGapTests {
    /// The RGBA bytes of the pixel at `x`, `y` (top row 0).
    private func pixel(_ image: UIImage, _ x: Int, _ y: Int) -> [UInt8] {
        guard let cgImage = image.cgImage, let pixels = cgImage.rgbaPixels else { return [] }
        let offset = (y * cgImage.width + x) * 4
        return Array(pixels[offset..<offset + 4])
    }

    private func format(scale: CGFloat) -> UIGraphicsImageRendererFormat {
        let format = UIGraphicsImageRendererFormat()
        format.scale = scale
        return format
    }

    @Test("UIBezierPath(roundedRect:).addClip() keeps the corners clear; fills inside land")
    func roundedClip() {
        let rect = CGRect(x: 0, y: 0, width: 100, height: 60)
        let image = UIGraphicsImageRenderer(size: rect.size, format: format(scale: 1)).image { _ in
            UIBezierPath(roundedRect: rect, cornerRadius: 20).addClip()
            UIColor.red.setFill()
            UIRectFill(rect)
        }
        #expect(pixel(image, 1, 1)[3] == 0)
        #expect(pixel(image, 98, 58)[3] == 0)
        #expect(pixel(image, 50, 30) == [255, 0, 0, 255])
        #expect(pixel(image, 50, 1) == [255, 0, 0, 255])
    }

    @Test("a CGGradient from CGColors as a CFArray draws from its first color to its last, inside the clip")
    func linearGradient() throws {
        let size = CGSize(width: 200, height: 20)
        let image = UIGraphicsImageRenderer(size: size, format: format(scale: 1)).image { context in
            let colors = [UIColor.red.cgColor, UIColor.blue.cgColor] as CFArray
            let locations: [CGFloat] = [0, 1]
            guard let gradient = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: colors, locations: locations) else { return }
            context.cgContext.saveGState()
            context.cgContext.clip(to: CGRect(x: 0, y: 0, width: 200, height: 10))
            context.cgContext.drawLinearGradient(gradient, start: .zero, end: CGPoint(x: 200, y: 0), options: [])
            context.cgContext.restoreGState()
        }
        let left = pixel(image, 0, 5), middle = pixel(image, 100, 5), right = pixel(image, 199, 5)
        #expect(left[0] > 250 && left[2] < 5)
        #expect(right[2] > 250 && right[0] < 5)
        #expect((100...155).contains(Int(middle[0])) && (100...155).contains(Int(middle[2])))
        #expect(pixel(image, 100, 15)[3] == 0)
    }

    @Test("NSString.draw(in:withAttributes:) draws glyphs in the font and color, aligned by the paragraph style")
    func textWithAttributes() throws {
        let size = CGSize(width: 300, height: 40)
        func draw(_ alignment: NSTextAlignment) -> UIImage {
            UIGraphicsImageRenderer(size: size, format: format(scale: 1)).image { _ in
                let paragraph = NSMutableParagraphStyle()
                paragraph.alignment = alignment
                let attributes: [NSAttributedString.Key: Any] = [.font: UIFont.boldSystemFont(ofSize: 24),
                                                                 .foregroundColor: UIColor.white, .paragraphStyle: paragraph]
                ("VISA" as NSString).draw(in: CGRect(origin: .zero, size: size), withAttributes: attributes)
            }
        }
        func inkColumns(_ image: UIImage) -> [Int] {
            (0..<300).filter { x in (0..<40).contains { y in pixel(image, x, y)[3] > 128 } }
        }
        let left = inkColumns(draw(.left)), centered = inkColumns(draw(.center))
        try #require(!left.isEmpty, "no glyph was drawn (is libfreetype6 with fonts-dejavu-core installed?)")
        #expect(left.first! < 10)
        #expect(centered.first! > 80 && centered.last! < 220)
        let width = "VISA".size(withAttributes: [.font: UIFont.boldSystemFont(ofSize: 24)]).width
        #expect(width > 40 && width < 90)
        let ink = draw(.left)
        let inked = (0..<300).flatMap { x in (0..<40).map { pixel(ink, x, $0) } }.filter { $0[3] == 255 }
        #expect(inked.allSatisfy { $0[0] == 255 && $0[1] == 255 && $0[2] == 255 })
    }

    @Test("CGDataProvider(data: d as CFData) makes an image from raw pixels")
    func dataProviderFromCFData() throws {
        let pixels = Data([255, 0, 0, 255, 0, 255, 0, 255])
        let provider = try #require(CGDataProvider(data: pixels as CFData))
        let image = CGImage(width: 2, height: 1, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 8,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.last.rawValue),
                            provider: provider, decode: nil, shouldInterpolate: false, intent: .defaultIntent)
        #expect(image?.width == 2)
    }

    @Test("UIGraphicsImageRenderer draws at the screen's scale by default, and at format.scale = 1 a 1536 x 969 art is 1536 x 969 pixels")
    func rendererHonoursTheFormatScale() {
        let art = CGSize(width: 1536, height: 969)
        let screen = UIGraphicsImageRenderer(size: CGSize(width: 10, height: 10)).image { _ in }
        #expect(screen.scale == 3 && screen.cgImage?.width == 30)
        let image = UIGraphicsImageRenderer(size: art, format: format(scale: 1)).image { context in
            UIColor.systemBlue.setFill()
            context.fill(CGRect(origin: .zero, size: art))
        }
        #expect(image.scale == 1)
        #expect(image.cgImage?.width == 1536 && image.cgImage?.height == 969)
        #expect(image.size == art)
    }
}
