import Foundation

/// Bounds-checked fixed-width integers read out of untrusted bytes (zip headers, Mach-O load
/// commands, code signature blobs). Offsets count from the start of the data, whatever its
/// indices; a field that does not fit gives nil, never a trap.
extension Data {
    func littleEndianUInt16(at offset: Int) -> UInt16? {
        field(at: offset, width: 2).map { UInt16(truncatingIfNeeded: $0) }
    }

    func littleEndianUInt32(at offset: Int) -> UInt32? {
        field(at: offset, width: 4).map { UInt32(truncatingIfNeeded: $0) }
    }

    func littleEndianUInt64(at offset: Int) -> UInt64? {
        field(at: offset, width: 8)
    }

    func bigEndianUInt32(at offset: Int) -> UInt32? {
        field(at: offset, width: 4, bigEndian: true).map { UInt32(truncatingIfNeeded: $0) }
    }

    func bigEndianUInt64(at offset: Int) -> UInt64? {
        field(at: offset, width: 8, bigEndian: true)
    }

    /// `count` bytes from `offset`, or nil when they are not all there. The bytes are a slice
    /// sharing this data's storage (no copy of a mapped archive or a large executable); every
    /// reader here counts offsets from a slice's own start.
    func bytes(at offset: Int, count: Int) -> Data? {
        guard offset >= 0, count >= 0, offset <= self.count, count <= self.count - offset else { return nil }
        return self[(startIndex + offset)..<(startIndex + offset + count)]
    }

    private func field(at offset: Int, width: Int, bigEndian: Bool = false) -> UInt64? {
        guard offset >= 0, offset <= count - width else { return nil }
        var value: UInt64 = 0
        for index in 0..<width {
            let byte = UInt64(self[startIndex + offset + index])
            value |= bigEndian ? byte << (8 * UInt64(width - 1 - index)) : byte << (8 * UInt64(index))
        }
        return value
    }
}
