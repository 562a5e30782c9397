import Foundation

/// The size of a PNG image, read from its `IHDR` chunk without decoding any pixels.
///
/// ``read(_:)`` checks the 8-byte PNG signature, that the first chunk is a complete `IHDR`,
/// and walks the chunk list up to `IEND`, so a file cut short (a partial download, a
/// truncated write) is told apart from a file that is not a PNG at all. Chunk CRCs and the
/// compressed image data are not checked.
public struct PNGImageHeader: Sendable, Hashable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a header.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Why bytes could not be read as a PNG.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// No bytes at all.
        case empty
        /// The bytes do not start with the PNG signature; `firstBytes` are up to 8 of them.
        case notPNG(firstBytes: [UInt8])
        /// The bytes end before the PNG does; `detail` says where.
        case truncated(detail: String)
        /// The signature is there but the chunk structure is wrong; `detail` says how.
        case malformed(detail: String)

        /// A clause describing the failure, for example `is not a PNG (it starts ff d8 ff e0: a JPEG)`.
        public var description: String {
            switch self {
            case .empty:
                return "is empty"
            case .notPNG(let firstBytes):
                let hex = firstBytes.map { byte in
                    let digits = String(byte, radix: 16)
                    return digits.count == 1 ? "0" + digits : digits
                }.joined(separator: " ")
                return "is not a PNG (it starts \(hex)\(Self.formatGuess(firstBytes).map { ": \($0)" } ?? ""))"
            case .truncated(let detail):
                return "is a truncated PNG: \(detail)"
            case .malformed(let detail):
                return "is not a well-formed PNG: \(detail)"
            }
        }

        private static func formatGuess(_ bytes: [UInt8]) -> String? {
            if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "a JPEG" }
            if bytes.starts(with: Array("GIF8".utf8)) { return "a GIF" }
            if bytes.starts(with: Array("RIFF".utf8)) { return "a RIFF file, such as WebP" }
            if bytes.starts(with: [0x00, 0x00, 0x00]) && bytes.count >= 8 && Array(bytes[4..<8]) == Array("ftyp".utf8) {
                return "an ISO media file, such as HEIC"
            }
            if bytes.starts(with: Array("<svg".utf8)) || bytes.starts(with: Array("<?xml".utf8)) { return "XML, such as SVG" }
            return nil
        }
    }

    /// The 8 bytes every PNG starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Reads the image size from PNG bytes.
    /// - Parameter data: The whole PNG file.
    /// - Returns: The width and height from `IHDR`.
    /// - Throws: ``Failure`` when the bytes are empty, not a PNG, cut short or malformed.
    public static func read(_ data: Data) throws(Failure) -> PNGImageHeader {
        let bytes = [UInt8](data)
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.starts(with: signature) else {
            if signature.starts(with: bytes) { throw .truncated(detail: "it ends inside the signature, after \(byteCountText(bytes.count))") }
            throw .notPNG(firstBytes: Array(bytes.prefix(8)))
        }
        var offset = signature.count
        var header: PNGImageHeader?
        while true {
            guard offset + 8 <= bytes.count else {
                let place = header == nil ? "before its IHDR chunk" : "before its IEND chunk"
                throw .truncated(detail: "it ends after \(byteCountText(bytes.count)), \(place)")
            }
            let length = Int(bigEndian32(bytes, at: offset))
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            guard length <= 0x7FFF_FFFF else { throw .malformed(detail: "chunk \(type) claims \(length) bytes, more than PNG allows") }
            if header == nil && type != "IHDR" { throw .malformed(detail: "the first chunk is \(type), not IHDR") }
            let end = offset + 8 + length + 4
            guard end <= bytes.count else {
                throw .truncated(detail: "it ends after \(byteCountText(bytes.count)), inside its \(type) chunk")
            }
            if type == "IHDR" {
                guard header == nil else { throw .malformed(detail: "it has a second IHDR chunk") }
                guard length == 13 else { throw .malformed(detail: "its IHDR chunk is \(byteCountText(length)), not 13") }
                let width = Int(bigEndian32(bytes, at: offset + 8))
                let height = Int(bigEndian32(bytes, at: offset + 12))
                guard width > 0, height > 0 else { throw .malformed(detail: "its IHDR gives a size of \(width) x \(height)") }
                header = PNGImageHeader(width: width, height: height)
            }
            offset = end
            if type == "IEND", let header { return header }
        }
    }

    private static func bigEndian32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
