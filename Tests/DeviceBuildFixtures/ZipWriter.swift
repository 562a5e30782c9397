import CZlib
import Foundation

/// Writes zip archives in memory, the way `.ipa` files are built, with the knobs hostile
/// archives need (lying sizes, shared bytes, any name at all).
public struct ZipWriter {
    /// One entry to write.
    public struct Entry {
        public var name: String
        public var contents: Data
        /// Deflate the contents (method 8) instead of storing them (method 0).
        public var deflated: Bool
        /// The Unix mode stored in the external attributes (0o100644 for files, 0o40755 for directories).
        public var unixMode: UInt32
        /// A size to declare instead of the real one, for archives that lie.
        public var declaredUncompressedSize: Int?
        /// A CRC-32 to declare instead of the real one.
        public var declaredChecksum: UInt32?
        /// Point the central directory at this earlier entry's bytes instead of writing new ones
        /// (how non-recursive zip bombs make many entries of one set of bytes).
        public var sharesBytesWith: String?

        public init(name: String, contents: Data, deflated: Bool = true, unixMode: UInt32 = 0o100644,
                    declaredUncompressedSize: Int? = nil, declaredChecksum: UInt32? = nil, sharesBytesWith: String? = nil) {
            self.name = name
            self.contents = contents
            self.deflated = deflated
            self.unixMode = unixMode
            self.declaredUncompressedSize = declaredUncompressedSize
            self.declaredChecksum = declaredChecksum
            self.sharesBytesWith = sharesBytesWith
        }
    }

    public var entries: [Entry] = []

    /// 1 January 2026, 00:00, in MS-DOS form (time in the low half): fixed, so archives are reproducible.
    static let dosTimeAndDate: UInt32 = UInt32((2026 - 1980) << 9 | 1 << 5 | 1) << 16

    public init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// Adds a file.
    public mutating func add(_ name: String, _ contents: Data, deflated: Bool = true) {
        entries.append(Entry(name: name, contents: contents, deflated: deflated))
    }

    /// The archive's bytes: local headers with the data, the central directory, the end record.
    public func archive() -> Data {
        var body = Data()
        var central = Data()
        var written: [String: (offset: Int, compressedSize: Int)] = [:]
        for entry in entries {
            let compressed = entry.deflated ? Self.deflate(entry.contents) : entry.contents
            let checksum = entry.declaredChecksum ?? Self.checksum(entry.contents)
            let size = entry.declaredUncompressedSize ?? entry.contents.count
            let method: UInt16 = entry.deflated ? 8 : 0
            let name = Data(entry.name.utf8)
            let placement: (offset: Int, compressedSize: Int)
            if let shared = entry.sharesBytesWith, let earlier = written[shared] {
                placement = earlier
            } else {
                placement = (body.count, compressed.count)
                body.appendLittleEndian(UInt32(0x0403_4b50))
                body.append(Self.sharedHeaderFields(method: method, checksum: checksum, compressedSize: compressed.count, size: size, nameLength: name.count))
                body.append(name)
                body.append(compressed)
            }
            written[entry.name] = placement
            central.appendLittleEndian(UInt32(0x0201_4b50))
            central.appendLittleEndian(UInt16(0x0314))  // made by Unix, version 2.0
            central.append(Self.sharedHeaderFields(method: method, checksum: checksum, compressedSize: placement.compressedSize, size: size, nameLength: name.count))
            central.appendLittleEndian(UInt16(0))
            central.appendLittleEndian(UInt16(0))
            central.appendLittleEndian(UInt16(0))
            central.appendLittleEndian(entry.unixMode << 16)
            central.appendLittleEndian(UInt32(placement.offset))
            central.append(name)
        }
        var archive = body
        archive.append(central)
        archive.appendLittleEndian(UInt32(0x0605_4b50))
        archive.appendLittleEndian(UInt16(0))
        archive.appendLittleEndian(UInt16(0))
        archive.appendLittleEndian(UInt16(entries.count))
        archive.appendLittleEndian(UInt16(entries.count))
        archive.appendLittleEndian(UInt32(central.count))
        archive.appendLittleEndian(UInt32(body.count))
        archive.appendLittleEndian(UInt16(0))
        return archive
    }

    /// The fields local and central headers share: version needed, flags, method, time and date,
    /// CRC-32, both sizes, name length and an empty extra field.
    private static func sharedHeaderFields(method: UInt16, checksum: UInt32, compressedSize: Int, size: Int, nameLength: Int) -> Data {
        var fields = Data()
        fields.appendLittleEndian(UInt16(20))
        fields.appendLittleEndian(UInt16(0))
        fields.appendLittleEndian(method)
        fields.appendLittleEndian(dosTimeAndDate)
        fields.appendLittleEndian(checksum)
        fields.appendLittleEndian(UInt32(compressedSize))
        fields.appendLittleEndian(UInt32(truncatingIfNeeded: size))
        fields.appendLittleEndian(UInt16(nameLength))
        fields.appendLittleEndian(UInt16(0))
        return fields
    }

    /// Raw deflate at the best compression, as zip method 8 stores it.
    public static func deflate(_ data: Data) -> Data {
        var stream = z_stream()
        precondition(czlib_deflate_init_raw(&stream, 9) == Z_OK)
        defer { deflateEnd(&stream) }
        var output = Data(count: Int(deflateBound(&stream, uLong(data.count))) + 16)
        let produced: Int = data.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { buffer in
                stream.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = buffer.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(buffer.count)
                precondition(CZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END)
                return buffer.count - Int(stream.avail_out)
            }
        }
        return output.prefix(produced)
    }

    /// CRC-32 as zip stores it.
    public static func checksum(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { UInt32(truncatingIfNeeded: crc32(0, $0.bindMemory(to: Bytef.self).baseAddress, uInt($0.count))) }
    }
}

extension Data {
    mutating func appendLittleEndian<Integer: FixedWidthInteger>(_ value: Integer) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }

    mutating func appendBigEndian<Integer: FixedWidthInteger>(_ value: Integer) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }
}
