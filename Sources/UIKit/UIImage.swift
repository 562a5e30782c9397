import Foundation

/// An image (`UIImage`), kept as PNG: what card art needs.
///
/// - ``init(named:)`` finds `NAME.png` in the extension's bundle (`Bundle.main`, the
///   `.appex`), preferring `NAME@3x.png`, then `NAME@2x.png`, as an iPhone with a 3x screen
///   does; the scale sets ``size`` in points.
///   Failing that, it reads an image set of an `.xcassets` catalog in the bundle (see ``AssetCatalog``).
/// - ``init(data:)`` and ``init(contentsOfFile:)`` take PNG files; ``pngData()`` returns the
///   bytes. Other formats (JPEG, HEIC, compiled `Assets.car`) are not read: they return nil.
/// - ``init(systemName:)`` returns a plain gray card-shaped placeholder for any symbol name:
///   SF Symbols are not available off Apple platforms.
/// - `#imageLiteral(resourceName: "generic")` is ``init(named:)`` that must succeed.
open class UIImage: NSObject, @unchecked Sendable, _ExpressibleByImageLiteral {
    // @unchecked: immutable once made.

    /// The bitmap.
    public let cgImage: CGImage?
    /// Pixels per point.
    public let scale: CGFloat
    /// The SF Symbol's name (``init(systemName:)``) or the image's name (``init(named:)``): what
    /// names a button that shows only this image. Set once, by those initializers.
    package private(set) var sourceName: String?
    /// The SF Symbol's name when the image is one (``init(systemName:)``).
    package private(set) var symbolName: String?

    /// An empty image: no bitmap, size zero.
    public override init() {
        cgImage = nil
        scale = 1
    }

    /// An image wrapping `cgImage` at scale 1.
    public init(cgImage: CGImage) {
        self.cgImage = cgImage
        scale = 1
    }

    /// An image wrapping `cgImage` at `scale`; the orientation is ignored.
    public init(cgImage: CGImage, scale: CGFloat, orientation: UIImage.Orientation) {
        self.cgImage = cgImage
        self.scale = scale
    }

    /// An image from PNG data at scale 1.
    public convenience init?(data: Data) {
        self.init(data: data, scale: 1)
    }

    /// An image from PNG data at `scale`.
    public convenience init?(data: Data, scale: CGFloat) {
        guard let cgImage = CGImage(pngData: data) else { return nil }
        self.init(cgImage: cgImage, scale: scale, orientation: .up)
    }

    /// An image from a PNG file; a `@2x`/`@3x` suffix sets the scale.
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(data: data, scale: Self.scale(ofFileNamed: path))
    }

    /// The image called `name` in the main bundle (see the type's description).
    public convenience init?(named name: String) {
        self.init(named: name, in: nil, compatibleWith: nil)
    }

    /// The image called `name` in `bundle` (the main bundle when nil): a PNG file, else an image
    /// set of an asset catalog (``AssetCatalog``).
    public convenience init?(named name: String, in bundle: Bundle?, compatibleWith traitCollection: UITraitCollection?) {
        if let path = Self.path(ofImageNamed: name, in: bundle ?? .main) {
            self.init(contentsOfFile: path)
        } else if let asset = AssetCatalog.image(named: name, in: bundle ?? .main),
                  let data = FileManager.default.contents(atPath: asset.path) {
            self.init(data: data, scale: asset.scale)
        } else {
            return nil
        }
        sourceName = name
    }

    /// A gray placeholder: SF Symbols are not available here (see the type's description).
    public convenience init?(systemName name: String) {
        self.init(cgImage: SymbolPlaceholder.image, scale: 3, orientation: .up)
        sourceName = name
        symbolName = name
    }

    /// The image named in `#imageLiteral(resourceName:)`; it must exist in the main bundle.
    public required convenience init(imageLiteralResourceName path: String) {
        guard let path = Self.path(ofImageNamed: path, in: .main), let data = FileManager.default.contents(atPath: path),
              let cgImage = CGImage(pngData: data) else {
            fatalError("#imageLiteral(resourceName: \"\(path)\"): no \(path).png in \(Bundle.main.bundlePath)")
        }
        self.init(cgImage: cgImage, scale: Self.scale(ofFileNamed: path), orientation: .up)
    }

    /// Size in points: pixels divided by ``scale``.
    open var size: CGSize {
        guard let cgImage else { return .zero }
        return CGSize(width: CGFloat(cgImage.width) / scale, height: CGFloat(cgImage.height) / scale)
    }

    /// The image as a Core Image image.
    open var ciImage: CIImage? { cgImage.map(CIImage.init(cgImage:)) }

    /// The PNG file's bytes.
    open func pngData() -> Data? { cgImage?.pngData }

    /// Orientation of the pixels (`UIImage.Orientation`); only `.up` is drawn here.
    public enum Orientation: Int, Sendable {
        case up, down, left, right, upMirrored, downMirrored, leftMirrored, rightMirrored
    }

    /// The file of image `name` in `bundle`: `name` if it has an extension, else the best of
    /// `name@3x.png`, `name@2x.png`, `name.png`, in the bundle's resources then at its root.
    static func path(ofImageNamed name: String, in bundle: Bundle) -> String? {
        let directories = [bundle.resourcePath, bundle.bundlePath].compactMap { $0 }
        let candidates = name.hasSuffix(".png") ? [name] : ["\(name)@3x.png", "\(name)@2x.png", "\(name).png"]
        for directory in directories {
            for candidate in candidates {
                let path = (directory as NSString).appendingPathComponent(candidate)
                if FileManager.default.isReadableFile(atPath: path) { return path }
            }
        }
        return nil
    }

    private static func scale(ofFileNamed path: String) -> CGFloat {
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        if name.hasSuffix("@3x") { return 3 }
        if name.hasSuffix("@2x") { return 2 }
        return 1
    }
}

/// The literal type of `#imageLiteral` when nothing else is expected.
public typealias _ImageLiteralType = UIImage

/// Display traits (`UITraitCollection`); accepted and ignored when finding images.
public final class UITraitCollection: NSObject, Sendable {}

/// The placeholder for SF Symbols: a 96 x 60 pixel gray card.
private enum SymbolPlaceholder {
    static let image: CGImage = {
        let width = 96
        let height = 60
        let pixels = [UInt8](repeating: 0x8E, count: width * height)
        return CGImage(pngData: PNGEncoder.encode(width: width, height: height, colorType: .gray, pixels: pixels))!
    }()
}

extension CIImage {
    /// The Core Image form of `image` (UIKit's addition to Core Image).
    public convenience init?(image: UIImage) {
        guard let cgImage = image.cgImage else { return nil }
        self.init(cgImage: cgImage)
    }
}
