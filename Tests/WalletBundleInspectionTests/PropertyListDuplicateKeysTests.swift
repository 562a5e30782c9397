import DeviceBuildFixtures
import Foundation
import Testing
import Wallet
@testable import WalletBundleInspection
import WalletTestSupport

/// A manifest that gives a key twice is ambiguous (Foundation keeps one value and says nothing):
/// an error naming the file and the key (issue 16, bad input).
@Suite("Keys given twice in a manifest")
struct PropertyListDuplicateKeysTests {
    private func plist(_ body: String) -> Data {
        Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            \(body)
            </plist>
            """.utf8)
    }

    @Test("a key twice at the top, in a nested dictionary, in a dictionary inside an array")
    func paths() {
        #expect(PropertyListDuplicateKeys.find(in: plist("<dict><key>A</key><string>1</string><key>A</key><string>2</string></dict>")) == ["A"])
        let nested = plist("""
            <dict>
              <key>NSExtension</key>
              <dict>
                <key>NSExtensionPrincipalClass</key><string>One</string>
                <key>NSExtensionAttributes</key><dict/>
                <key>NSExtensionPrincipalClass</key><string>Two</string>
              </dict>
            </dict>
            """)
        #expect(PropertyListDuplicateKeys.find(in: nested) == ["NSExtension.NSExtensionPrincipalClass"])
        let inArray = plist("""
            <dict><key>items</key><array>
              <string>zero</string>
              <dict><key>name</key><string>a</string></dict>
              <dict><key>name</key><string>b</string><key>name</key><string>c</string><key>name</key><string>d</string></dict>
            </array></dict>
            """)
        #expect(PropertyListDuplicateKeys.find(in: inArray) == ["items[2].name"])
    }

    @Test("the same key in sibling dictionaries, after an empty dictionary or in a comment is no duplicate")
    func notDuplicates() {
        let siblings = plist("""
            <dict>
              <key>a</key><dict><key>x</key><true/></dict>
              <key>b</key><dict/>
              <key>c</key><dict><key>x</key><false/></dict>
              <!-- <key>a</key> a comment is not a key -->
              <key>d</key><string><![CDATA[<key>a</key>]]></string>
            </dict>
            """)
        #expect(PropertyListDuplicateKeys.find(in: siblings).isEmpty)
    }

    @Test("keys are compared as the parser reads them: entities and CDATA decoded")
    func decodedKeys() {
        let spelled = plist("<dict><key>a&amp;b</key><true/><key>a&#38;b</key><true/><key><![CDATA[c<d]]></key><true/><key>c&lt;d</key><true/></dict>")
        #expect(PropertyListDuplicateKeys.find(in: spelled) == ["a&b", "c<d"])
    }

    @Test("a binary property list is not scanned")
    func binary() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: ["A": 1], format: .binary, options: 0)
        #expect(PropertyListDuplicateKeys.find(in: data).isEmpty)
    }

    /// Writes the fixture app, then gives `key` a second value in the file at `relativePath`.
    private func loadWithDuplicate(_ key: String, in relativePath: String) throws -> (AppBundle?, [ValidationFinding]) {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let appURL = try AppFixture().write(in: directory.url)
        let fileURL = appURL.appendingPathComponent(relativePath)
        let text = try String(contentsOf: fileURL, encoding: .utf8)
        #expect(text.contains("<key>\(key)</key>"))
        try text.replacingOccurrences(of: "<key>\(key)</key>", with: "<key>\(key)</key><string>second</string><key>\(key)</key>")
            .write(to: fileURL, atomically: true, encoding: .utf8)
        return BundleLoader.wallet.loadApp(at: appURL)
    }

    @Test("an extension's Info.plist with CFBundleIdentifier twice is an error naming the file and the key")
    func infoPlist() throws {
        let (app, findings) = try loadWithDuplicate("CFBundleIdentifier", in: "PlugIns/WNonUIExt.appex/Info.plist")
        #expect(app == nil)
        let finding = expectFinding(findings, .error, key: "CFBundleIdentifier", pathSuffix: "PlugIns/WNonUIExt.appex/Info.plist",
                                    mentioning: "appears more than once in the same dictionary")
        #expect(finding?.description.hasPrefix("error: /") == true)
    }

    @Test("an entitlements file with the App Groups key twice is an error naming the file and the key")
    func entitlements() throws {
        let key = ValidationFinding.Key.applicationGroups
        let (app, findings) = try loadWithDuplicate(key, in: "Issuer.entitlements")
        #expect(app == nil)
        expectFinding(findings, .error, key: key, pathSuffix: "Issuer.app/Issuer.entitlements", mentioning: "appears more than once")
    }

    @Test("a device build whose signed entitlements give a key twice: an error naming the executable and the key")
    func signedEntitlements() throws {
        var build = IssuerBuildFixture.myIssuer()
        let key = ValidationFinding.Key.paymentPassProvisioning
        let xml = try String(decoding: PropertyListSerialization.data(fromPropertyList: build.app.entitlements, format: .xml, options: 0),
                             as: UTF8.self)
        #expect(xml.contains("<key>\(key)</key>"))
        let twice = xml.replacingOccurrences(of: "<key>\(key)</key>", with: "<key>\(key)</key><false/><key>\(key)</key>")
        build.app.signature = .entitlements(Data(twice.utf8))
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let ipa = directory.url.appendingPathComponent("MyIssuer.ipa")
        try build.writeIPA(to: ipa)
        let (findings, _) = DeviceBuildValidator.wallet().validate(ipa: ipa)
        let finding = expectFinding(findings, .error, key: key, pathSuffix: "MyIssuer.ipa/Payload/MyIssuer.app/MyIssuer",
                                    mentioning: "in the signed entitlements (0xfade7171) appears more than once")
        #expect(finding?.check == DeviceBuildCheck.codeSignature.rawValue)
    }
}
