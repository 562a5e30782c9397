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
    func everyTruncation() {
        let data = MachOBuilder.universal([
            MachOBuilder(signature: .entitlements(Self.entitlements), definedSymbols: ["_a", "_b"]),
            MachOBuilder(cpuType: MachOBuilder.cpuTypeX86_64, signature: .noEntitlements),
        ])
        for length in stride(from: 0, to: data.count, by: 97) {
            _ = try? MachOExecutable(data: data.prefix(length))
        }
    }

    @Test func principalClassSymbolCandidates() {
        #expect(PrincipalClassSymbols.candidates(for: "MyIssuerNonUI.IssuerHandler") == [
            "_OBJC_CLASS_$__TtC13MyIssuerNonUI13IssuerHandler", "_$s13MyIssuerNonUI13IssuerHandlerCN", "_OBJC_CLASS_$_IssuerHandler",
        ])
        #expect(PrincipalClassSymbols.candidates(for: "IssuerHandler") == ["_OBJC_CLASS_$_IssuerHandler"])
    }
}
