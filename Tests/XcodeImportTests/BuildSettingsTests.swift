import Foundation
import Testing
import WalletTestSupport
@testable import XcodeImport

@Suite("Build settings: levels, $(inherited), references, operators, .xcconfig")
struct BuildSettingsTests {
    @Test("$(inherited) takes the level below; a reference takes the highest level's value")
    func inheritedAndReferences() throws {
        let settings = BuildSettings(levels: [
            ["OTHER_SWIFT_FLAGS": "-D BASE", "TARGET_NAME": "My-Ext", "PRODUCT_NAME": "$(TARGET_NAME)"],
            ["OTHER_SWIFT_FLAGS": "$(inherited) -D PROJECT", "PREFIX": "com.acme"],
            ["OTHER_SWIFT_FLAGS": "$(inherited) -D TARGET", "ID": "${PREFIX}.$(PRODUCT_NAME:rfc1034identifier)", "PREFIX": "com.acme.wallet"],
        ])
        #expect(try settings["OTHER_SWIFT_FLAGS"] == "-D BASE -D PROJECT -D TARGET")
        #expect(try settings["ID"] == "com.acme.wallet.My-Ext")
        #expect(try settings.expand("$(PRODUCT_NAME:c99extidentifier)") == "My_Ext")
        #expect(try settings.expand("$(PRODUCT_NAME:lower)/$(UNDEFINED)/$(UNDEFINED:default=x)") == "my-ext//x")
        #expect(try settings["UNDEFINED"] == nil)
    }

    @Test("a cycle of settings is an error naming it; a setting's reference to itself is its value below, as $(inherited)")
    func cycle() throws {
        let settings = BuildSettings(levels: [["A": "$(B)", "B": "$(A)x"]])
        let error = try #require(throws: ImportError.self) { try settings["A"] }
        #expect(error.description.contains("build setting A refers to itself (A -> B -> A)"), "\(error)")
        let flags = BuildSettings(levels: [["FLAGS": "-a"], ["FLAGS": "$(FLAGS) -b"], ["FLAGS": "${FLAGS} -c"]])
        #expect(try flags["FLAGS"] == "-a -b -c")
        #expect(try BuildSettings(levels: [["SELF": "$(SELF)x"]])["SELF"] == "x")
    }

    @Test("a setting used many times is expanded once: doubling chains take linear time and stop at 64 KiB naming the setting")
    func exponentialExpansionIsBounded() throws {
        // A0 is 8 bytes; each An doubles A(n-1): A12 is 32 KiB, A13 64 KiB, A14 over the cap. Without
        // memoizing, A40 would take 2^40 expansions.
        var level = ["A0": "12345678"]
        for index in 1...40 { level["A\(index)"] = "$(A\(index - 1))$(A\(index - 1))" }
        let settings = BuildSettings(levels: [level])
        let clock = ContinuousClock()
        let start = clock.now
        #expect(try settings["A12"]?.utf8.count == 32 * 1024)
        let error = try #require(throws: ImportError.self) { try settings["A40"] }
        #expect(error.description.contains("expands to more than 65536 bytes"), "\(error)")
        #expect(clock.now - start < .seconds(5))
        // References that double while values do not grow (`:dir` of "x" is empty): 2^22 expansions unless each is remembered.
        var shrinking = ["B0": "x"]
        for index in 1...22 { shrinking["B\(index)"] = "$(B\(index - 1):dir)$(B\(index - 1):dir)x" }
        let memoStart = clock.now
        #expect(try BuildSettings(levels: [shrinking])["B22"] == "x")
        #expect(clock.now - memoStart < .seconds(2), "took \(clock.now - memoStart)")
        // Many references to one setting in one value: each expanded once.
        let wide = BuildSettings(levels: [["X": "$(Y)$(Y)$(Y)$(Y)$(Y)$(Y)$(Y)$(Y)", "Y": "$(Z)$(Z)$(Z)$(Z)$(Z)$(Z)$(Z)$(Z)", "Z": "z"]])
        #expect(try wide["X"]?.count == 64)
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

    @Test("a missing #include is named with the file that includes it")
    func missingInclude() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-xcconfig")
        defer { directory.remove() }
        let main = directory.url.appendingPathComponent("Main.xcconfig")
        try Data("#include \"Gone.xcconfig\"\n".utf8).write(to: main)
        let error = try #require(throws: ImportError.self) { try XcconfigFile.settings(at: main) }
        #expect(error.description.hasPrefix("\(main.path): #include \"Gone.xcconfig\": no such file"), "\(error)")
    }

    @Test("OTHER_SWIFT_FLAGS -D and SWIFT_ACTIVE_COMPILATION_CONDITIONS are conditions; other flags get a line")
    func compilationConditions() throws {
        let settings = BuildSettings(levels: [
            ["SWIFT_ACTIVE_COMPILATION_CONDITIONS": "DEBUG $(inherited)"],
            ["SWIFT_ACTIVE_COMPILATION_CONDITIONS": "$(inherited) STAGING", "OTHER_SWIFT_FLAGS": "-D ACME -DBETA \"-Xfrontend\" -warn-concurrency -D not-one"],
        ])
        let flags = try SwiftCompilationFlags(settings)
        #expect(flags.conditions == ["DEBUG", "STAGING", "ACME", "BETA"])
        #expect(flags.notCarried.contains("OTHER_SWIFT_FLAGS -Xfrontend -warn-concurrency not carried (only -D conditions are)"), "\(flags.notCarried)")
        #expect(flags.notCarried.contains { $0.hasPrefix("OTHER_SWIFT_FLAGS: condition \"not-one\"") }, "\(flags.notCarried)")
    }
}
