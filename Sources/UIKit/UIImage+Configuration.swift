import Synchronization

extension UIImage {
    /// Traits an image is made for (`UIImage.Configuration`).
    open class Configuration: NSObject, @unchecked Sendable {
        // @unchecked: immutable once made.
    }

    /// How an SF Symbol is drawn (`UIImage.SymbolConfiguration`): size, weight, scale, colors.
    /// Kept with the image; the symbol itself is the gray placeholder (see ``UIImage``).
    open class SymbolConfiguration: Configuration, @unchecked Sendable {
        /// The point size, or 0 when unset.
        public let pointSize: CGFloat
        /// The weight.
        public let weight: SymbolWeight
        /// The scale.
        public let scale: SymbolScale
        /// The Dynamic Type style, if any.
        public let textStyle: UIFont.TextStyle?

        init(pointSize: CGFloat = 0, weight: SymbolWeight = .unspecified, scale: SymbolScale = .unspecified,
             textStyle: UIFont.TextStyle? = nil) {
            self.pointSize = pointSize
            self.weight = weight
            self.scale = scale
            self.textStyle = textStyle
        }

        public convenience init(pointSize: CGFloat) { self.init(pointSize: pointSize, weight: .unspecified, scale: .unspecified) }
        public convenience init(pointSize: CGFloat, weight: SymbolWeight) { self.init(pointSize: pointSize, weight: weight, scale: .unspecified) }
        public convenience init(weight: SymbolWeight) { self.init(pointSize: 0, weight: weight) }
        public convenience init(scale: SymbolScale) { self.init(pointSize: 0, scale: scale) }
        public convenience init(textStyle: UIFont.TextStyle) { self.init(pointSize: textStyle.pointSize, textStyle: textStyle) }
        public convenience init(textStyle: UIFont.TextStyle, scale: SymbolScale) {
            self.init(pointSize: textStyle.pointSize, scale: scale, textStyle: textStyle)
        }
        public convenience init(font: UIFont) { self.init(pointSize: font.pointSize, weight: SymbolWeight(font.weight)) }
        public convenience init(font: UIFont, scale: SymbolScale) {
            self.init(pointSize: font.pointSize, weight: SymbolWeight(font.weight), scale: scale)
        }
        /// One color for the symbol's layers (kept).
        public convenience init(hierarchicalColor: UIColor) { self.init(pointSize: 0) }
        /// A color per layer (kept).
        public convenience init(paletteColors: [UIColor]) { self.init(pointSize: 0) }
        /// Multicolor (kept).
        public static func preferringMulticolor() -> SymbolConfiguration { SymbolConfiguration(pointSize: 0) }

        /// This configuration with what `other` sets over it.
        open func applying(_ other: Configuration?) -> Self {
            guard let other = other as? SymbolConfiguration else { return self }
            let merged = SymbolConfiguration(pointSize: other.pointSize > 0 ? other.pointSize : pointSize,
                                             weight: other.weight == .unspecified ? weight : other.weight,
                                             scale: other.scale == .unspecified ? scale : other.scale,
                                             textStyle: other.textStyle ?? textStyle)
            return merged as? Self ?? self
        }
    }

    /// A symbol's weight (`UIImage.SymbolWeight`).
    public enum SymbolWeight: Int, Sendable {
        case unspecified, ultraLight, thin, light, regular, medium, semibold, bold, heavy, black

        init(_ weight: UIFont.Weight) {
            let weights: [(UIFont.Weight, SymbolWeight)] = [(.ultraLight, .ultraLight), (.thin, .thin), (.light, .light),
                                                           (.regular, .regular), (.medium, .medium), (.semibold, .semibold),
                                                           (.bold, .bold), (.heavy, .heavy), (.black, .black)]
            self = weights.first { $0.0 == weight }?.1 ?? .regular
        }
    }

    /// A symbol's scale beside text (`UIImage.SymbolScale`).
    public enum SymbolScale: Int, Sendable { case `default` = -1, unspecified = 0, small, medium, large }

    /// How an image is tinted (`UIImage.RenderingMode`).
    public enum RenderingMode: Int, Sendable { case automatic, alwaysOriginal, alwaysTemplate }

    /// The symbol `name` drawn with `configuration` (the gray placeholder; see ``UIImage``).
    public convenience init?(systemName name: String, withConfiguration configuration: Configuration?) {
        self.init(systemName: name)
        ImageAttributes.set(self) { $0.configuration = configuration }
    }

    /// The image with `configuration` applied.
    public func withConfiguration(_ configuration: Configuration) -> UIImage {
        ImageAttributes.set(self) { $0.configuration = configuration }
        return self
    }

    /// The image's configuration, if one was given.
    public var configuration: Configuration? { ImageAttributes.get(self).configuration }

    /// The symbol configuration, if one was given.
    public var symbolConfiguration: SymbolConfiguration? { configuration as? SymbolConfiguration }

    /// The image drawn in `renderingMode`. The pixels are the same (nothing is tinted here), and
    /// this returns the receiver with the mode recorded, where UIKit returns a copy.
    public func withRenderingMode(_ renderingMode: RenderingMode) -> UIImage {
        ImageAttributes.set(self) { $0.renderingMode = renderingMode }
        return self
    }

    /// How the image is tinted: `.automatic` unless ``withRenderingMode(_:)`` set it.
    public var renderingMode: RenderingMode { ImageAttributes.get(self).renderingMode }

    /// The image tinted `color` (kept: the pixels are the same).
    public func withTintColor(_ color: UIColor) -> UIImage { withRenderingMode(.alwaysOriginal) }

    /// The image tinted `color` in `renderingMode` (kept: the pixels are the same).
    public func withTintColor(_ color: UIColor, renderingMode: RenderingMode) -> UIImage { withRenderingMode(renderingMode) }
}

/// What UIKit keeps on an image beside its pixels (its rendering mode and configuration), held
/// beside each image while it lives: UIImage's stored properties are its pixels and scale.
private final class ImageAttributes: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    struct Values {
        var renderingMode = UIImage.RenderingMode.automatic
        var configuration: UIImage.Configuration?
    }

    private struct Entry {
        weak var image: UIImage?
        var values: Values
    }

    private static let shared = ImageAttributes()
    private let lock = Mutex(())
    private var table: [ObjectIdentifier: Entry] = [:]

    static func get(_ image: UIImage) -> Values {
        shared.lock.withLock { _ in
            guard let entry = shared.table[ObjectIdentifier(image)], entry.image === image else { return Values() }
            return entry.values
        }
    }

    static func set(_ image: UIImage, _ change: (inout Values) -> Void) {
        shared.lock.withLock { _ in
            let key = ObjectIdentifier(image)
            var values = shared.table[key].flatMap { $0.image === image ? $0.values : nil } ?? Values()
            change(&values)
            // A released image's identifier can be reused: drop what the dead left behind.
            if shared.table.count > 256 { shared.table = shared.table.filter { $0.value.image != nil } }
            shared.table[key] = Entry(image: image, values: values)
        }
    }
}
