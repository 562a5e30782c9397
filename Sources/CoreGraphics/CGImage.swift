@_exported import Foundation

/// A bitmap image (`CGImage`), kept as the PNG file Wallet receives as card art.
///
/// Made from PNG data (``init(pngDataProviderSource:decode:shouldInterpolate:intent:)``), from
/// raw 8-bit pixels (``init(width:height:bitsPerComponent:bitsPerPixel:bytesPerRow:space:bitmapInfo:provider:decode:shouldInterpolate:intent:)``,
/// encoded to PNG here), or through `UIImage` and `CIContext`. The width and height come from
/// the PNG's `IHDR` chunk. There is no drawing and no decoding of pixels.
public final class CGImage: @unchecked Sendable {
    // @unchecked: immutable once made.

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bits per sample (1, 2, 4, 8 or 16).
    public let bitsPerComponent: Int
    /// The PNG file's bytes, sent to Wallet as they are.
    package let pngData: Data
    /// The pixels as straight RGBA rows, top to bottom, when the image was made from pixels
    /// (a bitmap context or raw pixels): what `CGContext.draw(_:in:)` copies. PNG files are
    /// not decoded, so an image read from one has none.
    package let rgbaPixels: [UInt8]?

    /// An image from PNG bytes (not a Core Graphics initializer; `UIImage(data:)` is the usual way).
    /// - Returns: `nil` when the bytes do not start with a PNG signature and an `IHDR` chunk
    ///   of non-zero width and height.
    public convenience init?(pngData: Data) {
        self.init(pngData: pngData, rgbaPixels: nil)
    }

    /// An image from PNG bytes and, when known, its pixels as RGBA.
    package init?(pngData: Data, rgbaPixels: [UInt8]?) {
        guard let header = PNGHeader(pngData) else { return nil }
        width = header.width
        height = header.height
        bitsPerComponent = header.bitDepth
        self.pngData = pngData
        self.rgbaPixels = rgbaPixels
    }

    /// An image of straight RGBA pixels, `width * 4` bytes per row, encoded to PNG.
    package convenience init(width: Int, height: Int, rgbaPixels: [UInt8]) {
        self.init(pngData: PNGEncoder.encode(width: width, height: height, colorType: .rgba, pixels: rgbaPixels),
                  rgbaPixels: rgbaPixels)!
    }

    /// An image from a PNG data provider, as Core Graphics makes one.
    public convenience init?(pngDataProviderSource source: CGDataProvider, decode: UnsafePointer<CGFloat>?,
                             shouldInterpolate: Bool, intent: CGColorRenderingIntent) {
        self.init(pngData: source.data)
    }

    /// An image from raw pixels: 8 bits per component, gray (8 bits per pixel), RGB (24) or
    /// RGBA/RGBX (32, alpha or padding last or first, as `bitmapInfo` says). The pixels are
    /// encoded to PNG at once.
    /// - Returns: `nil` for other layouts or when the provider holds too few bytes.
    public convenience init?(width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int, bytesPerRow: Int,
                             space: CGColorSpace, bitmapInfo: CGBitmapInfo, provider: CGDataProvider,
                             decode: UnsafePointer<CGFloat>?, shouldInterpolate: Bool, intent: CGColorRenderingIntent) {
        guard width > 0, height > 0, bitsPerComponent == 8,
              let layout = RawPixelLayout(bitsPerPixel: bitsPerPixel, components: space.numberOfComponents,
                                          alphaInfo: bitmapInfo.alphaInfo),
              bytesPerRow >= width * bitsPerPixel / 8,
              provider.data.count >= bytesPerRow * (height - 1) + width * bitsPerPixel / 8 else { return nil }
        let pixels = layout.packedPixels(from: [UInt8](provider.data), width: width, height: height, bytesPerRow: bytesPerRow)
        self.init(pngData: PNGEncoder.encode(width: width, height: height, colorType: layout.colorType, pixels: pixels),
                  rgbaPixels: layout.colorType.rgba(pixels))
    }

    /// The image's bytes, as PNG.
    public var dataProvider: CGDataProvider? { CGDataProvider(data: pngData) }
}

/// Bytes behind an image (`CGDataProvider`).
public final class CGDataProvider: Sendable {
    /// The bytes.
    public let data: Data

    /// A provider of `data` (Core Graphics takes a `CFData`; here it is `Data`).
    public init?(data: Data) {
        self.data = data
    }
}

/// A color space (`CGColorSpace`): gray or RGB.
public final class CGColorSpace: Sendable {
    /// sRGB's name.
    public static let sRGB = "kCGColorSpaceSRGB"
    /// Generic gray's name.
    public static let genericGrayGamma2_2 = "kCGColorSpaceGenericGrayGamma2_2"

