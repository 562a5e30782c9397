import DeviceBuildFixtures
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import WalletTestSupport

/// `wallet-host validate` on device builds, run as CI runs it: the text, `--json`, `--junit`,
/// `--ios`, exit statuses, and the README's example kept true.
@Suite("wallet-host validate on .ipa files", .timeLimit(.minutes(2)))
struct ValidateDeviceBuildCommandTests {
    /// MyIssuer.ipa with the UI extension signed without payment-pass-provisioning, as MakeExampleIPA writes it.
    static func brokenIPA(in directory: TemporaryDirectory) throws -> URL {
        var build = IssuerBuildFixture.myIssuer()
        build[extension: "MyIssuerUI.appex"].entitlements["com.apple.developer.payment-pass-provisioning"] = nil
        let url = directory.url.appendingPathComponent("MyIssuer.ipa")
        try build.writeIPA(to: url)
        return url
    }

    static let brokenLine = "error: %@/Payload/MyIssuer.app/PlugIns/MyIssuerUI.appex/MyIssuerUI: com.apple.developer.payment-pass-provisioning: "
        + "missing from MyIssuerUI.appex's signed entitlements; Wallet will not load this extension, so it will not list the app"

    @Test func aGoodIPAPassesWithExitZero() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent("Good.ipa")
        try IssuerBuildFixture.myIssuer().writeIPA(to: url)
        let run = try WalletHostCommand.run(["validate", url.path])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardOutput == "3 bundles, 0 errors, 0 warnings\n")
    }

    @Test func oneBrokenEntitlementIsOneErrorAndExitOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.brokenIPA(in: directory)
        let run = try WalletHostCommand.run(["validate", url.path])
        #expect(run.status == 1)
        #expect(run.standardError.isEmpty)
        #expect(run.standardOutput == String(format: Self.brokenLine, url.path) + "\n3 bundles, 1 error, 0 warnings\n")
    }

    @Test func jsonNamesTheCheck() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.brokenIPA(in: directory)
        let run = try WalletHostCommand.run(["validate", url.path, "--json"])
        #expect(run.status == 1)
        let object = try run.json()
        #expect(object["bundles"] as? Int == 3)
        #expect(object["errors"] as? Int == 1)
        #expect(object["warnings"] as? Int == 0)
        let findings = try #require(object["findings"] as? [[String: String]])
        #expect(findings.count == 1)
        #expect(findings.first?["check"] == "payment-pass-entitlement")
        #expect(findings.first?["key"] == "com.apple.developer.payment-pass-provisioning")
        #expect(findings.first?["severity"] == "error")
    }

    @Test func junitHasOneTestCasePerCheckAndFailsTheBrokenOne() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try Self.brokenIPA(in: directory)
        let junit = directory.url.appendingPathComponent("validate.xml")
        let run = try WalletHostCommand.run(["validate", url.path, "--junit", junit.path])
        #expect(run.status == 1)
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("<testsuites name=\"wallet-host validate\" tests=\"13\" failures=\"1\" errors=\"0\">"))
        #expect(xml.components(separatedBy: "<testcase ").count == 14)
        #expect(xml.components(separatedBy: "<failure ").count == 2)
        let failed = try #require(xml.range(of: "<testcase name=\"payment-pass-entitlement\" classname=\"validate\">\n      <failure "))
        #expect(!failed.isEmpty)
        let parser = XMLParser(data: Data(xml.utf8))
        #expect(parser.parse(), "not well-formed: \(parser.parserError.map { "\($0)" } ?? "")")
    }

    @Test func iosVersionBoundsMinimumOSVersion() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent("Good.ipa")
        try IssuerBuildFixture.myIssuer().writeIPA(to: url)
        let run = try WalletHostCommand.run(["validate", url.path, "--ios", "14.8"])
        #expect(run.status == 1)
        #expect(run.standardOutput.hasSuffix("3 bundles, 3 errors, 0 warnings\n"))
        #expect(run.standardOutput.contains("MyIssuer.app/Info.plist: MinimumOSVersion: 15.0 is above iOS 14.8, the target device's (--ios); the app does not install there"))
        let bad = try WalletHostCommand.run(["validate", url.path, "--ios", "fourteen"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("--ios needs a version such as 17.4, not \"fourteen\""))
    }

    @Test("the README shows the real output of validate on the generated MyIssuer.ipa")
    func readmeExample() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let generator = Process()
        generator.executableURL = BuildProducts.directory.appendingPathComponent("MakeExampleIPA")
        generator.arguments = [directory.url.appendingPathComponent("MyIssuer.ipa").path]
        try generator.run()
        generator.waitUntilExit()
        #expect(generator.terminationStatus == 0)
        let run = try WalletHostCommand.run(["validate", directory.url.appendingPathComponent("MyIssuer.ipa").path])
        let shown = run.standardOutput.replacingOccurrences(of: directory.url.path, with: "/tmp/example")
        // The example sits in a list item, so its lines are indented there.
        let readme = try String(contentsOf: BuildProducts.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.drop { $0 == " " } }.joined(separator: "\n")
        #expect(readme.contains("$ wallet-host validate MyIssuer.ipa\n" + shown), "README should show:\n\(shown)")
        #expect(run.status == 1)
    }
}
