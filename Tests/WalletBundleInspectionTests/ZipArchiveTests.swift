import DeviceBuildFixtures
import Foundation
import Testing
@testable import WalletBundleInspection

/// The `.ipa` reader on archives made in code: honest ones read back byte for byte, hostile
/// ones (bombs, `..` names, duplicates, shared bytes, lies) give one clear sentence each.
@Suite("zip archive reader")
struct ZipArchiveTests {
    static func archive(_ entries: [ZipWriter.Entry]) throws -> ZipArchive {
        try ZipArchive(data: ZipWriter(entries: entries).archive())
    }

    static func problem(of name: String, in archive: ZipArchive) -> String? {
        archive.entryProblems.first { $0.name == name }?.problem
    }

    @Test func storedAndDeflatedEntriesReadBack() throws {
        let text = Data(String(repeating: "Wallet issuer extension. ", count: 200).utf8)
        let zip = try Self.archive([
            .init(name: "Payload/", contents: Data(), deflated: false, unixMode: 0o40755),
            .init(name: "Payload/A.app/stored", contents: text, deflated: false),
            .init(name: "Payload/A.app/deflated", contents: text),
            .init(name: "Payload/A.app/empty", contents: Data()),
        ])
        #expect(zip.entryProblems.isEmpty)
        #expect(zip.fileNames == ["Payload/A.app/deflated", "Payload/A.app/empty", "Payload/A.app/stored"])
        #expect(try zip.contents(of: zip.entries["Payload/A.app/stored"]!, limit: 1 << 20) == text)
        #expect(try zip.contents(of: zip.entries["Payload/A.app/deflated"]!, limit: 1 << 20) == text)
        #expect(try zip.contents(of: zip.entries["Payload/A.app/empty"]!, limit: 1 << 20) == Data())
        #expect(zip.entries["Payload/A.app/deflated"]!.compressedSize < text.count / 10)
        let tree = ZipFileTree(archivePath: "/x/A.ipa", archive: zip)
        #expect(tree.childNames(of: "") == ["Payload"])
        #expect(tree.childNames(of: "Payload/A.app") == ["deflated", "empty", "stored"])
        #expect(tree.isDirectory("Payload/A.app") && !tree.isFile("Payload/A.app") && tree.isFile("Payload/A.app/stored"))
        #expect(tree.displayPath("Payload/A.app/stored") == "/x/A.ipa/Payload/A.app/stored")
        #expect(throws: BuildFileError.missing) { try tree.read("Payload/A.app/none", limit: 10) }
    }

