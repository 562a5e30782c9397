import Foundation

/// Writes 8-bit PNG files from raw pixels: one `IDAT` compressed with ``Deflate``, filter
/// type 0 on every row. Enough for card art drawn in code (large flat areas compress well).
package enum PNGEncoder {
    /// PNG color types this encoder writes.
    package enum ColorType: UInt8, Sendable {
        case gray = 0
        case rgb = 2
        case rgba = 6

        /// Bytes per pixel at 8 bits per sample.
        package var bytesPerPixel: Int {
            switch self {
            case .gray: return 1
            case .rgb: return 3
            case .rgba: return 4
            }
        }
    }

    /// The PNG file for `pixels`, rows top to bottom, `width * colorType.bytesPerPixel` bytes each.
    package static func encode(width: Int, height: Int, colorType: ColorType, pixels: [UInt8]) -> Data {
        let rowBytes = width * colorType.bytesPerPixel
        precondition(pixels.count == rowBytes * height, "PNGEncoder: \(pixels.count) bytes for \(width) x \(height)")
        var scanlines = [UInt8]()
        scanlines.reserveCapacity((rowBytes + 1) * height)
        for row in 0..<height {
            scanlines.append(0) // filter type None
            scanlines.append(contentsOf: pixels[row * rowBytes..<(row + 1) * rowBytes])
        }
        var file = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = [UInt8]()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [8, colorType.rawValue, 0, 0, 0])
        appendChunk("IHDR", header, to: &file)
        appendChunk("IDAT", Deflate.zlibCompress(scanlines), to: &file)
        appendChunk("IEND", [], to: &file)
        return file
    }

    private static func appendChunk(_ type: String, _ body: [UInt8], to file: inout Data) {
        var chunk = [UInt8]()
        chunk.appendBigEndian(UInt32(body.count))
        let typeAndBody = Array(type.utf8) + body
        chunk.append(contentsOf: typeAndBody)
        chunk.appendBigEndian(CRC32.checksum(typeAndBody))
        file.append(contentsOf: chunk)
    }
}

/// CRC-32 as PNG chunks use it (polynomial 0xEDB88320).
package enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    package static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}

/// A small DEFLATE compressor (RFC 1951): greedy LZ77 matching with one candidate per 3-byte
/// hash, coded with the fixed Huffman table, wrapped in a zlib stream (RFC 1950).
package enum Deflate {
    private static let lengthBases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99,
                                      115, 131, 163, 195, 227, 258]
    private static let lengthExtraBits = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBases = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025,
                                        1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtraBits = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11,
                                            12, 12, 13, 13]

    /// `bytes` as a zlib stream: header, one final fixed-Huffman block, Adler-32.
    package static func zlibCompress(_ bytes: [UInt8]) -> [UInt8] {
        var writer = BitWriter()
        writer.bytes = [0x78, 0x01]
        writer.write(1, bitCount: 1) // final block
        writer.write(1, bitCount: 2) // fixed Huffman codes
        let windowSize = 32768
        let hashSize = 1 << 15
        var lastPosition = [Int](repeating: -1, count: hashSize)
        var position = 0
        while position < bytes.count {
            var matchLength = 0
            var matchDistance = 0
            if position + 2 < bytes.count {
                let hash = (Int(bytes[position]) << 10 ^ Int(bytes[position + 1]) << 5 ^ Int(bytes[position + 2])) & (hashSize - 1)
                let candidate = lastPosition[hash]
                lastPosition[hash] = position
                if candidate >= 0, position - candidate <= windowSize {
                    let limit = min(258, bytes.count - position)
                    var length = 0
                    while length < limit, bytes[candidate + length] == bytes[position + length] { length += 1 }
                    if length >= 3 {
                        matchLength = length
                        matchDistance = position - candidate
                    }
                }
            }
            if matchLength >= 3 {
                writeLength(matchLength, to: &writer)
                writeDistance(matchDistance, to: &writer)
                position += matchLength
            } else {
                writeLiteral(Int(bytes[position]), to: &writer)
                position += 1
            }
        }
        writeLiteral(256, to: &writer) // end of block
        writer.flush()
        writer.bytes.appendBigEndian(adler32(bytes))
        return writer.bytes
    }

    /// A literal byte or the end-of-block code (0...287) with its fixed Huffman code.
    private static func writeLiteral(_ symbol: Int, to writer: inout BitWriter) {
        switch symbol {
        case 0...143: writer.writeHuffman(0x30 + symbol, bitCount: 8)
        case 144...255: writer.writeHuffman(0x190 + symbol - 144, bitCount: 9)
        case 256...279: writer.writeHuffman(symbol - 256, bitCount: 7)
        default: writer.writeHuffman(0xC0 + symbol - 280, bitCount: 8)
        }
    }

    private static func writeLength(_ length: Int, to writer: inout BitWriter) {
        var index = lengthBases.count - 1
        while lengthBases[index] > length { index -= 1 }
        writeLiteral(257 + index, to: &writer)
        writer.write(length - lengthBases[index], bitCount: lengthExtraBits[index])
    }

    private static func writeDistance(_ distance: Int, to writer: inout BitWriter) {
        var index = distanceBases.count - 1
        while distanceBases[index] > distance { index -= 1 }
        writer.writeHuffman(index, bitCount: 5)
        writer.write(distance - distanceBases[index], bitCount: distanceExtraBits[index])
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        var index = 0
        while index < bytes.count {
            // 5552 bytes keep the sums below 2^32 before the modulo.
            let end = min(index + 5552, bytes.count)
            while index < end {
                a += UInt32(bytes[index])
                b += a
                index += 1
            }
            a %= 65521
            b %= 65521
        }
        return b << 16 | a
    }
}

/// Packs bits least-significant first, as DEFLATE does.
private struct BitWriter {
    var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var bufferedBits = 0

    /// Writes `value`'s low `bitCount` bits, least significant first (extra bits, headers).
    mutating func write(_ value: Int, bitCount: Int) {
        guard bitCount > 0 else { return }
        buffer |= UInt64(value) << UInt64(bufferedBits)
        bufferedBits += bitCount
        while bufferedBits >= 8 {
            bytes.append(UInt8(buffer & 0xFF))
            buffer >>= 8
            bufferedBits -= 8
        }
    }

    /// Writes a Huffman code, which DEFLATE stores most significant bit first.
    mutating func writeHuffman(_ code: Int, bitCount: Int) {
        var reversed = 0
        for bit in 0..<bitCount where code & (1 << bit) != 0 { reversed |= 1 << (bitCount - 1 - bit) }
        write(reversed, bitCount: bitCount)
    }

    mutating func flush() {
        if bufferedBits > 0 { bytes.append(UInt8(buffer & 0xFF)) }
        buffer = 0
        bufferedBits = 0
    }
}

extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
