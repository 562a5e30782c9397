import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Card art: a PNG image that knows its pixel size.
///
/// Named after Core Graphics' `CGImage` so that `art: CGImage` parameters and properties
/// port unchanged; on Linux it simply carries the PNG bytes Wallet receives, with the
/// width and height read from the PNG's `IHDR` chunk. There is no decoding and no drawing.
public final class CGImage: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Bits per sample (1, 2, 4, 8 or 16).
    public let bitsPerComponent: Int
    /// The PNG file's bytes, sent to Wallet as they are.
    public let pngData: Data

    /// An image from PNG bytes.
    /// - Returns: `nil` when the bytes do not start with a PNG signature and an `IHDR` chunk
    ///   of non-zero width and height.
    public init?(pngData: Data) {
        guard let header = PNGHeader(pngData) else { return nil }
        width = header.width
        height = header.height
        bitsPerComponent = header.bitDepth
        self.pngData = pngData
    }

    /// An image from a PNG file.
    /// - Returns: `nil` when the file cannot be read or is not a PNG.
    public convenience init?(contentsOf url: URL) {
        guard let data = try? Data(contentsOf: url) else { return nil }
        self.init(pngData: data)
    }

    /// An image shipped inside the extension's bundle: `name` (with or without `.png`) in the
    /// directory of the running executable, which is the `.appex` (or the `.app`).
    /// - Returns: `nil` when there is no such PNG file.
    public convenience init?(named name: String) {
        let fileName = name.hasSuffix(".png") ? name : name + ".png"
        self.init(contentsOf: ExecutableDirectory.url.appending(path: fileName))
    }
}

/// The fields of a PNG `IHDR` chunk that matter here.
struct PNGHeader: Equatable, Sendable {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    var width: Int
    var height: Int
    var bitDepth: Int
    var colorType: Int

    /// Parses the signature and the first chunk, which the PNG specification requires to be
    /// a 13-byte `IHDR`. Returns `nil` for anything else.
    init?(_ data: Data) {
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

/// The directory holding the running executable: inside a bundle, the bundle itself.
enum ExecutableDirectory {
    static let url: URL = {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return URL(filePath: FileManager.default.currentDirectoryPath) }
        let path = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return URL(filePath: path).deletingLastPathComponent()
    }()
}
