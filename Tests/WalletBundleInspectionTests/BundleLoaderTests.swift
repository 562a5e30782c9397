import Foundation
import Testing
import Wallet
import WalletBundleInspection
import WalletTestSupport
import WalletWire

/// Loading whole apps and directories, binary manifests, and the `validate` report.
@Suite("Bundle loading and validation report")
struct BundleLoaderTests {
    @Test func goodAppWithTwoExtensionsLoadsAndExpandsBothVariables() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try AppFixture().write(in: directory.url)
        let (loaded, findings) = BundleLoader.wallet.loadApp(at: url)
        #expect(findings.isEmpty, "\(findings.map(\.description))")
        let app = try #require(loaded)

        #expect(app.bundleIdentifier == "com.example.issuer")
        #expect(app.executableURL?.lastPathComponent == "Issuer")
        #expect(app.entitlements.paymentPassProvisioning)
        #expect(app.appGroups == ["group.com.example.issuer"])
        #expect(app.extensions.map(\.name) == ["WNonUIExt", "WUIExt"])

        let nonUI = try #require(app.extensionBundle(forPoint: WalletExtensionPoint.nonUI))
        #expect(nonUI.bundleIdentifier == "com.example.issuer.WNonUIExt")
        #expect(nonUI.principalClass == "WNonUIExt.WNonUIExtHandler")
        let attributes = nonUI.infoDictionary["NSExtension"]?.dictionaryValue?["NSExtensionAttributes"]?.dictionaryValue
        #expect(attributes?["IssuerExtensionIdentifier"] == .string("com.example.issuer.WNonUIExt"))
        #expect(nonUI.role == .nonUI)
        #expect(nonUI.extensionPoint.memoryLimitBytes == 55 * 1024 * 1024)
        #expect(nonUI.containingAppBundleIdentifier == "com.example.issuer")
        #expect(nonUI.appGroups == ["group.com.example.issuer"])
        #expect(nonUI.executableURL == url.appendingPathComponent("PlugIns/WNonUIExt.appex/WNonUIExt"))
        #expect(nonUI.minimumOSVersion == "14.0")

