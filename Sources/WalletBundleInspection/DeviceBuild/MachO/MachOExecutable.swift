import Foundation

/// What validate needs from a Mach-O executable, thin or universal: each architecture with its
/// embedded code signature and the names of the symbols it defines.
struct MachOExecutable {
    /// One architecture of the executable.
    struct Slice {
        var cpuType: UInt32
        var cpuSubtype: UInt32
        /// The signature `LC_CODE_SIGNATURE` points at, nil when the slice is unsigned.
        var signature: CodeSignature?
        /// The names of symbols defined in the slice (`_OBJC_CLASS_$_...`), nil when the symbol
        /// table was stripped to what dyld needs.
        var definedSymbols: Set<String>?

        /// `arm64`, `arm64e`, `x86_64`, or the CPU type in hex.
        var architectureName: String {
            switch (cpuType, cpuSubtype & 0x00FF_FFFF) {
            case (MachOExecutable.cpuTypeARM64, 2): "arm64e"
            case (MachOExecutable.cpuTypeARM64, _): "arm64"
            case (0x0100_0007, _): "x86_64"
            case (12, _): "arm"
            case (7, _): "i386"
            default: "CPU type 0x\(String(cpuType, radix: 16))"
            }
        }
    }

    static let cpuTypeARM64: UInt32 = 0x0100_000C
    private static let loadCommandCodeSignature: UInt32 = 0x1D
    private static let loadCommandSymbolTable: UInt32 = 0x2
    /// The most symbols read from one slice; beyond this the table is taken for a lie.
    static let maximumSymbolCount = 5_000_000

    /// The architectures, in file order.
    var slices: [Slice]
    /// Whether the file is universal (a fat header listing slices).
    var isUniversal: Bool

    /// The slice an iPhone runs: arm64e when present, else arm64.
    var deviceSlice: Slice? {
        slices.first { $0.architectureName == "arm64e" } ?? slices.first { $0.cpuType == Self.cpuTypeARM64 }
    }

    /// Whether the first bytes are a Mach-O or universal magic number.
    static func hasMachOMagic(_ data: Data) -> Bool {
        guard let magic = data.bigEndianUInt32(at: 0) else { return false }
        return [0xFEED_FACE, 0xFEED_FACF, 0xCEFA_EDFE, 0xCFFA_EDFE, 0xCAFE_BABE, 0xCAFE_BABF].contains(magic)
    }

    /// Parses the headers, load commands, code signatures and symbol tables.
    /// - Throws: ``MachOFormatError`` naming the first structure that does not fit in the file.
    init(data: Data) throws(MachOFormatError) {
        guard let magic = data.bigEndianUInt32(at: 0) else {
            throw MachOFormatError("is \(data.count) bytes, too short for a Mach-O header")
        }
        switch magic {
        case 0xCAFE_BABE, 0xCAFE_BABF:
            isUniversal = true
            slices = try Self.universalSlices(data, wide: magic == 0xCAFE_BABF)
        case 0xCFFA_EDFE, 0xCEFA_EDFE:
            isUniversal = false
            slices = [try Self.slice(data, description: "")]
        case 0xFEED_FACF, 0xFEED_FACE:
            throw MachOFormatError("is a big-endian Mach-O binary, which no iPhone runs")
        default:
            throw MachOFormatError("is not a Mach-O binary (it starts with 0x\(String(magic, radix: 16, uppercase: false))); an iOS executable is")
        }
    }

    private static func universalSlices(_ data: Data, wide: Bool) throws(MachOFormatError) -> [Slice] {
        guard let count = data.bigEndianUInt32(at: 4).map(Int.init) else {
            throw MachOFormatError("has a truncated universal header")
        }
        let entrySize = wide ? 32 : 20
        guard count > 0, count <= (data.count - 8) / entrySize, count <= 64 else {
            throw MachOFormatError("has a universal header listing \(count) architectures, which its \(data.count) bytes cannot hold")
        }
        var slices: [Slice] = []
        for index in 0..<count {
            let entry = 8 + index * entrySize
            let offset = wide ? data.bigEndianUInt64(at: entry + 8).map(Int.init) : data.bigEndianUInt32(at: entry + 8).map(Int.init)
            let size = wide ? data.bigEndianUInt64(at: entry + 16).map(Int.init) : data.bigEndianUInt32(at: entry + 12).map(Int.init)
            guard let offset, let size, let bytes = data.bytes(at: offset, count: size) else {
                throw MachOFormatError("has architecture \(index + 1) of \(count) outside the file")
            }
            slices.append(try slice(bytes, description: " (architecture \(index + 1) of \(count))"))
        }
        return slices
    }

