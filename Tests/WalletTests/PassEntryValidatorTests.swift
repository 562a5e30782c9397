import Foundation
import Testing
import Wallet
import WalletTestSupport
import WalletWire

@Suite("Pass entry validation")
struct PassEntryValidatorTests {
    private let validator = PassEntryValidator()

    private func validate(_ entries: [WirePassEntry], device: DeviceKind = .iphone,
                          library: [PassRecord] = []) -> PassEntryValidation {
        validator.validate(entries, for: device, library: library)
    }

    /// The only finding of a single entry, which must exist.
    private func onlyFinding(_ entry: WirePassEntry, device: DeviceKind = .iphone,
                             library: [PassRecord] = []) throws -> EntryFinding {
        let findings = validate([entry], device: device, library: library).findings
        #expect(findings.count == 1, "\(findings)")
        return try #require(findings.first)
    }

    @Test("a valid entry has no finding and is usable")
    func validEntry() {
        let validation = validate([PassEntryFixtures.validEntry()])
        #expect(validation.findings.isEmpty)
        #expect(validation.usable == [PassEntryFixtures.validEntry()])
        #expect(!validation.hasErrors)
    }

    @Test("duplicate identifiers: an error on every entry sharing it, naming the identifier and the other entry")
    func duplicateIdentifiers() {
        let entries = [PassEntryFixtures.validEntry("card-1", account: "a1"), PassEntryFixtures.validEntry("card-2", account: "a2"),
                       PassEntryFixtures.validEntry("card-1", account: "a3")]
        let validation = validate(entries)
        #expect(validation.findings.map(\.field) == ["identifier", "identifier"])
        #expect(validation.findings.allSatisfy { $0.severity == .error && $0.entryIdentifier == "card-1" })
        #expect(validation.findings.map(\.entryIndex) == [0, 2])
        #expect(validation.findings[0].problem.contains("\"card-1\"") && validation.findings[0].problem.contains("entry 2"))
        #expect(validation.usable.map(\.identifier) == ["card-2"])
    }

    @Test("an empty identifier is an error; the finding names the entry by position")
    func emptyIdentifier() throws {
        let finding = try onlyFinding(PassEntryFixtures.changed { $0.identifier = "" })
        #expect(finding.field == "identifier")
        #expect(finding.severity == .error)
        #expect(finding.description.hasPrefix("error: entry 0: identifier: "))
    }

    @Test("an empty or blank title is an error", arguments: ["", "  "])
    func emptyTitle(title: String) throws {
        let finding = try onlyFinding(PassEntryFixtures.changed { $0.title = title })
        #expect(finding.field == "title")
        #expect(finding.severity == .error)
        #expect(finding.entryIdentifier == "card-4242")
    }

