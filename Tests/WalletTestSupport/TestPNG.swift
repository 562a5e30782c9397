import Foundation

/// Builds PNG files in memory for tests: whole valid images (signature, IHDR, IDAT holding a
/// zlib stream of stored (uncompressed) deflate blocks, IEND, each chunk with its CRC-32), or
/// just a header that a test can make wrong on purpose.
/// The images are 1-bit grayscale and all black, which keeps 1536 x 969 art near 190 KB.
public enum TestPNG {
    /// The eight bytes every PNG starts with.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A valid PNG of the given size.
    /// - Parameters:
    ///   - width: Pixels.
    ///   - height: Pixels.
    ///   - padding: Bytes of an extra private ancillary chunk (`prVt`), to make the file big.
    /// - Returns: The file's bytes.
    public static func make(width: Int, height: Int, padding: Int = 0) -> Data {
        let rowBytes = 1 + (width + 7) / 8  // filter byte + 1 bit per pixel
        let raw = [UInt8](repeating: 0, count: rowBytes * height)
        var header: [UInt8] = []
        header += bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [1, 0, 0, 0, 0]  // bit depth 1, grayscale, deflate, adaptive filtering, no interlace
        var png = signature
        png += chunk("IHDR", header)
        if padding > 0 { png += chunk("prVt", [UInt8](repeating: 0x55, count: padding)) }
        png += chunk("IDAT", zlibStored(raw))
        png += chunk("IEND", [])
        return Data(png)
    }

    /// The 1536 x 969 art Wallet wants.
    public static var walletArt: Data { make(width: 1536, height: 969) }

    /// Only the start of a PNG: the signature and a first chunk that should be `IHDR`, for
    /// header parsers. Every part can be made wrong on purpose.
    /// - Parameters:
    ///   - chunkType: The first chunk's type; a PNG needs `IHDR`.
    ///   - declaredLength: The first chunk's length field; `IHDR` is 13 bytes.
    /// - Returns: 33 bytes: signature, length, type, width, height, depth, color type,
    ///   compression, filter, interlace and the chunk's CRC-32.
    public static func header(width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colorType: UInt8 = 6,
                              chunkType: String = "IHDR", declaredLength: UInt32 = 13) -> Data {
        let body = bigEndian(width) + bigEndian(height) + [bitDepth, colorType, 0, 0, 0]
        let typeBytes = Array(chunkType.utf8)
        return Data(signature + bigEndian(declaredLength) + typeBytes + body + bigEndian(crc32(typeBytes + body)))
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        return bigEndian(UInt32(data.count)) + typeBytes + data + bigEndian(crc32(typeBytes + data))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// CRC-32 as PNG uses it (ISO 3309, reflected polynomial 0xEDB88320).
    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// A zlib stream of stored deflate blocks (at most 65535 bytes each) with its Adler-32.
    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let last: UInt8 = offset + length == data.count ? 1 : 0
            out += [last, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8 & 0xFF)]
            out += data[offset..<(offset + length)]
            offset += length
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(b << 16 | a)
    }
}
