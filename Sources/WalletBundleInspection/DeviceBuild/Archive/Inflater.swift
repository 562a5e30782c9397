import CZlib
import Foundation

/// Raw deflate (zip method 8) through zlib, bounded by the size the archive declares.
enum Inflater {
    /// Why a deflate stream could not be inflated; the description completes "PATH ...".
    enum Failure: Error, Equatable, CustomStringConvertible {
        /// The stream produces more than it declared: a lie, and the way zip bombs get past size checks.
        case longerThanDeclared(declared: Int)
        /// The stream ends before the declared size.
        case shorterThanDeclared(produced: Int, declared: Int)
        /// zlib's own complaint about the bytes.
        case corrupt(String)

        var description: String {
            switch self {
            case .longerThanDeclared(let declared):
                "inflates past the \(declared) bytes its zip entry declares; it was not read further"
            case .shorterThanDeclared(let produced, let declared):
                "inflates to \(produced) bytes, not the \(declared) its zip entry declares"
            case .corrupt(let message):
                "is not valid deflate data (zlib: \(message))"
            }
        }
    }

    /// Inflates `compressed` into exactly `declaredSize` bytes.
    /// - Throws: ``Failure`` when the data is corrupt or inflates to any other size; at most
    ///   `declaredSize + 1` bytes are ever produced.
    static func inflate(_ compressed: Data, declaredSize: Int) throws(Failure) -> Data {
        var output = Data(count: declaredSize + 1)
        var stream = z_stream()
        guard czlib_inflate_init_raw(&stream) == Z_OK else { throw .corrupt("inflateInit2 failed") }
        defer { inflateEnd(&stream) }
        let result: (status: Int32, produced: Int) = compressed.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { buffer in
                stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = buffer.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(buffer.count)
                let status = CZlib.inflate(&stream, Z_FINISH)
                return (status, buffer.count - Int(stream.avail_out))
            }
        }
        if result.produced > declaredSize {
            throw .longerThanDeclared(declared: declaredSize)
        }
        switch result.status {
        case Z_STREAM_END:
            guard result.produced == declaredSize else {
                throw .shorterThanDeclared(produced: result.produced, declared: declaredSize)
            }
            output.removeLast()
            return output
        case Z_BUF_ERROR where stream.avail_in == 0:
            throw .shorterThanDeclared(produced: result.produced, declared: declaredSize)
        default:
            throw .corrupt(stream.msg.map { String(cString: $0) } ?? "error \(result.status)")
        }
    }

    /// zlib's CRC-32 of the bytes, as zip headers store it.
    static func checksum(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { bytes in
            UInt32(truncatingIfNeeded: crc32(0, bytes.bindMemory(to: Bytef.self).baseAddress, uInt(bytes.count)))
        }
    }
}
