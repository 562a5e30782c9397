import Foundation
import Testing
import WalletTestSupport

/// `wallet-host import` on the synthetic project, built for real (one `swift build` of the
/// generated package, which compiles the SDK: minutes on a small machine), then the imported
/// bundles through `conform`, `app open` and `add-card`.
@Suite("wallet-host import, built and run", .serialized, .timeLimit(.minutes(20)))
struct ImportEndToEndTests {
    @Test("the imported extensions conform, the stand-in seeds the App Group, add-card lists the seeded card with its catalog art")
    func importBuildAndRun() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-e2e")
        defer { directory.remove() }
        let synthetic = try SyntheticProject(root: directory.url.appendingPathComponent("Acme"))
        let out = directory.url.appendingPathComponent("Imported")
        let state = directory.url.appendingPathComponent("state")
        // The user's seed, written before the first import: import must keep it.
        let seed = out.appendingPathComponent("seed/\(SyntheticProject.appGroup).plist")
        try FileManager.default.createDirectory(at: seed.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(SyntheticProject.plist("""
            <key>AcmeSession</key><string>token-1</string><key>AcmeCardTitle</key><string>Acme Platinum</string>
            """).utf8).write(to: seed)

        try Data(#"{"items": [{"service": "com.acme.session", "account": "ada", "secret": "s3cret"}]}"#.utf8)
            .write(to: out.appendingPathComponent("seed/keychain.json"))

        let imported = try WalletHostCommand.run(["import", synthetic.xcodeproj.path, "--out", out.path,
                                                  "--sdk", BuildProducts.repositoryRoot.path, "--configuration", "Debug"])
        #expect(imported.status == 0, "\(imported.standardOutput)\n\(imported.standardError.suffix(4000))")
        // The generated package's swift build compiles the SDK as a user's build does: it prints no
        // warning of the SDK's own (issue 35).
        let sdkSources = BuildProducts.repositoryRoot.appendingPathComponent("Sources").path + "/"
        let sdkWarnings = imported.standardError.split(separator: "\n").filter { $0.contains(sdkSources) && $0.contains("warning:") }
        #expect(sdkWarnings.isEmpty, "\(sdkWarnings.prefix(10).joined(separator: "\n"))")
        let lines = imported.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.contains("read Acme.xcodeproj (object version 77, configuration Debug)"))
        #expect(lines.contains { $0.hasPrefix("not carried: target AcmeCards: LegacyBridge.m") })
        #expect(!lines.contains { $0.hasPrefix("wrote \(seed.path)") }, "the user's seed is never overwritten")
        let apps = out.appendingPathComponent("apps")
        let appex = ["AcmeCards", "AcmeLogin"].map { apps.appendingPathComponent("AcmeBank.app/PlugIns/\($0).appex") }
        #expect(FileManager.default.fileExists(atPath: appex[0].appendingPathComponent("Art.xcassets/acme-card.imageset/acme-card.png").path))
        #expect(lines.contains { $0.hasPrefix("next: ") && $0.contains("; wallet-host app open AcmeBank.app --apps \(apps.path);") },
                "app open finds the app by its bundle's name: \(imported.standardOutput)")

        // The issuer's own code runs the conformance checks; the one failure expected is the non-UI
        // request, which this fixture (no issuer backend to encrypt a card) completes with nil.
        let expectedFailures = [["request-valid"], []]
        for (bundle, expected) in zip(appex, expectedFailures) {
            let conform = try WalletHostCommand.run(["conform", bundle.path, "--state", state.path])
            let failed = conform.standardOutput.split(separator: "\n").compactMap { line -> String? in
                let words = line.split(separator: " ")
                return words.first == "FAIL" ? words.dropFirst().first.map(String.init) : nil
            }
            #expect(failed == expected, "conform \(bundle.lastPathComponent): \(conform.standardOutput.suffix(3000))\(conform.standardError)")
            #expect(conform.standardOutput.contains("PASS"), "\(conform.standardOutput)")
        }
        let opened = try WalletHostCommand.run(["app", "open", "AcmeBank", "--apps", apps.path, "--state", state.path])
        #expect(opened.status == 0, "\(opened.standardOutput)\(opened.standardError)")
        #expect(opened.standardOutput.contains("wrote 2 keys into \(SyntheticProject.appGroup)'s defaults"))
        #expect(opened.standardOutput.contains("keychain: 1 items from seed/keychain.json"), "\(opened.standardOutput)")
        let keychain = try WalletHostCommand.run(["keychain", "list", "--state", state.path])
        #expect(keychain.standardOutput.contains("\(SyntheticProject.team).com.acme.wallet.app: service \"com.acme.session\" account \"ada\""),
                "the app's default access group is its application identifier: \(keychain.standardOutput)")

        let added = try WalletHostCommand.run(["add-card", "--apps", apps.path, "--state", state.path, "--json"])
        let report = try added.json()
        let cards = report["cards"] as? [[String: Any]] ?? []
        #expect(cards.map { $0["title"] as? String } == ["Acme Platinum"], "\(added.standardOutput.prefix(3000))\(added.standardError)")
        #expect(report["authorization"] as? String == nil || report["authorization"] as? String == "not required",
                "logged in by the seed: no login is asked (\(report["authorization"] ?? "nil"))")
    }
}

/// The command's refusals, without building anything.
@Suite("wallet-host import: what it refuses", .timeLimit(.minutes(2)))
struct ImportCommandRefusalTests {
    @Test("an --sdk that is not a wallet-host checkout is named; a missing --out is a usage error")
    func refusals() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-refusals")
        defer { directory.remove() }
        let synthetic = try SyntheticProject(root: directory.url)
        let out = directory.url.appendingPathComponent("Out").path
        let noSDK = try WalletHostCommand.run(["import", synthetic.xcodeproj.path, "--out", out, "--sdk", directory.url.path])
        #expect(noSDK.status == 1)
        #expect(noSDK.standardError.contains("the SDK checkout \(directory.url.path) has no Package.swift"), "\(noSDK.standardError)")
        let noOut = try WalletHostCommand.run(["import", synthetic.xcodeproj.path])
        #expect(noOut.status == 2)
        #expect(noOut.standardError.contains("import needs --out DIR"))
    }

    @Test("--skip-build writes the package and the seed example, and running it again keeps the user's seed")
    func skipBuildAndRerun() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-skip")
        defer { directory.remove() }
        let synthetic = try SyntheticProject(root: directory.url.appendingPathComponent("Acme"))
        let out = directory.url.appendingPathComponent("Out")
        let arguments = ["import", synthetic.xcodeproj.path, "--out", out.path, "--sdk", BuildProducts.repositoryRoot.path, "--skip-build"]
        let first = try WalletHostCommand.run(arguments)
        #expect(first.status == 0, "\(first.standardError)")
        let seed = out.appendingPathComponent("seed/\(SyntheticProject.appGroup).plist")
        #expect(first.standardOutput.contains("wrote \(seed.path) (an example: edit it)"))
        #expect(first.standardOutput.contains("read Acme.xcodeproj (object version 77, configuration Release)"))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("Package.swift").path))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("apps").path))
        try Data(SyntheticProject.plist("<key>AcmeSession</key><string>mine</string>").utf8).write(to: seed)
        let second = try WalletHostCommand.run(arguments)
        #expect(second.status == 0)
        #expect(!second.standardOutput.contains("wrote \(seed.path)"))
        #expect(try String(contentsOf: seed, encoding: .utf8).contains("mine"))
    }
}
