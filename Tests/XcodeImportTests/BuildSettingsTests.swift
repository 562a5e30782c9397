import Foundation
import Testing
import WalletTestSupport
@testable import XcodeImport

@Suite("Build settings: levels, $(inherited), references, operators, .xcconfig")
struct BuildSettingsTests {
    @Test("$(inherited) takes the level below; a reference takes the highest level's value")
    func inheritedAndReferences() {
        let settings = BuildSettings(levels: [
            ["OTHER_SWIFT_FLAGS": "-D BASE", "TARGET_NAME": "My-Ext", "PRODUCT_NAME": "$(TARGET_NAME)"],
            ["OTHER_SWIFT_FLAGS": "$(inherited) -D PROJECT", "PREFIX": "com.acme"],
            ["OTHER_SWIFT_FLAGS": "$(inherited) -D TARGET", "ID": "${PREFIX}.$(PRODUCT_NAME:rfc1034identifier)", "PREFIX": "com.acme.wallet"],
        ])
        #expect(settings["OTHER_SWIFT_FLAGS"] == "-D BASE -D PROJECT -D TARGET")
        #expect(settings["ID"] == "com.acme.wallet.My-Ext")
        #expect(settings.expand("$(PRODUCT_NAME:c99extidentifier)") == "My_Ext")
        #expect(settings.expand("$(PRODUCT_NAME:lower)/$(UNDEFINED)/$(UNDEFINED:default=x)") == "my-ext//x")
        #expect(settings["UNDEFINED"] == nil)
    }

    @Test("a setting that refers to itself ends instead of looping")
    func cycle() {
        let settings = BuildSettings(levels: [["A": "$(B)", "B": "$(A)x"]])
        #expect(settings["A"]?.hasSuffix("x") == true)
    }

    @Test("conditions for an iOS device build of the configuration win over the plain name; others are dropped")
    func conditions() {
        let folded = BuildSettings.applyingConditions(
            ["FLAG": "plain", "FLAG[sdk=iphoneos*]": "device", "OTHER[sdk=iphonesimulator*]": "simulator", "MODE[config=Debug]": "debug"],
            configuration: "Release")
        #expect(folded == ["FLAG": "device"])
    }

    @Test(".xcconfig: includes first, comments dropped, later lines win")
    func xcconfig() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-xcconfig")
        defer { directory.remove() }
        try Data("A = from-include\nB = kept // a comment\n".utf8).write(to: directory.url.appendingPathComponent("Base.xcconfig"))
        try Data("#include \"Base.xcconfig\"\n#include? \"Missing.xcconfig\"\nA = $(inherited) own;\n".utf8)
            .write(to: directory.url.appendingPathComponent("Main.xcconfig"))
        let settings = try XcconfigFile.settings(at: directory.url.appendingPathComponent("Main.xcconfig"))
        #expect(settings == ["A": "$(inherited) own", "B": "kept"])
        try Data("#include \"Main.xcconfig\"\n".utf8).write(to: directory.url.appendingPathComponent("Base.xcconfig"))
        #expect(throws: ImportError.self) { try XcconfigFile.settings(at: directory.url.appendingPathComponent("Main.xcconfig")) }
    }
}