    /// Components per pixel, alpha excluded: 1 (gray) or 3 (RGB).
    public let numberOfComponents: Int

    init(numberOfComponents: Int) {
        self.numberOfComponents = numberOfComponents
    }

    /// A named color space: gray for the gray names, RGB otherwise.
    public convenience init?(name: String) {
        self.init(numberOfComponents: name.localizedCaseInsensitiveContains("gray") ? 1 : 3)
    }
}

/// The device RGB color space.
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { CGColorSpace(numberOfComponents: 3) }

/// The device gray color space.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace { CGColorSpace(numberOfComponents: 1) }

/// Where alpha sits in a pixel (`CGImageAlphaInfo`).
public enum CGImageAlphaInfo: UInt32, Sendable {
    case none = 0
    case premultipliedLast = 1
    case premultipliedFirst = 2
    case last = 3
    case first = 4
    case noneSkipLast = 5
    case noneSkipFirst = 6
    case alphaOnly = 7
}

/// Pixel layout flags (`CGBitmapInfo`); the low five bits are a ``CGImageAlphaInfo``.
public struct CGBitmapInfo: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    public static let byteOrderDefault = CGBitmapInfo([])
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)

    /// The alpha placement these flags carry.
    var alphaInfo: CGImageAlphaInfo? { CGImageAlphaInfo(rawValue: rawValue & 0x1F) }
}

/// How colors outside the gamut are mapped (`CGColorRenderingIntent`); ignored here.
public enum CGColorRenderingIntent: Int32, Sendable {
    case defaultIntent = 0
    case absoluteColorimetric = 1
    case relativeColorimetric = 2
    case perceptual = 3
    case saturation = 4
}

/// Raw pixel layouts the PNG encoder takes.
private struct RawPixelLayout {
    var colorType: PNGEncoder.ColorType
    /// Offset of the first color component and of alpha in each source pixel (nil: no alpha kept).
    var colorOffset: Int
    var alphaOffset: Int?
    var sourceBytesPerPixel: Int

    init?(bitsPerPixel: Int, components: Int, alphaInfo: CGImageAlphaInfo?) {
        sourceBytesPerPixel = bitsPerPixel / 8
        switch (components, bitsPerPixel, alphaInfo ?? .none) {
        case (1, 8, .none):
            self.colorType = .gray; colorOffset = 0; alphaOffset = nil
        case (3, 24, .none):
            self.colorType = .rgb; colorOffset = 0; alphaOffset = nil
        case (3, 32, .premultipliedLast), (3, 32, .last):
            self.colorType = .rgba; colorOffset = 0; alphaOffset = 3
        case (3, 32, .premultipliedFirst), (3, 32, .first):
            self.colorType = .rgba; colorOffset = 1; alphaOffset = 0
        case (3, 32, .noneSkipLast):
            self.colorType = .rgb; colorOffset = 0; alphaOffset = nil
        case (3, 32, .noneSkipFirst):
            self.colorType = .rgb; colorOffset = 1; alphaOffset = nil
        default:
            return nil
        }
    }

    /// The pixels as PNG wants them: rows packed, color then (straight) alpha.
    func packedPixels(from source: [UInt8], width: Int, height: Int, bytesPerRow: Int) -> [UInt8] {
        let components = colorType == .gray ? 1 : 3
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * colorType.bytesPerPixel)
        for row in 0..<height {
            for column in 0..<width {
                let base = row * bytesPerRow + column * sourceBytesPerPixel
                pixels.append(contentsOf: source[base + colorOffset..<base + colorOffset + components])
                if let alphaOffset { pixels.append(source[base + alphaOffset]) }
            }
        }
        return pixels
    }
}

/// The fields of a PNG `IHDR` chunk that matter here.
package struct PNGHeader: Equatable, Sendable {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    package var width: Int
    package var height: Int
    package var bitDepth: Int
    package var colorType: Int

    /// Parses the signature and the first chunk, which the PNG specification requires to be
    /// a 13-byte `IHDR`. Returns `nil` for anything else.
    package init?(_ data: Data) {
        let bytes = [UInt8](data.prefix(33))
        guard bytes.count == 33, Array(bytes[0..<8]) == Self.signature else { return nil }
        func bigEndian32(_ offset: Int) -> Int {
            bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
        }
        guard bigEndian32(8) == 13, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        width = bigEndian32(16)
        height = bigEndian32(20)
        bitDepth = Int(bytes[24])
        colorType = Int(bytes[25])
        // The specification caps dimensions at 2^31 - 1 and forbids zero.
        guard (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height) else { return nil }
    }
}