    @Test("a real zip bomb is refused by the reader's limit before a byte is inflated")
    func realBombStopsAtTheLimit() throws {
        let zeros = Data(count: 64 << 20)
        let zip = try Self.archive([.init(name: "Payload/A.app/Info.plist", contents: zeros)])
        let entry = try #require(zip.entries["Payload/A.app/Info.plist"])
        #expect(entry.compressedSize < 100_000)
        #expect(throws: BuildFileError.tooLarge(byteCount: 64 << 20, limit: 1 << 20)) {
            try zip.contents(of: entry, limit: 1 << 20)
        }
    }

    @Test("a declared size no deflate stream can reach is refused as a bomb")
    func impossibleRatioIsABomb() throws {
        let zip = try Self.archive([.init(name: "big", contents: Data(count: 100), declaredUncompressedSize: 3_000_000_000)])
        #expect(zip.entries["big"] == nil)
        #expect(Self.problem(of: "big", in: zip)?.contains("a zip bomb") == true)
    }

    @Test("an entry that inflates past its declared size stops there")
    func inflatingPastTheDeclaredSize() throws {
        let zip = try Self.archive([.init(name: "liar", contents: Data(count: 50_000), declaredUncompressedSize: 1_000)])
        let entry = try #require(zip.entries["liar"])
        #expect(throws: BuildFileError.unreadable("inflates past the 1000 bytes its zip entry declares; it was not read further")) {
            try zip.contents(of: entry, limit: 1 << 20)
        }
    }

    @Test("entries sharing bytes (the non-recursive zip bomb) are refused")
    func overlappingEntries() throws {
        let zip = try Self.archive([
            .init(name: "a", contents: Data(count: 10_000)),
            .init(name: "b", contents: Data(count: 10_000), sharesBytesWith: "a"),
        ])
        #expect(zip.entries["a"] != nil)
        #expect(zip.entries["b"] == nil)
        #expect(Self.problem(of: "b", in: zip) == "overlaps the bytes of a, the mark of a zip bomb; it was not read")
    }

    @Test("names that leave the archive are refused", arguments: [
        ("Payload/../../etc/passwd", "has a \"..\" component"),
        ("/etc/passwd", "is an absolute path"),
        ("Payload\\A.app\\Info.plist", "contains a backslash"),
        ("..", "has a \"..\" component"),
        ("Payload//A.app/Info.plist", "has an empty or \".\" path component"),
        ("Payload/./A.app/Info.plist", "has an empty or \".\" path component"),
    ])
    func escapingNames(name: String, problem: String) throws {
        let zip = try Self.archive([.init(name: name, contents: Data("x".utf8))])
        #expect(zip.entries.isEmpty)
        #expect(Self.problem(of: name, in: zip)?.contains(problem) == true)
    }

    @Test func duplicateNamesKeepTheFirst() throws {
        let zip = try Self.archive([
            .init(name: "Payload/A.app/Info.plist", contents: Data("first".utf8)),
            .init(name: "Payload/A.app/Info.plist", contents: Data("second".utf8)),
        ])
        #expect(try zip.contents(of: zip.entries["Payload/A.app/Info.plist"]!, limit: 100) == Data("first".utf8))
        #expect(Self.problem(of: "Payload/A.app/Info.plist", in: zip)?.contains("appears more than once") == true)
    }

    @Test func checksumMismatchIsDamage() throws {
        let zip = try Self.archive([.init(name: "x", contents: Data("abc".utf8), declaredChecksum: 1)])
        #expect(throws: BuildFileError.unreadable("does not match its CRC-32; the archive is damaged")) {
            try zip.contents(of: zip.entries["x"]!, limit: 100)
        }
    }

    @Test func corruptDeflateData() throws {
        var data = ZipWriter(entries: [.init(name: "x", contents: Data(String(repeating: "abc", count: 500).utf8))]).archive()
        data[30 + 1] = 0xFF  // the first bytes of the deflate stream
        data[30 + 2] = 0xFF
        let zip = try ZipArchive(data: data)
        #expect {
            try zip.contents(of: zip.entries["x"]!, limit: 1 << 20)
        } throws: { error in
            "\(error)".contains("deflate") || "\(error)".contains("CRC-32") || "\(error)".contains("inflates")
        }
    }

    @Test func symbolicLinkEntriesAreNotFollowed() throws {
        let zip = try Self.archive([.init(name: "link", contents: Data("/etc/passwd".utf8), deflated: false, unixMode: 0o120777)])
        #expect(throws: BuildFileError.unreadable("is a symbolic link inside the archive; iOS installs it as one, not as a file")) {
            try zip.contents(of: zip.entries["link"]!, limit: 100)
        }
    }

    @Test("bytes that are not a zip archive say so", arguments: [
        (Data(), "is empty, not a zip archive"),
        (Data("hello".utf8), "too short for a zip archive"),
        (Data(repeating: 0x41, count: 4096), "no end-of-central-directory record"),
    ])
    func notAZip(data: Data, problem: String) {
        #expect {
            try ZipArchive(data: data)
        } throws: { error in
            (error as? ZipArchive.OpenError)?.description.contains(problem) == true
        }
    }

    @Test func truncatedCentralDirectory() throws {
        let whole = ZipWriter(entries: [.init(name: "a", contents: Data("x".utf8))]).archive()
        var cut = whole
        // Claim a central directory bigger than the file.
        let end = whole.count - 22
        cut[end + 12] = 0xFF
        cut[end + 13] = 0xFF
        #expect {
            try ZipArchive(data: cut)
        } throws: { error in
            (error as? ZipArchive.OpenError)?.description.contains("does not fit") == true
        }
    }

    @Test func tooManyEntries() throws {
        let entries = (0..<20).map { ZipWriter.Entry(name: "f\($0)", contents: Data()) }
        #expect {
            try ZipArchive(data: ZipWriter(entries: entries).archive(), limits: .init(maximumEntryCount: 10))
        } throws: { error in
            (error as? ZipArchive.OpenError)?.description == "holds 20 entries, over the limit of 10"
        }
    }
}
