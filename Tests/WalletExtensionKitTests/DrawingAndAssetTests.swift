import Foundation
import ImageIO
import Testing
@testable import CoreGraphics
import UIKit
import WalletTestSupport

/// Card art drawn in code (UIKit's image contexts, a bitmap `CGContext`), read from asset
/// catalogs and through ImageIO.
@Suite("Drawing, asset catalogs, ImageIO")
struct DrawingAndAssetTests {
    private func png(width: Int, height: Int) -> Data {
        PNGEncoder.encode(width: width, height: height, colorType: .gray, pixels: [UInt8](repeating: 0x80, count: width * height))
    }

    /// The RGBA bytes of the pixel at `x`, `y` (top row 0).
    private func pixel(_ image: CGImage?, _ x: Int, _ y: Int) -> [UInt8] {
        guard let image, let pixels = image.rgbaPixels else { return [] }
        let offset = (y * image.width + x) * 4
        return Array(pixels[offset..<offset + 4])
    }

    @Test("UIImage(named:) finds an image set in an .xcassets catalog, in a group, at the best scale up to 3x")
    func assetCatalogImageSets() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-assets")
        defer { directory.remove() }
        let set = directory.url.appendingPathComponent("Assets.xcassets/Cards/CardArt.imageset")
        try FileManager.default.createDirectory(at: set, withIntermediateDirectories: true)
        try png(width: 100, height: 60).write(to: set.appendingPathComponent("art-small.png"))
        try png(width: 200, height: 120).write(to: set.appendingPathComponent("art-medium.png"))
        try png(width: 300, height: 180).write(to: set.appendingPathComponent("art-large.png"))
        try Data("""
            {"images": [{"idiom": "universal", "filename": "art-small.png", "scale": "1x"},
                        {"idiom": "universal", "filename": "art-large.png", "scale": "3x"},
                        {"idiom": "universal", "filename": "art-medium.png", "scale": "2x"},
                        {"idiom": "ipad", "filename": "art-medium.png", "scale": "2x"}],
             "info": {"author": "xcode", "version": 1}}
            """.utf8).write(to: set.appendingPathComponent("Contents.json"))
        let bundle = try #require(Bundle(path: directory.url.path))
        let image = try #require(UIImage(named: "CardArt", in: bundle, compatibleWith: nil))
        #expect(image.scale == 3)
        #expect(image.cgImage?.width == 300)
        #expect(image.size == CGSize(width: 100, height: 60))
        #expect(UIImage(named: "Missing", in: bundle, compatibleWith: nil) == nil)
    }

    @Test("UIGraphicsImageRenderer fills and strokes in points at the screen's scale, origin top left")
    func rendererDrawsRectangles() throws {
        let renderer = UIGraphicsImageRenderer(size: CGSize(width: 20, height: 10))
        let image = renderer.image { context in
            UIColor.systemIndigo.setFill()
            context.fill(CGRect(x: 0, y: 0, width: 20, height: 10))
            UIColor.white.setFill()
            context.fill(CGRect(x: 0, y: 0, width: 5, height: 5))
            context.cgContext.setStrokeColor(UIColor.black.cgColor)
            context.cgContext.setLineWidth(2)
            context.cgContext.stroke(CGRect(x: 10, y: 2, width: 8, height: 6))
        }
        #expect(image.scale == 3)
        #expect(image.size == CGSize(width: 20, height: 10))
        let cgImage = try #require(image.cgImage)
        #expect(cgImage.width == 60 && cgImage.height == 30)
        #expect(pixel(cgImage, 1, 1) == [255, 255, 255, 255])
        #expect(pixel(cgImage, 59, 29) == [88, 86, 214, 255])
        #expect(pixel(cgImage, 30, 6) == [0, 0, 0, 255], "the stroke's top edge at y 2 points, 2 points wide")
        #expect(pixel(cgImage, 42, 15) == [88, 86, 214, 255], "inside the stroked rectangle stays unfilled")
        #expect(CGImage(pngData: try #require(image.pngData()))?.width == 60)
    }

    @Test("UIGraphicsBeginImageContextWithOptions, draw an image, get it, end: the old UIKit way")
    func imageContextDrawsAnImage() throws {
        let logo = UIGraphicsImageRenderer(size: CGSize(width: 2, height: 2), format: {
            let format = UIGraphicsImageRendererFormat()
            format.scale = 1
            return format
        }()).image { context in
            UIColor.red.setFill()
            context.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
            UIColor.blue.setFill()
            context.fill(CGRect(x: 0, y: 1, width: 2, height: 1))
        }
        UIGraphicsBeginImageContextWithOptions(CGSize(width: 4, height: 4), true, 1)
        UIColor.white.setFill()
        UIRectFill(CGRect(x: 0, y: 0, width: 4, height: 4))
        logo.draw(in: CGRect(x: 0, y: 0, width: 4, height: 4))
        let image = UIGraphicsGetImageFromCurrentImageContext()
        UIGraphicsEndImageContext()
        #expect(UIGraphicsGetCurrentContext() == nil)
        let cgImage = try #require(image?.cgImage)
        #expect(pixel(cgImage, 0, 0) == [255, 0, 0, 255], "the logo's top row (red) at the top")
        #expect(pixel(cgImage, 3, 3) == [0, 0, 255, 255])
    }

    @Test("a bitmap CGContext has Core Graphics' origin at the bottom left")
    func bitmapContextOrigin() throws {
        let context = try #require(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 16,
                                             space: CGColorSpaceCreateDeviceRGB(),
                                             bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue))
        context.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
        context.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        let image = context.makeImage()
        #expect(pixel(image, 0, 3) == [0, 255, 0, 255], "y 0 is the bottom row")
        #expect(pixel(image, 0, 0) == [0, 0, 0, 0])
    }

    @Test("ImageIO reads a PNG's size and image through CGImageSource, and writes one through CGImageDestination")
    func imageIOReadsAndWritesPNG() throws {
        let data = png(width: 12, height: 7)
        let source = try #require(CGImageSourceCreateWithData(data as CFData, nil))
        #expect(CGImageSourceGetCount(source) == 1)
        #expect(CGImageSourceGetType(source) == "public.png")
        let properties = try #require(CGImageSourceCopyPropertiesAtIndex(source, 0, nil) as? [String: Any])
        #expect(properties[kCGImagePropertyPixelWidth as String] as? Int == 12)
        let image = try #require(CGImageSourceCreateImageAtIndex(source, 0, nil))
        #expect(image.height == 7)
        #expect(CGImageSourceGetCount(try #require(CGImageSourceCreateWithData(Data("GIF89a".utf8) as CFData, nil))) == 0)

        let output = NSMutableData()
        let destination = try #require(CGImageDestinationCreateWithData(output, "public.png" as CFString, 1, nil))
        CGImageDestinationAddImage(destination, image, nil)
        #expect(CGImageDestinationFinalize(destination))
        #expect(output as Data == data)
    }
}
