import DeviceBuildFixtures
import Foundation
import Testing
@testable import WalletBundleInspection

/// The Mach-O reader on executables made in code: the entitlements signed into thin and
/// universal binaries, symbol names, and a clear sentence for every malformed structure.
@Suite("Mach-O executables and code signatures")
struct MachOExecutableTests {
    static let entitlements = Data("""
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>com.apple.developer.payment-pass-provisioning</key><true/></dict></plist>
        """.utf8)

    @Test func thinARM64WithSignedEntitlements() throws {
        let data = MachOBuilder(signature: .entitlements(Self.entitlements), definedSymbols: ["_OBJC_CLASS_$_Handler"]).thin()
        let executable = try MachOExecutable(data: data)
        #expect(!executable.isUniversal)
        let slice = try #require(executable.deviceSlice)
        #expect(slice.architectureName == "arm64")
        #expect(slice.signature?.entitlementsPropertyList == Self.entitlements)
        #expect(slice.signature?.hasDEREntitlements == true)
        #expect(slice.signature?.hasCodeDirectory == true)
        #expect(slice.definedSymbols == ["_OBJC_CLASS_$_Handler"])
    }

    @Test func universalBinaryPicksTheARM64Slice() throws {
        let intel = MachOBuilder(cpuType: MachOBuilder.cpuTypeX86_64, signature: .unsigned)
        let arm = MachOBuilder(signature: .entitlements(Self.entitlements))
        let executable = try MachOExecutable(data: MachOBuilder.universal([intel, arm]))
        #expect(executable.isUniversal)
        #expect(executable.slices.map(\.architectureName) == ["x86_64", "arm64"])
        #expect(executable.deviceSlice?.signature?.entitlementsPropertyList == Self.entitlements)
    }

    @Test func unsignedStrippedAndDEROnly() throws {
        #expect(try MachOExecutable(data: MachOBuilder(signature: .unsigned).thin()).deviceSlice?.signature == nil)
        let stripped = try MachOExecutable(data: MachOBuilder(signature: .noEntitlements).thin()).deviceSlice
        #expect(stripped?.definedSymbols == nil)
        #expect(stripped?.signature?.entitlementsPropertyList == nil)
        let der = try MachOExecutable(data: MachOBuilder(signature: .derEntitlementsOnly).thin()).deviceSlice?.signature
        #expect(der?.entitlementsPropertyList == nil && der?.hasDEREntitlements == true)
    }

    static func failure(_ data: Data) -> String {
        do {
            _ = try MachOExecutable(data: data)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func malformedBinariesSaySo() throws {
        let good = MachOBuilder(signature: .entitlements(Self.entitlements), definedSymbols: ["_x"]).thin()
        #expect(Self.failure(Data([0xCF, 0xFA])) == "is 2 bytes, too short for a Mach-O header")
        #expect(Self.failure(Data("#!/bin/sh\nexit 0\n".utf8)).contains("is not a Mach-O binary"))
        #expect(Self.failure(Data([0x7F, 0x45, 0x4C, 0x46, 2, 1, 1, 0])).contains("is not a Mach-O binary"))

        var lyingCommands = good
        lyingCommands[20] = 0xFF  // sizeofcmds far past the file
        lyingCommands[21] = 0xFF
        #expect(Self.failure(lyingCommands).contains("bytes of load commands, more than the file holds"))

        var signatureOutside = good
        let signatureCommand = 32 + 24  // after the header and LC_SYMTAB
        signatureOutside[signatureCommand + 8 + 3] = 0x7F  // dataoff near 2 GB
        #expect(Self.failure(signatureOutside) == "has an LC_CODE_SIGNATURE pointing outside the file")

        let badMagic = MachOBuilder(signature: .rawSuperBlob(MachOBuilder.blob(0xdead_beef, Data(count: 8)))).thin()
        #expect(Self.failure(badMagic).contains("not the embedded signature's 0xfade0cc0"))

        var superBlob = Data([0xFA, 0xDE, 0x0C, 0xC0, 0, 0, 0, 20, 0, 0, 0, 1])
        superBlob += Data([0, 0, 0, 5, 0, 0, 0x10, 0])  // blob offset 4096, outside
        #expect(Self.failure(MachOBuilder(signature: .rawSuperBlob(superBlob)).thin()).contains("blob 1 of 1 lies outside the signature"))

        var fat = MachOBuilder.universal([MachOBuilder(signature: .unsigned)])
        fat[7] = 200  // 200 architectures
        #expect(Self.failure(fat).contains("universal header listing 200 architectures"))
    }

    @Test("truncating a signed binary anywhere gives an error or a smaller reading, never a crash")
    func everyTruncation() throws {
        let arm = MachOBuilder(signature: .entitlements(Self.entitlements), definedSymbols: ["_a", "_b"])
        let data = MachOBuilder.universal([arm, MachOBuilder(cpuType: MachOBuilder.cpuTypeX86_64, signature: .noEntitlements)])
        let full = try MachOExecutable(data: data).slices
        #expect(full.count == 2)
        // A universal header names each slice's extent: a cut into a slice is an error, and only a
        // cut into the padding after the last one reads, the same slices as the whole file.
        let lastEntry = 8 + 20  // the second of the header's 20-byte entries: offset at 8, size at 12
        let end = Int(try #require(data.bigEndianUInt32(at: lastEntry + 8)))
            + Int(try #require(data.bigEndianUInt32(at: lastEntry + 12)))
        for length in stride(from: 0, to: data.count, by: 97) {
            let reading = try? MachOExecutable(data: data.prefix(length)).slices
            #expect((reading != nil) == (length >= end), "cut to \(length) of \(data.count) bytes, the last slice ending at \(end)")
            if let reading {
                #expect(reading.map(\.cpuType) == full.map(\.cpuType) && reading.map(\.signature) == full.map(\.signature)
                        && reading.map(\.definedSymbols) == full.map(\.definedSymbols))
            }
        }
        // A thin binary cut short is an error, or a reading of no more than it holds: never
        // entitlements or symbols it does not have.
        let thin = arm.thin()
        let whole = try #require(try MachOExecutable(data: thin).deviceSlice)
        for length in 0..<thin.count {
            guard let slice = try? MachOExecutable(data: thin.prefix(length)).deviceSlice else { continue }
            #expect([nil, Self.entitlements].contains(slice.signature?.entitlementsPropertyList), "cut to \(length)")
            #expect(slice.definedSymbols.map { $0.isSubset(of: whole.definedSymbols ?? []) } != false, "cut to \(length)")
        }
    }

    @Test func principalClassSymbolCandidates() {
        #expect(PrincipalClassSymbols.candidates(for: "MyIssuerNonUI.IssuerHandler") == [
            "_OBJC_CLASS_$__TtC13MyIssuerNonUI13IssuerHandler", "_$s13MyIssuerNonUI13IssuerHandlerCN", "_OBJC_CLASS_$_IssuerHandler",
        ])
        #expect(PrincipalClassSymbols.candidates(for: "IssuerHandler") == ["_OBJC_CLASS_$_IssuerHandler"])
    }
}