    @Test("art that is not a PNG is an error that says so", arguments: [
        (Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10, 0x4A, 0x46, 0x49, 0x46]), "a JPEG"),
        (Data("GIF89a".utf8), "a GIF"),
        (Data(), "empty"),
    ])
    func notPNG(bytes: Data, expected: String) throws {
        let finding = try onlyFinding(PassEntryFixtures.changed { $0.art = WirePassArt(png: bytes) })
        #expect(finding.field == "art.png")
        #expect(finding.severity == .error)
        #expect(finding.problem.contains(expected), "\(finding.problem)")
    }

    @Test("a truncated PNG is an error: cut in the signature, in IHDR, in IDAT, or before IEND",
          arguments: [4, 20, 100, -12])
    func truncatedPNG(cut: Int) throws {
        let art = PassEntryFixtures.art
        let prefix = cut > 0 ? art.prefix(cut) : art.dropLast(-cut)
        let finding = try onlyFinding(PassEntryFixtures.changed { $0.art = WirePassArt(png: Data(prefix)) })
        #expect(finding.field == "art.png")
        #expect(finding.severity == .error)
        #expect(finding.problem.contains("truncated"), "\(finding.problem)")
    }

    /// Issue 33, bug 6: a real issuer's 1536 x 979 art was refused outright.
    @Test("art near Wallet's size and shape is a warning with the numbers, and the entry stays usable",
          arguments: [(1536, 979), (1536, 970), (3072, 1938), (1500, 950)])
    func nearSizeIsAWarning(width: Int, height: Int) throws {
        let entry = PassEntryFixtures.changed { $0.art = WirePassArt(png: TestPNG.make(width: width, height: height)) }
        let finding = try onlyFinding(entry)
        #expect(finding.field == "art.png")
        #expect(finding.severity == .warning)
        #expect(finding.problem.contains("\(width) x \(height) pixels, not the 1536 x 969"), "\(finding.problem)")
        #expect(finding.problem.contains("% off the card's"), "\(finding.problem)")
        #expect(validate([entry]).usable.count == 1)
    }

    @Test("art of the wrong size is an error naming the actual size", arguments: [(1024, 768), (969, 1536), (1536, 1200)])
    func wrongSize(width: Int, height: Int) throws {
        let finding = try onlyFinding(PassEntryFixtures.changed { $0.art = WirePassArt(png: TestPNG.make(width: width, height: height)) })
        #expect(finding.field == "art.png")
        #expect(finding.severity == .error)
        #expect(finding.problem.contains("\(width) x \(height) pixels"), "\(finding.problem)")
        #expect(finding.problem.contains("1536 x 969"))
    }

    @Test("art of 4 MB or more is an error naming its size; just under passes")
    func artTooBig() throws {
        let base = PassEntryFixtures.art.count
        let big = TestPNG.make(width: 1536, height: 969, padding: 4_000_000 - base)  // 12 more bytes of chunk framing
        #expect(big.count == 4_000_012)
        let finding = try onlyFinding(PassEntryFixtures.changed { $0.art = WirePassArt(png: big) })
        #expect(finding.field == "art.png")
        #expect(finding.severity == .error)
        #expect(finding.problem.contains("4,000,012 bytes"), "\(finding.problem)")

        let underLimit = TestPNG.make(width: 1536, height: 969, padding: 4_000_000 - base - 13)
        #expect(underLimit.count == 3_999_999)
        #expect(validate([PassEntryFixtures.changed { $0.art = WirePassArt(png: underLimit) }]).findings.isEmpty)
    }

    @Test("a configuration without cardholderName and primaryAccountSuffix is an error")
    func noNameOrSuffix() throws {
        let finding = try onlyFinding(PassEntryFixtures.changed {
            $0.addRequestConfiguration.cardholderName = nil
            $0.addRequestConfiguration.primaryAccountSuffix = " "
        })
        #expect(finding.field == "addRequestConfiguration.cardholderName")
        #expect(finding.severity == .error)
        #expect(validate([PassEntryFixtures.changed { $0.addRequestConfiguration.cardholderName = nil }]).findings.isEmpty)
        #expect(validate([PassEntryFixtures.changed { $0.addRequestConfiguration.primaryAccountSuffix = nil }]).findings.isEmpty)
    }

    @Test("an encryption scheme other than ECC_V2 and RSA_V2 is an error", arguments: ["EV_ECC_V2", "ecc_v2", ""])
    func unknownScheme(scheme: String) throws {
        let finding = try onlyFinding(PassEntryFixtures.changed { $0.addRequestConfiguration.encryptionScheme = scheme })
        #expect(finding.field == "addRequestConfiguration.encryptionScheme")
        #expect(finding.severity == .error)
        #expect(validate([PassEntryFixtures.validEntry(scheme: "RSA_V2")]).findings.isEmpty)
    }

    @Test("a style other than payment and access is an error")
    func unknownStyle() throws {
        let finding = try onlyFinding(PassEntryFixtures.changed { $0.addRequestConfiguration.style = "transit" })
        #expect(finding.field == "addRequestConfiguration.style")
        #expect(finding.severity == .error)
        #expect(validate([PassEntryFixtures.changed { $0.addRequestConfiguration.style = "access" }]).findings.isEmpty)
    }

    @Test("an entry already in the iPhone's library is an error for passEntries, not for the watch")
    func alreadyOnIPhone() throws {
        let library = [PassEntryFixtures.pass("acct-4242", on: .iphone)]
        let finding = try onlyFinding(PassEntryFixtures.validEntry(), device: .iphone, library: library)
        #expect(finding.field == "addRequestConfiguration.primaryAccountIdentifier")
        #expect(finding.severity == .error)
        #expect(finding.problem.contains("already") && finding.problem.contains("passEntries"), "\(finding.problem)")
        #expect(validate([PassEntryFixtures.validEntry()], device: .watch, library: library).findings.isEmpty)
    }

    @Test("an entry already on the watch is an error for remotePassEntries, not for the iPhone")
    func alreadyOnWatch() throws {
        let library = [PassEntryFixtures.pass("acct-4242", on: .watch)]
        let finding = try onlyFinding(PassEntryFixtures.validEntry(), device: .watch, library: library)
        #expect(finding.field == "addRequestConfiguration.primaryAccountIdentifier")
        #expect(finding.severity == .error)
        #expect(finding.problem.contains("Apple Watch") && finding.problem.contains("remotePassEntries"), "\(finding.problem)")
        #expect(validate([PassEntryFixtures.validEntry()], device: .iphone, library: library).findings.isEmpty)
    }

    @Test("a missing primaryAccountIdentifier is a warning, and the entry stays usable")
    func missingAccountIdentifier() throws {
        let entry = PassEntryFixtures.validEntry(account: nil)
        let finding = try onlyFinding(entry)
        #expect(finding.field == "addRequestConfiguration.primaryAccountIdentifier")
        #expect(finding.severity == .warning)
        #expect(validate([entry]).usable == [entry])
    }

    @Test("several problems in one entry are all reported, in field order; other entries stay usable")
    func severalProblems() {
        let broken = PassEntryFixtures.changed {
            $0.identifier = "broken"
            $0.title = ""
            $0.art = WirePassArt(png: TestPNG.make(width: 10, height: 10))
            $0.addRequestConfiguration.encryptionScheme = "AES"
        }
        let validation = validate([broken, PassEntryFixtures.validEntry("good", account: "acct-good")])
        #expect(validation.findings.map(\.field) == ["title", "art.png", "addRequestConfiguration.encryptionScheme"])
        #expect(validation.usable.map(\.identifier) == ["good"])
    }

    @Test("findings read as one line: severity, entry, field, problem")
    func findingDescription() throws {
        let finding = try onlyFinding(PassEntryFixtures.changed { $0.art = WirePassArt(png: TestPNG.make(width: 1024, height: 768)) })
        #expect(finding.description == "error: card-4242: art.png: art is 1024 x 768 pixels; Wallet needs exactly 1536 x 969")
    }
}
