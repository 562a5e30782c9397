import Foundation
import Testing
import WalletTestSupport
@testable import XcodeImport

/// Where import writes: never the project's folder, only folders an import made.
@Suite("Import: the output folder and the bundles' resources")
struct ImportOutputTests {
    @Test("--out that is, holds or is inside the project's folder is refused, and the project's Sources stay",
          arguments: ["", "Imported", ".."])
    func outApartFromProject(relative: String) throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-out")
        defer { directory.remove() }
        let root = directory.url.appendingPathComponent("Acme")
        let project = try MiniProject(root: root, files: ["Sources/Precious.swift": "// the issuer's code\n"])
        let plan = try project.plan()
        let out = relative.isEmpty ? root : root.appendingPathComponent(relative).standardizedFileURL
        let writer = PackageWriter(directory: out, sdk: directory.url, sourceRoot: root)
        let error = try #require(throws: ImportError.self) { try writer.write(plan, projectName: "Mini") }
        #expect(error.description.contains("the project's folder \(root.path)"), "\(error)")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("Sources/Precious.swift").path))
    }

    @Test("a folder holding Sources/ that no import made is refused; one an import made is replaced")
    func onlyImportsFoldersAreReplaced() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-out")
        defer { directory.remove() }
        let project = try MiniProject(root: directory.url.appendingPathComponent("Acme"))
        let plan = try project.plan()
        let out = directory.url.appendingPathComponent("Somebody")
        let mine = out.appendingPathComponent("Sources/Mine.swift")
        try FileManager.default.createDirectory(at: mine.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: mine)
        let writer = PackageWriter(directory: out, sdk: directory.url, sourceRoot: project.root)
        let error = try #require(throws: ImportError.self) { try writer.write(plan, projectName: "Mini") }
        #expect(error.description.contains("holds Sources but no .wallet-host-import"), "\(error)")
        #expect(FileManager.default.fileExists(atPath: mine.path))

        let fresh = directory.url.appendingPathComponent("Fresh")
        let freshWriter = PackageWriter(directory: fresh, sdk: directory.url, sourceRoot: project.root)
        try freshWriter.write(plan, projectName: "Mini")
        #expect(FileManager.default.fileExists(atPath: fresh.appendingPathComponent(OutputFolder.markerFile).path))
        try freshWriter.write(plan, projectName: "Mini")
    }

    @Test("localized resources keep their .lproj folder; a remaining name collision gets a line; GoogleService-Info.plist is a resource")
    func localizedResources() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-lproj")
        defer { directory.remove() }
        let root = directory.url.appendingPathComponent("Acme")
        let project = try MiniProject(
            root: root, resources: ["STRINGS", "LOGO_A", "LOGO_B", "GOOGLE", "INFO", "CATALOG", "NOWHERE"],
            objects: """
                STRINGS = {isa = PBXVariantGroup; children = (STRINGS_EN, STRINGS_FR, ); name = Localizable.strings; sourceTree = "<group>"; };
                STRINGS_EN = {isa = PBXFileReference; path = Ext/en.lproj/Localizable.strings; sourceTree = "<group>"; };
                STRINGS_FR = {isa = PBXFileReference; path = Ext/fr.lproj/Localizable.strings; sourceTree = "<group>"; };
                LOGO_A = {isa = PBXFileReference; path = Ext/A/logo.png; sourceTree = "<group>"; };
                LOGO_B = {isa = PBXFileReference; path = Ext/B/logo.png; sourceTree = "<group>"; };
                GOOGLE = {isa = PBXFileReference; path = Ext/GoogleService-Info.plist; sourceTree = "<group>"; };
                INFO = {isa = PBXFileReference; path = Ext/Info.plist; sourceTree = "<group>"; };
                CATALOG = {isa = PBXFileReference; path = Ext/Texts.xcstrings; sourceTree = "<group>"; };
                NOWHERE = {isa = PBXFileReference; path = Gone.png; sourceTree = SDKROOT; };
                """,
            files: ["Ext/en.lproj/Localizable.strings": "\"hi\" = \"Hello\";\n", "Ext/fr.lproj/Localizable.strings": "\"hi\" = \"Bonjour\";\n",
                    "Ext/A/logo.png": "a", "Ext/B/logo.png": "b", "Ext/GoogleService-Info.plist": SyntheticProject.plist(""),
                    "Ext/Texts.xcstrings": "{}"])
        let plan = try project.plan()
        let bundle = try #require(plan.extensions.first)
        #expect(bundle.resources.map(BundleResources.destination) == [
            "en.lproj/Localizable.strings", "fr.lproj/Localizable.strings", "logo.png", "GoogleService-Info.plist"])
        #expect(plan.notCarried.contains("target Ext: resources Ext/A/logo.png and Ext/B/logo.png both go to logo.png in the bundle; the second is not copied"),
                "\(plan.notCarried)")
        #expect(plan.notCarried.contains { $0.hasPrefix("target Ext: Texts.xcstrings: string catalogs are not carried") }, "\(plan.notCarried)")
        #expect(plan.notCarried.contains("target Ext: Gone.png: no file on disk for this reference (sourceTree SDKROOT); not carried"),
                "\(plan.notCarried)")

        // Assembled from stand-in products: both languages are in the bundle.
        let out = directory.url.appendingPathComponent("Out")
        try PackageWriter(directory: out, sdk: directory.url, sourceRoot: root).write(plan, projectName: "Mini")
        let products = directory.url.appendingPathComponent("products")
        try FileManager.default.createDirectory(at: products, withIntermediateDirectories: true)
        for product in ["Ext", PackageWriter.standInTarget(of: plan.apps[0].app)] {
            let file = products.appendingPathComponent(product)
            try Data("#!/bin/sh\n".utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: file.path)
        }
        try BundleAssembler(directory: out, products: products).assemble(plan)
        let appex = out.appendingPathComponent("apps/App.app/PlugIns/Ext.appex")
        #expect(try String(contentsOf: appex.appendingPathComponent("en.lproj/Localizable.strings"), encoding: .utf8).contains("Hello"))
        #expect(try String(contentsOf: appex.appendingPathComponent("fr.lproj/Localizable.strings"), encoding: .utf8).contains("Bonjour"))
        #expect(try String(contentsOf: appex.appendingPathComponent("logo.png"), encoding: .utf8) == "a")
    }

    @Test("SWIFT_ACTIVE_COMPILATION_CONDITIONS and -D flags become .define; outside files of one name stay apart")
    func definesAndExternalFiles() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-defines")
        defer { directory.remove() }
        let root = directory.url.appendingPathComponent("Acme")
        let project = try MiniProject(
            root: root, extensionSettings: "SWIFT_ACTIVE_COMPILATION_CONDITIONS = \"STAGING\"; OTHER_SWIFT_FLAGS = \"-D ACME -enable-testing\";",
            sources: ["ONE", "TWO"], objects: """
                ONE = {isa = PBXFileReference; path = "\(directory.url.path)/One/Util.swift"; sourceTree = "<absolute>"; };
                TWO = {isa = PBXFileReference; path = "\(directory.url.path)/Two/Util.swift"; sourceTree = "<absolute>"; };
                """)
        for folder in ["One", "Two"] {
            try FileManager.default.createDirectory(at: directory.url.appendingPathComponent(folder), withIntermediateDirectories: true)
            try Data().write(to: directory.url.appendingPathComponent("\(folder)/Util.swift"))
        }
        // Outside the project: read because the user allows them (--allow-outside).
        let plan = try project.plan(allowOutside: [directory.url.appendingPathComponent("One"), directory.url.appendingPathComponent("Two")])
        #expect(plan.notCarried.contains("target Ext: OTHER_SWIFT_FLAGS -enable-testing not carried (only -D conditions are)"), "\(plan.notCarried)")
        let out = directory.url.appendingPathComponent("Out")
        let writer = PackageWriter(directory: out, sdk: directory.url, sourceRoot: root)
        try writer.write(plan, projectName: "Mini")
        #expect(writer.manifest(plan, projectName: "Mini").contains(#"swiftSettings: [seeNetworking, .define("STAGING"), .define("ACME")]"#))
        for folder in ["One", "Two"] {
            let link = out.appendingPathComponent("Sources/Ext/External\(directory.url.standardizedFileURL.path)/\(folder)/Util.swift")
            #expect(FileManager.default.fileExists(atPath: link.path), "\(link.path)")
        }
    }
}
