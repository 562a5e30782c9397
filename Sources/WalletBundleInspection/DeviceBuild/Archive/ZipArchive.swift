import Foundation

/// A zip archive (an `.ipa`) read in memory: the central directory up front, each entry
/// inflated only when asked for, and never more than it declares.
///
/// Hostile archives get a sentence instead of a crash or an exhausted disk: a name with a
/// `..` component or an absolute name, the same name twice, entries whose bytes overlap
/// (the non-recursive zip bomb), a declared size far beyond what its compressed bytes
/// could honestly hold, and an entry that inflates past its declared size.
struct ZipArchive {
    /// One file or directory of the archive, as its central directory describes it.
    struct Entry: Equatable {
        var name: String
        var method: UInt16
        var flags: UInt16
        var checksum: UInt32
        var compressedSize: Int
        var uncompressedSize: Int
        var localHeaderOffset: Int
        /// Where the entry's bytes start, after its local header.
        var dataOffset: Int
        var isSymbolicLink: Bool

        var isDirectory: Bool { name.hasSuffix("/") }
        var isEncrypted: Bool { flags & 1 != 0 }
    }

    /// The bounds an archive is read within.
    struct Limits {
        /// More entries than this is refused outright (a real app has thousands, not millions).
        var maximumEntryCount = 200_000
        /// A declared size more than this many times the compressed size is taken for a zip bomb
        /// (deflate at its best compresses about 1,032 to 1).
        var maximumCompressionRatio = 1_032
        /// Entries smaller than this are never suspected of being bombs, whatever their ratio.
        var ratioExemptSize = 1_048_576
    }

    /// A whole-archive problem: the description completes "PATH ..." as a sentence.
    struct OpenError: Error, Equatable, CustomStringConvertible {
        var description: String
    }

    /// The archive's bytes.
    let data: Data
    /// The usable entries by name; a refused entry (bad name, bomb, overlap) is not here.
    private(set) var entries: [String: Entry] = [:]
    /// What was wrong with single entries, by entry name, in archive order.
    private(set) var entryProblems: [(name: String, problem: String)] = []

    private static let endOfCentralDirectorySignature: UInt32 = 0x0605_4b50
    private static let zip64LocatorSignature: UInt32 = 0x0706_4b50
    private static let centralHeaderSignature: UInt32 = 0x0201_4b50
    private static let localHeaderSignature: UInt32 = 0x0403_4b50

    /// Reads the central directory and checks every entry's name and placement.
    /// - Throws: ``OpenError`` when the bytes are not a zip archive this reader can read.
    init(data: Data, limits: Limits = Limits()) throws(OpenError) {
        self.data = data
        let end = try Self.endOfCentralDirectory(in: data)
        guard let entryCount = data.littleEndianUInt16(at: end + 10).map(Int.init),
              let directorySize = data.littleEndianUInt32(at: end + 12).map(Int.init),
              let directoryOffset = data.littleEndianUInt32(at: end + 16).map(Int.init),
              let disk = data.littleEndianUInt16(at: end + 4) else {
            throw OpenError(description: "has a truncated end-of-central-directory record")
        }
        if entryCount == 0xFFFF || directoryOffset == 0xFFFF_FFFF || directorySize == 0xFFFF_FFFF
            || data.littleEndianUInt32(at: end - 20) == Self.zip64LocatorSignature {
            throw OpenError(description: "is a ZIP64 archive, which validate does not read (archives over 4 GB or 65,535 entries)")
        }
        guard disk == 0 else { throw OpenError(description: "is split across several disks, which validate does not read") }
        guard entryCount <= limits.maximumEntryCount else {
            throw OpenError(description: "holds \(entryCount) entries, over the limit of \(limits.maximumEntryCount)")
        }
        guard directoryOffset <= end, directorySize <= end - directoryOffset else {
            throw OpenError(description: "has a central directory (\(directorySize) bytes at offset \(directoryOffset)) that does not fit in its \(data.count) bytes")
        }
        var ordered: [Entry] = []
        var offset = directoryOffset
        for index in 0..<entryCount {
            guard data.littleEndianUInt32(at: offset) == Self.centralHeaderSignature,
                  let parsed = Self.centralEntry(in: data, at: offset) else {
                throw OpenError(description: "has a damaged central directory at entry \(index + 1) of \(entryCount) (offset \(offset))")
            }
            offset = parsed.next
            ordered.append(parsed.entry)
        }
        accept(ordered, directoryOffset: directoryOffset, limits: limits)
    }

