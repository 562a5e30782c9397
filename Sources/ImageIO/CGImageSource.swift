@_exported import CoreGraphics
@_exported import Foundation

/// Where images are read from (`CGImageSource`): PNG only, one image per source.
public final class CGImageSource: @unchecked Sendable {
    // @unchecked: immutable once made.
    let image: CGImage?

    init(data: Data) {
        image = CGImage(pngData: data)
    }
}

/// How far a source has read (`CGImageSourceStatus`).
public enum CGImageSourceStatus: Int32, Sendable {
    case statusUnexpectedEOF = -5
    case statusInvalidData = -4
    case statusUnknownType = -3
    case statusReadingHeader = -2
    case statusIncomplete = -1
    case statusComplete = 0
}

/// The uniform type identifier of PNG, which is what ``CGImageSourceGetType(_:)`` answers.
private let pngTypeIdentifier = "public.png"

/// The width in pixels, a key of ``CGImageSourceCopyPropertiesAtIndex(_:_:_:)``'s answer.
nonisolated(unsafe) public let kCGImagePropertyPixelWidth: CFString = "PixelWidth"
/// The height in pixels.
nonisolated(unsafe) public let kCGImagePropertyPixelHeight: CFString = "PixelHeight"
/// Bits per sample.
nonisolated(unsafe) public let kCGImagePropertyDepth: CFString = "Depth"
/// Accepted and ignored: images are kept as they were read.
nonisolated(unsafe) public let kCGImageSourceShouldCache: CFString = "kCGImageSourceShouldCache"
/// Accepted and ignored.
nonisolated(unsafe) public let kCGImageSourceTypeIdentifierHint: CFString = "kCGImageSourceTypeIdentifierHint"

/// A source reading `data`; images other than PNG give a source with no image (count 0).
public func CGImageSourceCreateWithData(_ data: CFData, _ options: CFDictionary?) -> CGImageSource? {
    CGImageSource(data: Data(referencing: data))
}

/// A source reading the file at `url`, or nil when it cannot be read.
public func CGImageSourceCreateWithURL(_ url: CFURL, _ options: CFDictionary?) -> CGImageSource? {
    guard let data = try? Data(contentsOf: url as URL) else { return nil }
    return CGImageSource(data: data)
}

/// The number of images: 1 for a PNG, 0 otherwise.
public func CGImageSourceGetCount(_ isrc: CGImageSource) -> Int {
    isrc.image == nil ? 0 : 1
}

/// `public.png` for a PNG, nil otherwise.
public func CGImageSourceGetType(_ isrc: CGImageSource) -> CFString? {
    isrc.image == nil ? nil : NSString(string: pngTypeIdentifier)
}

/// Complete for a PNG, invalid data otherwise.
public func CGImageSourceGetStatus(_ isrc: CGImageSource) -> CGImageSourceStatus {
    isrc.image == nil ? .statusInvalidData : .statusComplete
}

/// The image at `index` (only 0 exists), or nil.
public func CGImageSourceCreateImageAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?) -> CGImage? {
    index == 0 ? isrc.image : nil
}

/// The pixel width, height and depth of the image at `index`, or nil.
public func CGImageSourceCopyPropertiesAtIndex(_ isrc: CGImageSource, _ index: Int, _ options: CFDictionary?) -> CFDictionary? {
    guard index == 0, let image = isrc.image else { return nil }
    return NSDictionary(dictionary: [
        kCGImagePropertyPixelWidth as String: NSNumber(value: image.width),
        kCGImagePropertyPixelHeight as String: NSNumber(value: image.height),
        kCGImagePropertyDepth as String: NSNumber(value: image.bitsPerComponent),
    ])
}

/// Where images are written (`CGImageDestination`): one PNG into a mutable data.
public final class CGImageDestination: @unchecked Sendable {
    // @unchecked: used from one thread at a time, as ImageIO's is.
    let data: NSMutableData
    var image: CGImage?

    init(data: NSMutableData) {
        self.data = data
    }
}

/// A destination writing a PNG (`type` `public.png`) into `data`; nil for other types.
public func CGImageDestinationCreateWithData(_ data: CFMutableData, _ type: CFString, _ count: Int,
                                             _ options: CFDictionary?) -> CGImageDestination? {
    (type as String) == pngTypeIdentifier && count >= 1 ? CGImageDestination(data: data) : nil
}

/// Sets the image to write.
public func CGImageDestinationAddImage(_ idst: CGImageDestination, _ image: CGImage, _ properties: CFDictionary?) {
    idst.image = image
}

/// Writes the PNG into the destination's data: false when no image was added.
public func CGImageDestinationFinalize(_ idst: CGImageDestination) -> Bool {
    guard let image = idst.image else { return false }
    idst.data.setData(image.pngData)
    return true
}