    private static func slice(_ data: Data, description: String) throws(MachOFormatError) -> Slice {
        guard let magic = data.littleEndianUInt32(at: 0), magic == 0xFEED_FACF || magic == 0xFEED_FACE else {
            throw MachOFormatError("has no Mach-O header\(description)")
        }
        let is64Bit = magic == 0xFEED_FACF
        guard let cpuType = data.littleEndianUInt32(at: 4), let cpuSubtype = data.littleEndianUInt32(at: 8),
              let commandCount = data.littleEndianUInt32(at: 16).map(Int.init),
              let commandsSize = data.littleEndianUInt32(at: 20).map(Int.init) else {
            throw MachOFormatError("has a truncated Mach-O header\(description)")
        }
        let headerSize = is64Bit ? 32 : 28
        guard commandsSize <= data.count - headerSize else {
            throw MachOFormatError("declares \(commandsSize) bytes of load commands, more than the file holds\(description)")
        }
        var slice = Slice(cpuType: cpuType, cpuSubtype: cpuSubtype, signature: nil, definedSymbols: nil)
        var offset = headerSize
        let end = headerSize + commandsSize
        for index in 0..<commandCount {
            guard let command = data.littleEndianUInt32(at: offset),
                  let size = data.littleEndianUInt32(at: offset + 4).map(Int.init),
                  size >= 8, offset + size <= end else {
                throw MachOFormatError("has load command \(index + 1) of \(commandCount) running past the load commands\(description)")
            }
            switch command {
            case loadCommandCodeSignature:
                guard size >= 16, let dataOffset = data.littleEndianUInt32(at: offset + 8).map(Int.init),
                      let dataSize = data.littleEndianUInt32(at: offset + 12).map(Int.init),
                      let blob = data.bytes(at: dataOffset, count: dataSize) else {
                    throw MachOFormatError("has an LC_CODE_SIGNATURE pointing outside the file\(description)")
                }
                do {
                    slice.signature = try CodeSignature(superBlob: blob)
                } catch {
                    throw MachOFormatError(error.description + description)
                }
            case loadCommandSymbolTable:
                guard size >= 24 else { throw MachOFormatError("has a truncated LC_SYMTAB\(description)") }
                slice.definedSymbols = try definedSymbols(data, command: offset, is64Bit: is64Bit, description: description)
            default:
                break
            }
            offset += size
        }
        return slice
    }

    /// Names of the symbols defined in a section, or nil when only dyld's `__mh_execute_header` is left.
    private static func definedSymbols(_ data: Data, command: Int, is64Bit: Bool, description: String) throws(MachOFormatError) -> Set<String>? {
        guard let symbolOffset = data.littleEndianUInt32(at: command + 8).map(Int.init),
              let symbolCount = data.littleEndianUInt32(at: command + 12).map(Int.init),
              let stringOffset = data.littleEndianUInt32(at: command + 16).map(Int.init),
              let stringSize = data.littleEndianUInt32(at: command + 20).map(Int.init) else {
            throw MachOFormatError("has a truncated LC_SYMTAB\(description)")
        }
        let entrySize = is64Bit ? 16 : 12
        guard symbolCount <= maximumSymbolCount,
              let table = data.bytes(at: symbolOffset, count: symbolCount * entrySize),
              let strings = data.bytes(at: stringOffset, count: stringSize) else {
            throw MachOFormatError("has a symbol table (LC_SYMTAB) outside the file\(description)")
        }
        var names: Set<String> = []
        for index in 0..<symbolCount {
            guard let nameOffset = table.littleEndianUInt32(at: index * entrySize).map(Int.init),
                  let type = table.bytes(at: index * entrySize + 4, count: 1)?.first else { continue }
            // Defined in a section (N_SECT) and not a debugger entry (N_STAB).
            guard type & 0xE0 == 0, type & 0x0E == 0x0E, nameOffset < strings.count else { continue }
            let start = strings.startIndex + nameOffset
            let end = strings[start...].firstIndex(of: 0) ?? strings.endIndex
            names.insert(String(decoding: strings[start..<end], as: UTF8.self))
        }
        names.remove("__mh_execute_header")
        return names.isEmpty ? nil : names
    }
}