    /// Files the archive holds (not directories), by name.
    var fileNames: [String] { entries.values.filter { !$0.isDirectory }.map(\.name).sorted() }

    /// The entry's bytes, inflated and checked against its CRC-32.
    /// - Throws: ``BuildFileError`` when the entry is over `limit`, encrypted, a symbolic link,
    ///   stored with an unknown method, or its bytes are corrupt.
    func contents(of entry: Entry, limit: Int) throws(BuildFileError) -> Data {
        guard entry.uncompressedSize <= limit else {
            throw .tooLarge(byteCount: entry.uncompressedSize, limit: limit)
        }
        guard !entry.isSymbolicLink else { throw .unreadable("is a symbolic link inside the archive; iOS installs it as one, not as a file") }
        guard !entry.isEncrypted else { throw .unreadable("is encrypted; validate reads only unencrypted archives") }
        guard let compressed = data.bytes(at: entry.dataOffset, count: entry.compressedSize) else {
            throw .unreadable("has bytes past the end of the archive")
        }
        let contents: Data
        switch entry.method {
        case 0:
            guard entry.compressedSize == entry.uncompressedSize else {
                throw .unreadable("is stored uncompressed but declares \(entry.compressedSize) stored and \(entry.uncompressedSize) actual bytes")
            }
            contents = compressed
        case 8:
            do {
                contents = try Inflater.inflate(compressed, declaredSize: entry.uncompressedSize)
            } catch {
                throw .unreadable(error.description)
            }
        default:
            throw .unreadable("uses zip compression method \(entry.method); only stored (0) and deflated (8) entries are read")
        }
        guard Inflater.checksum(contents) == entry.checksum else {
            throw .unreadable("does not match its CRC-32; the archive is damaged")
        }
        return contents
    }

    private static func endOfCentralDirectory(in data: Data) throws(OpenError) -> Int {
        let minimumRecord = 22
        guard data.count >= minimumRecord else {
            throw OpenError(description: data.isEmpty ? "is empty, not a zip archive" : "is \(data.count) bytes, too short for a zip archive")
        }
        // The record ends the file, followed only by a comment of at most 65,535 bytes.
        let lowest = max(0, data.count - minimumRecord - 0xFFFF)
        var candidate = data.count - minimumRecord
        while candidate >= lowest {
            if data.littleEndianUInt32(at: candidate) == endOfCentralDirectorySignature,
               let commentLength = data.littleEndianUInt16(at: candidate + 20),
               candidate + minimumRecord + Int(commentLength) == data.count {
                return candidate
            }
            candidate -= 1
        }
        throw OpenError(description: "is not a zip archive (no end-of-central-directory record); an .ipa is a zip file")
    }

    private static func centralEntry(in data: Data, at offset: Int) -> (entry: Entry, next: Int)? {
        guard let madeBy = data.littleEndianUInt16(at: offset + 4),
              let flags = data.littleEndianUInt16(at: offset + 8),
              let method = data.littleEndianUInt16(at: offset + 10),
              let checksum = data.littleEndianUInt32(at: offset + 16),
              let compressedSize = data.littleEndianUInt32(at: offset + 20),
              let uncompressedSize = data.littleEndianUInt32(at: offset + 24),
              let nameLength = data.littleEndianUInt16(at: offset + 28),
              let extraLength = data.littleEndianUInt16(at: offset + 30),
              let commentLength = data.littleEndianUInt16(at: offset + 32),
              let externalAttributes = data.littleEndianUInt32(at: offset + 38),
              let localHeaderOffset = data.littleEndianUInt32(at: offset + 42),
              let nameBytes = data.bytes(at: offset + 46, count: Int(nameLength)) else { return nil }
        let unixMode = madeBy >> 8 == 3 ? externalAttributes >> 16 : 0
        let entry = Entry(
            name: String(decoding: nameBytes, as: UTF8.self), method: method, flags: flags, checksum: checksum,
            compressedSize: Int(compressedSize), uncompressedSize: Int(uncompressedSize),
            localHeaderOffset: Int(localHeaderOffset), dataOffset: 0,
            isSymbolicLink: unixMode & 0o170000 == 0o120000)
        return (entry, offset + 46 + Int(nameLength) + Int(extraLength) + Int(commentLength))
    }