        let ui = try #require(app.extensions(withRole: .ui).first)
        #expect(ui.principalClass == "WUIExt.AuthorizationViewController")
        #expect(ui.extensionPointIdentifier == WalletExtensionPoint.authorization)
    }

    @Test func binaryPlistParsesLikeXML() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var binary = ExtensionFixture.nonUI()
        binary.format = .binary
        let xmlURL = try ExtensionFixture.nonUI().write(in: directory.url.appendingPathComponent("xml"))
        let binaryURL = try binary.write(in: directory.url.appendingPathComponent("binary"))
        let header = try Data(contentsOf: binaryURL.appendingPathComponent("Info.plist")).prefix(6)
        #expect(header == Data("bplist".utf8))

        let loader = BundleLoader.wallet
        let (fromXML, xmlFindings) = loader.loadExtension(at: xmlURL)
        let (fromBinary, binaryFindings) = loader.loadExtension(at: binaryURL)
        #expect(xmlFindings.isEmpty && binaryFindings.isEmpty)
        let xmlBundle = try #require(fromXML)
        let binaryBundle = try #require(fromBinary)
        #expect(binaryBundle.infoDictionary == xmlBundle.infoDictionary)
        #expect(binaryBundle.entitlements.values == xmlBundle.entitlements.values)
        #expect(binaryBundle.principalClass == "WNonUIExt.WNonUIExtHandler")
    }

    @Test func oneBrokenAppDoesNotStopTwoGoodOnes() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try AppFixture.named("Alpha").write(in: directory.url)
        var broken = AppFixture.named("Broken")
        broken.extensions[0] = broken.extensions[0].setting("NSExtension.NSExtensionPointIdentifier", to: nil)
        broken.extensions[1].executable = .none
        try broken.write(in: directory.url)
        try AppFixture.named("Zulu").write(in: directory.url)
        try Data("not a bundle".utf8).write(to: directory.url.appendingPathComponent("README.txt"))

        let (apps, findings) = BundleLoader.wallet.loadApps(in: directory.url)
        #expect(apps.map(\.name) == ["Alpha", "Zulu"])
        #expect(apps.allSatisfy { $0.extensions.count == 2 })
        let errors = findings.filter { $0.severity == .error }
        #expect(errors.count == 2)
        #expect(errors.allSatisfy { $0.path.contains("/Broken.app/") })
        expectFinding(findings, .error, key: "NSExtension.NSExtensionPointIdentifier",
                      pathSuffix: "Broken.app/PlugIns/WNonUIExt.appex/Info.plist", mentioning: "missing")
        expectFinding(findings, .error, key: "CFBundleExecutable",
                      pathSuffix: "Broken.app/PlugIns/WUIExt.appex/Info.plist", mentioning: "does not exist")
    }

    @Test func appWithUnreadableInfoPlistStillReportsItsExtensions() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var fixture = AppFixture()
        fixture.extensions[0] = fixture.extensions[0].setting("NSExtension", to: nil)
        let url = try fixture.write(in: directory.url)
        try FileManager.default.removeItem(at: url.appendingPathComponent("Info.plist"))

        let report = BundleLoader.wallet.validate(paths: [url])
        expectFinding(report.findings, .error, key: "(file)", pathSuffix: "Issuer.app/Info.plist", mentioning: "missing")
        expectFinding(report.findings, .error, key: "NSExtension", pathSuffix: "WNonUIExt.appex/Info.plist", mentioning: "missing")
        #expect(report.apps.isEmpty)
        #expect(report.bundleCount == 3)
    }

    @Test func duplicateAppIdentifiersLoadOnlyTheFirst() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try AppFixture(name: "First").write(in: directory.url)
        try AppFixture(name: "Second").write(in: directory.url)
        let (apps, findings) = BundleLoader.wallet.loadApps(in: directory.url)
        #expect(apps.map(\.name) == ["First"])
        expectFinding(findings, .error, key: "CFBundleIdentifier", pathSuffix: "Second.app/Info.plist",
                      mentioning: "is also the identifier of First.app")
    }

    @Test func validateRendersEveryFindingAndASummary() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var fixture = AppFixture()
        fixture.extensions = [ExtensionFixture.nonUI().setting("MinimumOSVersion", to: "13.0")]
        let appURL = try fixture.write(in: directory.url)
        let missing = directory.url.appendingPathComponent("Nowhere.app")

        let report = BundleLoader.wallet.validate(paths: [appURL, missing])
        #expect(report.hasErrors)
        #expect(report.bundleCount == 2)
        #expect(report.count(of: .error) == 1)
        #expect(report.count(of: .warning) == 2)
        #expect(report.summary == "2 bundles, 1 error, 2 warnings")

        let lines = report.render().split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines == report.findings.map(\.description) + ["2 bundles, 1 error, 2 warnings", ""])
        #expect(lines.contains("error: \(missing.path): (path): does not exist"))
        #expect(lines.contains { $0.hasPrefix("warning: \(appURL.path)/PlugIns/WNonUIExt.appex/Info.plist: MinimumOSVersion: 13.0 is below 14.0") })
    }

    @Test func validateAcceptsAppsExtensionsAndDirectories() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let appURL = try AppFixture().write(in: directory.url)
        let loneURL = try ExtensionFixture.nonUI().write(in: directory.url.appendingPathComponent("Loose"))
        let report = BundleLoader.wallet.validate(paths: [directory.url, appURL, loneURL])
        #expect(!report.hasErrors, "\(report.render())")
        #expect(report.apps.count == 2)
        #expect(report.extensions.map(\.bundleIdentifier) == ["com.example.issuer.WNonUIExt"])
        #expect(report.bundleCount == 7)
        #expect(report.render() == "7 bundles, 0 errors, 0 warnings\n")
    }

    @Test func validateRejectsAPlainFile() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let file = directory.url.appendingPathComponent("notes.txt")
        try Data("x".utf8).write(to: file)
        let report = BundleLoader.wallet.validate(paths: [file])
        expectFinding(report.findings, .error, key: "(path)", pathSuffix: "notes.txt",
                      mentioning: "is neither a .app, .appex, .ipa or .xcarchive bundle nor a directory of .app bundles")
        #expect(report.summary == "0 bundles, 1 error, 0 warnings")
    }

    @Test func emptyDirectoryIsAWarning() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (apps, findings) = BundleLoader.wallet.loadApps(in: directory.url)
        #expect(apps.isEmpty)
        expectFinding(findings, .warning, key: "(directory)", pathSuffix: directory.url.lastPathComponent,
                      mentioning: "holds no .app bundles")
    }
}
