@_exported import CoreGraphics
@_exported import Foundation

/// An image recipe (`CIImage`). Here it wraps a ``CGImage`` and knows its extent; no
/// filters are applied.
public final class CIImage: @unchecked Sendable {
    // @unchecked: immutable once made.

    /// The image this one was made from.
    public let cgImage: CGImage?

    /// An image from a Core Graphics image.
    public init(cgImage: CGImage) {
        self.cgImage = cgImage
    }

    /// The image's bounds: origin zero, its pixel width and height.
    public var extent: CGRect {
        guard let cgImage else { return .null }
        return CGRect(x: 0, y: 0, width: cgImage.width, height: cgImage.height)
    }
}

/// Options of a ``CIContext`` (`CIContextOption`); accepted and ignored.
public struct CIContextOption: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let useSoftwareRenderer = CIContextOption(rawValue: "kCIContextUseSoftwareRenderer")
    public static let workingColorSpace = CIContextOption(rawValue: "kCIContextWorkingColorSpace")
}

/// Renders ``CIImage``s (`CIContext`).
public final class CIContext: Sendable {
    /// A context; the options are ignored.
    public init(options: [CIContextOption: Any]? = nil) {}

    /// The image rendered as a ``CGImage``. Rendering the whole extent (what card-art code
    /// does) returns the image itself; cropping to a smaller rectangle is not supported and
    /// returns nil, with a line on stderr.
    public func createCGImage(_ image: CIImage, from fromRect: CGRect) -> CGImage? {
        guard let cgImage = image.cgImage else { return nil }
        guard fromRect.integral == image.extent else {
            let message = "CIContext.createCGImage(_:from:): only the whole extent \(image.extent) can be rendered here, not \(fromRect)\n"
            FileHandle.standardError.write(Data(message.utf8))
            return nil
        }
        return cgImage
    }
}