    /// Keeps the entries whose name, size and placement are sound; records a problem for each other one.
    private mutating func accept(_ ordered: [Entry], directoryOffset: Int, limits: Limits) {
        var placed: [Entry] = []
        var seen: Set<String> = []
        for var entry in ordered {
            if let problem = Self.nameProblem(entry.name) {
                entryProblems.append((entry.name, problem))
                continue
            }
            guard seen.insert(entry.name).inserted else {
                entryProblems.append((entry.name, "appears more than once in the archive; which copy a device would install is undefined, so only the first was read"))
                continue
            }
            if entry.uncompressedSize > limits.ratioExemptSize,
               entry.uncompressedSize / max(entry.compressedSize, 1) > limits.maximumCompressionRatio {
                entryProblems.append((entry.name, "declares \(entry.uncompressedSize) bytes from \(entry.compressedSize) compressed ones, "
                                      + "more than deflate can honestly compress (over \(limits.maximumCompressionRatio) to 1): a zip bomb; it was not read"))
                continue
            }
            guard data.littleEndianUInt32(at: entry.localHeaderOffset) == Self.localHeaderSignature,
                  let nameLength = data.littleEndianUInt16(at: entry.localHeaderOffset + 26),
                  let extraLength = data.littleEndianUInt16(at: entry.localHeaderOffset + 28) else {
                entryProblems.append((entry.name, "has no local header at offset \(entry.localHeaderOffset); the archive is damaged"))
                continue
            }
            entry.dataOffset = entry.localHeaderOffset + 30 + Int(nameLength) + Int(extraLength)
            guard entry.dataOffset + entry.compressedSize <= directoryOffset else {
                entryProblems.append((entry.name, "has \(entry.compressedSize) bytes at offset \(entry.dataOffset), past the start of the central directory; the archive is damaged"))
                continue
            }
            placed.append(entry)
        }
        // Entries sharing bytes let a small archive inflate to many times its size.
        placed.sort { $0.localHeaderOffset < $1.localHeaderOffset }
        var previousEnd = 0
        var previousName = ""
        for entry in placed {
            if entry.localHeaderOffset < previousEnd {
                entryProblems.append((entry.name, "overlaps the bytes of \(previousName), the mark of a zip bomb; it was not read"))
                continue
            }
            previousEnd = entry.dataOffset + entry.compressedSize
            previousName = entry.name
            entries[entry.name] = entry
        }
    }

    /// Why a name cannot be installed as written, or nil when it can.
    static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "has an empty name" }
        if name.hasPrefix("/") { return "is an absolute path; entries must stay inside the archive" }
        if name.contains("\\") { return "contains a backslash, which zip names never use as a separator" }
        if name.unicodeScalars.contains(where: { $0.value == 0 }) { return "contains a NUL character" }
        let components = name.split(separator: "/", omittingEmptySubsequences: false)
        if components.contains("..") {
            return "has a \"..\" component and so would be written outside the folder it is unpacked into"
        }
        // A trailing "/" marks a directory; an empty or "." component anywhere else names the
        // same file two ways.
        if components.dropLast().contains(where: { $0.isEmpty || $0 == "." }) || components.last == "." {
            return "has an empty or \".\" path component, so it names a file in more than one way"
        }
        return nil
    }
}
