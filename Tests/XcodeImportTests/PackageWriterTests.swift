import Foundation
import Testing
import WalletTestSupport
@testable import XcodeImport

@Suite("Writing the package and the seed")
struct PackageWriterTests {
    @Test("Package.swift: an executable target per extension, the stand-in, the test target, the SDK by path, the networking setting")
    func manifestAndLinks() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-write")
        defer { directory.remove() }
        let synthetic = try SyntheticProject(root: directory.url.appendingPathComponent("Project"))
        let project = try ProjectFileReader.read(synthetic.xcodeproj)
        let plan = try ImportPlanner.plan(project, configuration: "Debug")
        let out = directory.url.appendingPathComponent("Out")
        let writer = PackageWriter(directory: out, sdk: URL(fileURLWithPath: "/opt/checkouts/wallet-host"), sourceRoot: project.sourceRoot)
        try writer.write(plan, projectName: project.name)
        let manifest = try String(contentsOf: out.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains(#".package(path: "/opt/checkouts/wallet-host")"#))
        #expect(manifest.contains(#".executableTarget(name: "AcmeCards", dependencies: [.product(name: "WalletExtensionKit", package: "wallet-host")]"#))
        #expect(manifest.contains(#"swiftSettings: [seeNetworking, .define("ACME_DEBUG"), .swiftLanguageMode(.v6)])"#))
        #expect(manifest.contains(#"swiftSettings: [seeNetworking, .define("ACME_DEBUG"), .define("ACME_CARDS"), .swiftLanguageMode(.v5)])"#),
                "the -D of OTHER_SWIFT_FLAGS: \(manifest)")
        #expect(manifest.contains(#".executableTarget(name: "AcmeBankStandIn", path: "Sources/AcmeBankStandIn")"#))
        #expect(manifest.contains(#".testTarget(name: "AcmeCardsTests", dependencies: ["AcmeCards", "#))
        #expect(manifest.contains(#""-import-module", "-Xfrontend", "FoundationNetworking""#))

        // The project's files are linked in place, the shared one into both targets.
        let shared = synthetic.root.appendingPathComponent("Shared/CardStore.swift").standardizedFileURL.path
        for target in ["AcmeCards", "AcmeLogin"] {
            let link = out.appendingPathComponent("Sources/\(target)/Shared/CardStore.swift").path
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == shared)
        }
        let main = try String(contentsOf: out.appendingPathComponent("Sources/AcmeCards/main.swift"), encoding: .utf8)
        #expect(main.contains("WalletExtensionKit.WalletExtension.main { AcmeCardsHandler() }"))

        // Running it again replaces what it generated: a file left in Sources/ is gone.
        let stray = out.appendingPathComponent("Sources/AcmeCards/Stray.swift")
        try Data().write(to: stray)
        try writer.write(plan, projectName: project.name)
        #expect(!FileManager.default.fileExists(atPath: stray.path))
    }

    @Test("the seed examples are written once and never overwrite the user's")
    func seedExamples() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-seed")
        defer { directory.remove() }
        let seed = SeedFolder(directory: directory.url)
        let written = try seed.writeExamples(appName: "AcmeBank", bundleName: "AcmeBank.app", groups: [SyntheticProject.appGroup])
        #expect(written.map(\.lastPathComponent) == ["\(SyntheticProject.appGroup).plist", SeedFolder.keychainExampleFile])
        let example = try #require(FileManager.default.contents(atPath: written[0].path))
        let values = try PropertyListSerialization.propertyList(from: example, format: nil) as? [String: Any]
        #expect(values?.isEmpty == true, "the commented example is a valid, empty dictionary")
        try Data(SyntheticProject.plist("<key>AcmeSession</key><string>mine</string>").utf8).write(to: written[0])
        #expect(try seed.writeExamples(appName: "AcmeBank", bundleName: "AcmeBank.app", groups: [SyntheticProject.appGroup]).isEmpty)
        #expect(try String(contentsOf: written[0], encoding: .utf8).contains("mine"))
    }

    @Test("the seed examples name the app as app open finds it: by its bundle's name, quoted for a shell")
    func seedExamplesNameTheBundle() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-seed")
        defer { directory.remove() }
        let written = try SeedFolder(directory: directory.url).writeExamples(appName: "AcmeBank", bundleName: "Acme Bank.app", groups: ["group.a"])
        let defaults = try String(contentsOf: written[0], encoding: .utf8)
        #expect(defaults.contains("`wallet-host app open 'Acme Bank.app'` runs it"), "\(defaults)")
        #expect(try PropertyListSerialization.propertyList(from: Data(defaults.utf8), format: nil) is [String: Any])
        let keychain = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: written[1])) as? [String: Any])
        #expect((keychain["comment"] as? String)?.contains("`wallet-host app open 'Acme Bank.app'`") == true)
        #expect(SeedFolder.openCommand(bundleName: "It's.app", apps: "/tmp/out/apps") == #"wallet-host app open 'It'\''s.app' --apps /tmp/out/apps"#)
    }
}
