import Foundation

/// Builds small but well-formed Mach-O executables: a header, `LC_SYMTAB` with its symbols,
/// and `LC_CODE_SIGNATURE` pointing at an embedded signature SuperBlob, thin or universal.
public struct MachOBuilder {
    /// How the slice is signed.
    public enum Signature {
        /// No `LC_CODE_SIGNATURE` at all.
        case unsigned
        /// A CodeDirectory and the entitlements as XML (`0xfade7171`) and DER (`0xfade7172`) blobs.
        case entitlements(Data)
        /// A CodeDirectory and DER entitlements only.
        case derEntitlementsOnly
        /// A CodeDirectory and no entitlements.
        case noEntitlements
        /// These exact bytes where the SuperBlob belongs.
        case rawSuperBlob(Data)
    }

    public static let cpuTypeARM64: UInt32 = 0x0100_000C
    public static let cpuTypeX86_64: UInt32 = 0x0100_0007

    public var cpuType: UInt32
    public var signature: Signature
    /// Symbols defined in a section (`_OBJC_CLASS_$_...`); empty makes a stripped binary.
    public var definedSymbols: [String]

    public init(cpuType: UInt32 = MachOBuilder.cpuTypeARM64, signature: Signature, definedSymbols: [String] = []) {
        self.cpuType = cpuType
        self.signature = signature
        self.definedSymbols = definedSymbols
    }

    /// One thin 64-bit slice.
    public func thin() -> Data {
        let symbols = ["__mh_execute_header"] + definedSymbols
        var strings = Data([0x20, 0])
        var table = Data()
        for symbol in symbols {
            table.appendLittleEndian(UInt32(strings.count))
            table.append(0x0F)  // N_SECT | N_EXT
            table.append(1)
            table.appendLittleEndian(UInt16(0))
            table.appendLittleEndian(UInt64(0x1_0000_0000))
            strings.append(Data(symbol.utf8))
            strings.append(0)
        }
        let superBlob = signatureBlob()
        let commandCount: UInt32 = superBlob == nil ? 1 : 2
        let commandsSize: UInt32 = superBlob == nil ? 24 : 40
        let headerSize = 32
        let symbolOffset = headerSize + Int(commandsSize) + 64  // some padding where code would be
        let stringOffset = symbolOffset + table.count
        let signatureOffset = (stringOffset + strings.count + 15) & ~15

        var data = Data()
        data.appendLittleEndian(UInt32(0xFEED_FACF))
        data.appendLittleEndian(cpuType)
        data.appendLittleEndian(UInt32(0))
        data.appendLittleEndian(UInt32(2))  // MH_EXECUTE
        data.appendLittleEndian(commandCount)
        data.appendLittleEndian(commandsSize)
        data.appendLittleEndian(UInt32(0x0020_0085))
        data.appendLittleEndian(UInt32(0))
        data.appendLittleEndian(UInt32(0x2))  // LC_SYMTAB
        data.appendLittleEndian(UInt32(24))
        data.appendLittleEndian(UInt32(symbolOffset))
        data.appendLittleEndian(UInt32(symbols.count))
        data.appendLittleEndian(UInt32(stringOffset))
        data.appendLittleEndian(UInt32(strings.count))
        if let superBlob {
            data.appendLittleEndian(UInt32(0x1D))  // LC_CODE_SIGNATURE
            data.appendLittleEndian(UInt32(16))
            data.appendLittleEndian(UInt32(signatureOffset))
            data.appendLittleEndian(UInt32(superBlob.count))
        }
        data.append(Data(count: symbolOffset - data.count))
        data.append(table)
        data.append(strings)
        if let superBlob {
            data.append(Data(count: signatureOffset - data.count))
            data.append(superBlob)
        }
        return data
    }

    /// A universal binary holding the slices, each aligned to 16 KiB as Xcode aligns them.
    public static func universal(_ slices: [MachOBuilder]) -> Data {
        let alignment = 1 << 14
        var header = Data()
        header.appendBigEndian(UInt32(0xCAFE_BABE))
        header.appendBigEndian(UInt32(slices.count))
        var body = Data()
        var offset = alignment
        for slice in slices {
            let bytes = slice.thin()
            header.appendBigEndian(slice.cpuType)
            header.appendBigEndian(UInt32(0))
            header.appendBigEndian(UInt32(offset))
            header.appendBigEndian(UInt32(bytes.count))
            header.appendBigEndian(UInt32(14))
            body.append(bytes)
            let padded = (bytes.count + alignment - 1) / alignment * alignment
            body.append(Data(count: padded - bytes.count))
            offset += padded
        }
        return header + Data(count: alignment - header.count) + body
    }

    private func signatureBlob() -> Data? {
        let codeDirectory = Self.blob(0xfade_0c02, Data(count: 80))
        let derBlob = Self.blob(0xfade_7172, Data([0x70, 0x03, 0x02, 0x01, 0x01]))
        let blobs: [(type: UInt32, data: Data)]
        switch signature {
        case .unsigned: return nil
        case .rawSuperBlob(let bytes): return bytes
        case .entitlements(let plist): blobs = [(0, codeDirectory), (5, Self.blob(0xfade_7171, plist)), (7, derBlob)]
        case .derEntitlementsOnly: blobs = [(0, codeDirectory), (7, derBlob)]
        case .noEntitlements: blobs = [(0, codeDirectory)]
        }
        var index = Data()
        var payload = Data()
        let headerSize = 12 + 8 * blobs.count
        for (type, blob) in blobs {
            index.appendBigEndian(type)
            index.appendBigEndian(UInt32(headerSize + payload.count))
            payload.append(blob)
        }
        var superBlob = Data()
        superBlob.appendBigEndian(UInt32(0xfade_0cc0))
        superBlob.appendBigEndian(UInt32(headerSize + payload.count))
        superBlob.appendBigEndian(UInt32(blobs.count))
        return superBlob + index + payload
    }

    /// A code signature blob: magic, length (header included), payload.
    public static func blob(_ magic: UInt32, _ payload: Data) -> Data {
        var data = Data()
        data.appendBigEndian(magic)
        data.appendBigEndian(UInt32(8 + payload.count))
        return data + payload
    }
}
