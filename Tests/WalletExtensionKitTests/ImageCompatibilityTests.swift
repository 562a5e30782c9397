import Foundation
import Testing
@testable import CoreGraphics
import CoreImage
import UIKit
import WalletTestSupport

/// UIImage, CGImage, CIImage and CIContext as card-art code uses them.
@Suite("Images: UIKit, Core Graphics, Core Image")
struct ImageCompatibilityTests {
    /// A bundle directory holding `files` (name -> PNG bytes).
    private func bundle(with files: [String: Data]) throws -> (Bundle, TemporaryDirectory) {
        let directory = try TemporaryDirectory(prefix: "wallet-host-images")
        for (name, data) in files { try data.write(to: directory.url.appendingPathComponent(name)) }
        return (try #require(Bundle(path: directory.url.path)), directory)
    }

    private func png(width: Int, height: Int, gray: UInt8 = 0x80) -> Data {
        PNGEncoder.encode(width: width, height: height, colorType: .gray,
                          pixels: [UInt8](repeating: gray, count: width * height))
    }

    @Test("UIImage(named:) prefers @3x, then @2x, then the plain file, and scales its size")
    func namedImagesPickTheBestScale() throws {
        let (bundle, directory) = try bundle(with: ["card.png": png(width: 100, height: 60),
                                                    "card@2x.png": png(width: 200, height: 120),
                                                    "card@3x.png": png(width: 300, height: 180),
                                                    "plain.png": png(width: 10, height: 6)])
        defer { directory.remove() }
        let card = try #require(UIImage(named: "card", in: bundle, compatibleWith: nil))
        #expect(card.scale == 3)
        #expect(card.size == CGSize(width: 100, height: 60))
        #expect(card.cgImage?.width == 300)
        #expect(UIImage(named: "plain", in: bundle, compatibleWith: nil)?.scale == 1)
        #expect(UIImage(named: "plain.png", in: bundle, compatibleWith: nil)?.cgImage?.width == 10)
        #expect(UIImage(named: "missing", in: bundle, compatibleWith: nil) == nil)
    }

    @Test("UIImage(data:) takes PNG only, and pngData() gives the bytes back")
    func dataRoundTrip() {
        let bytes = png(width: 16, height: 9)
        #expect(UIImage(data: bytes)?.pngData() == bytes)
        #expect(UIImage(data: Data("GIF89a not a png, long enough for the header".utf8)) == nil)
    }

    @Test("CIImage(image:) and CIContext render the whole extent; a crop is refused")
    func coreImageRendersTheWholeExtent() throws {
        let image = try #require(UIImage(data: png(width: 1536, height: 969)))
        let ciImage = try #require(CIImage(image: image))
        #expect(ciImage.extent == CGRect(x: 0, y: 0, width: 1536, height: 969))
        let context = CIContext(options: nil)
        let rendered = try #require(context.createCGImage(ciImage, from: ciImage.extent))
        #expect(rendered.width == 1536 && rendered.height == 969)
        #expect(context.createCGImage(ciImage, from: CGRect(x: 0, y: 0, width: 10, height: 10)) == nil)
    }

    @Test("UIImage(systemName:) is a placeholder image, never nil")
    func systemImagesArePlaceholders() throws {
        let symbol = try #require(UIImage(systemName: "creditcard.and.123"))
        #expect(symbol.cgImage?.width == 96)
        #expect(symbol.pngData()?.prefix(8) == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
    }

    @Test("CGImage from raw RGBA pixels is a valid PNG with those pixels (checked by Python's zlib)",
          .enabled(if: Python3.isAvailable, "python3 is not on PATH"))
    func rawPixelsBecomeAValidPNG() throws {
        let width = 1536, height = 969
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for row in 0..<height {
            for column in 0..<width {
                // Bands and a gradient: runs for LZ77, literals for the rest.
                pixels += [UInt8(column / 64 % 256), UInt8(row % 256), 0x40, 0xFF]
            }
        }
        let provider = try #require(CGDataProvider(data: Data(pixels)))
        let image = try #require(CGImage(
            width: width, height: height, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: width * 4,
            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue),
            provider: provider, decode: nil, shouldInterpolate: false, intent: .defaultIntent))
        #expect(image.width == width && image.height == height)
        #expect(image.pngData.count < 4_000_000, "card art must stay under Wallet's 4 MB")

        let directory = try TemporaryDirectory(prefix: "wallet-host-png")
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("art.png")
        try image.pngData.write(to: file)
        // Decode the IDAT with zlib and compare a few pixels (filter type 0 on every row).
        let script = """
            import struct, sys, zlib
            data = open(sys.argv[1], 'rb').read()
            pos, idat = 8, b''
            while pos < len(data):
                length, kind = struct.unpack('>I4s', data[pos:pos + 8])
                body = data[pos + 8:pos + 8 + length]
                assert zlib.crc32(kind + body) == struct.unpack('>I', data[pos + 8 + length:pos + 12 + length])[0]
                if kind == b'IDAT': idat += body
                pos += 12 + length
            raw = zlib.decompress(idat)
            stride = 1536 * 4 + 1
            def pixel(x, y): return list(raw[y * stride + 1 + x * 4: y * stride + 5 + x * 4])
            print(len(raw), pixel(0, 0), pixel(700, 300), pixel(1535, 968))
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: try #require(Python3.path))
        python.arguments = ["-c", script, file.path]
        let pipe = Pipe()
        python.standardOutput = pipe
        try python.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        #expect(output.trimmingCharacters(in: .whitespacesAndNewlines)
            == "\(969 * (1536 * 4 + 1)) [0, 0, 64, 255] [10, 44, 64, 255] [23, 200, 64, 255]")
    }

    @Test("gray and RGBX layouts are accepted; other layouts and short buffers are refused")
    func rawLayouts() throws {
        let gray = CGImage(width: 4, height: 2, bitsPerComponent: 8, bitsPerPixel: 8, bytesPerRow: 4,
                           space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGBitmapInfo(rawValue: 0),
                           provider: CGDataProvider(data: Data(count: 8))!, decode: nil, shouldInterpolate: false,
                           intent: .defaultIntent)
        #expect(gray?.width == 4)
        let skip = CGImage(width: 2, height: 2, bitsPerComponent: 8, bitsPerPixel: 32, bytesPerRow: 8,
                           space: CGColorSpaceCreateDeviceRGB(),
                           bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.noneSkipLast.rawValue),
                           provider: CGDataProvider(data: Data(count: 16))!, decode: nil, shouldInterpolate: false,
                           intent: .defaultIntent)
        #expect(skip?.height == 2)
        let sixteenBit = CGImage(width: 2, height: 2, bitsPerComponent: 16, bitsPerPixel: 64, bytesPerRow: 16,
                                 space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGBitmapInfo(rawValue: 1),
                                 provider: CGDataProvider(data: Data(count: 32))!, decode: nil, shouldInterpolate: false,
                                 intent: .defaultIntent)
        #expect(sixteenBit == nil)
        let short = CGImage(width: 4, height: 4, bitsPerComponent: 8, bitsPerPixel: 8, bytesPerRow: 4,
                            space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGBitmapInfo(rawValue: 0),
                            provider: CGDataProvider(data: Data(count: 15))!, decode: nil, shouldInterpolate: false,
                            intent: .defaultIntent)
        #expect(short == nil)
    }
}
