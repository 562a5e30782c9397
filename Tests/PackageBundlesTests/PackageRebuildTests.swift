import Foundation
import PackageBundles
import Testing
import WalletTestSupport

/// What `serve --watch` does after a change, on small packages of plain Swift (no SDK: a build takes seconds).
@Suite("PackageRebuild: a watched package rebuilt", .serialized, .timeLimit(.minutes(10)))
struct PackageRebuildTests {
    /// A package with one executable product, `Ext`, printing `text`.
    static func package(at directory: URL, text: String) throws {
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("Sources/Ext"), withIntermediateDirectories: true)
        try Data("""
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(name: "Plain", targets: [.executableTarget(name: "Ext")])

            """.utf8).write(to: directory.appendingPathComponent("Package.swift"))
        try Data("print(\(String(reflecting: text)))\n".utf8).write(to: directory.appendingPathComponent("Sources/Ext/main.swift"))
    }

    static func plist(executable: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>CFBundleExecutable</key><string>\(executable)</string></dict></plist>

            """.utf8)
    }

    @Test("an imported package (its bundles in apps/, no Bundles/): each extension whose executable was built gets it, its manifests kept")
    func importedPackage() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-rebuild-import")
        defer { directory.remove() }
        try Self.package(at: directory.url, text: "new build")
        let appex = directory.url.appendingPathComponent("apps/App.app/PlugIns/Ext.appex")
        try FileManager.default.createDirectory(at: appex, withIntermediateDirectories: true)
        try Self.plist(executable: "Ext").write(to: appex.appendingPathComponent("Info.plist"))
        try Data("entitlements".utf8).write(to: appex.appendingPathComponent("Ext.entitlements"))
        try Data("#!/bin/sh\n".utf8).write(to: appex.appendingPathComponent("Ext"))

        let rebuild = PackageRebuild(packageDirectory: directory.url)
        #expect(rebuild.isAssembled)
        let report = rebuild.run()
        #expect(report.succeeded, "\(report.text)")
        #expect(report.text.contains("1 extensions replaced"), "\(report.text)")
        let built = try Data(contentsOf: directory.url.appendingPathComponent(".build/debug/Ext"))
        #expect(try Data(contentsOf: appex.appendingPathComponent("Ext")) == built)
        #expect(try Data(contentsOf: appex.appendingPathComponent("Ext.entitlements")) == Data("entitlements".utf8))
    }

    @Test("a package with Bundles/: built and assembled; then a broken source prints the compiler's error and apps/ stays as it was")
    func bundlesPackage() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-rebuild-bundles")
        defer { directory.remove() }
        try Self.package(at: directory.url, text: "first")
        let sources = directory.url.appendingPathComponent("Bundles/App.app")
        try FileManager.default.createDirectory(at: sources.appendingPathComponent("PlugIns/Ext.appex"), withIntermediateDirectories: true)
        try Self.plist(executable: "Ext").write(to: sources.appendingPathComponent("Info.plist"))
        try Self.plist(executable: "Ext").write(to: sources.appendingPathComponent("PlugIns/Ext.appex/Info.plist"))
        try Data("art".utf8).write(to: sources.appendingPathComponent("PlugIns/Ext.appex/card.png"))

        let rebuild = PackageRebuild(packageDirectory: directory.url)
        #expect(!rebuild.isAssembled)
        let first = rebuild.run()
        #expect(first.succeeded, "\(first.text)")
        #expect(first.text.contains("assembled 2 bundles"), "\(first.text)")
        let appex = directory.url.appendingPathComponent("apps/App.app/PlugIns/Ext.appex")
        #expect(try Data(contentsOf: appex.appendingPathComponent("card.png")) == Data("art".utf8))
        let good = try Data(contentsOf: appex.appendingPathComponent("Ext"))

        try Data("let broken: Int = \"text\"\n".utf8).write(to: directory.url.appendingPathComponent("Sources/Ext/main.swift"))
        let second = rebuild.run()
        #expect(!second.succeeded)
        #expect(second.text.contains("the build failed; the last good bundles stay"), "\(second.text)")
        #expect(second.text.contains("main.swift:1:") && second.text.contains("error:"), "\(second.text)")
        #expect(!second.text.contains("Compiling "), "progress lines are left out: \(second.text)")
        #expect(try Data(contentsOf: appex.appendingPathComponent("Ext")) == good)
    }
}
