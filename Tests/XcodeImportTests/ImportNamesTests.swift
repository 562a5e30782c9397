import Foundation
import Testing
import WalletTestSupport
@testable import XcodeImport

/// Values of the project that name files under --out or Swift targets: one path component, an identifier.
@Suite("Import: names from the project that become files and Swift names")
struct ImportNamesTests {
    private func planError(extensionSettings: String = "", appSettings: String = "", files: [String: String] = [:]) throws -> String {
        let directory = try TemporaryDirectory(prefix: "xcode-import-names")
        defer { directory.remove() }
        let project = try MiniProject(root: directory.url, appSettings: appSettings, extensionSettings: extensionSettings, files: files)
        let error = try #require(throws: ImportError.self) { _ = try project.plan() }
        return error.description
    }

    @Test("a product, module, executable or bundle name that is not one path component is refused, naming target and setting",
          arguments: [
            ("PRODUCT_MODULE_NAME = \"../../Escape\";", "target Ext: PRODUCT_MODULE_NAME \"../../Escape\" contains \"/\""),
            ("FULL_PRODUCT_NAME = \"..\";", "target Ext: FULL_PRODUCT_NAME \"..\" is \"..\""),
            ("EXECUTABLE_NAME = \"bin/sh\";", "target Ext: EXECUTABLE_NAME \"bin/sh\" contains \"/\""),
            ("PRODUCT_NAME = \"\";", "target Ext: PRODUCT_NAME \"\" is empty"),
            ("PRODUCT_MODULE_NAME = \"My Ext\";", "target Ext: PRODUCT_MODULE_NAME \"My Ext\" is not a Swift identifier"),
          ])
    func pathComponents(setting: String, expected: String) throws {
        let description = try planError(extensionSettings: setting)
        #expect(description.hasPrefix(expected), "\(description)")
    }

    @Test("an App Group that cannot be a file name is refused as AppGroupIdentifier refuses it")
    func appGroups() throws {
        let description = try planError(appSettings: "CODE_SIGN_ENTITLEMENTS = App/App.entitlements;", files: [
            "App/App.entitlements": SyntheticProject.plist(
                "<key>com.apple.security.application-groups</key><array><string>../../../etc/cron.d/x</string></array>"),
        ])
        #expect(description.hasPrefix("target App: the App Group \"../../../etc/cron.d/x\" of CODE_SIGN_ENTITLEMENTS"), "\(description)")
        #expect(description.contains("contains \"/\""))
    }

    @Test("a principal class that is not a Swift identifier is refused; no principal class and no entry point is named")
    func principalClass() throws {
        let bad = try planError(files: ["Ext/Info.plist": SyntheticProject.plist(MiniProject.walletInfo.replacingOccurrences(
            of: "$(PRODUCT_MODULE_NAME).Handler", with: "Handler() }; exit(1); {"))])
        #expect(bad.contains("NSExtensionPrincipalClass names the class"), "\(bad)")
        let none = try planError(files: ["Ext/Info.plist": SyntheticProject.plist("""
            <key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.PassKit.issuer-provisioning</string></dict>
            """)])
        // The only extension left out: the error says none is left, and why this one was.
        #expect(none.contains("target Ext: its Info.plist has no NSExtension.NSExtensionPrincipalClass"), "\(none)")
    }

    @Test("two targets that would be one package target are refused; an extension two apps embed is one target")
    func collisions() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-collide")
        defer { directory.remove() }
        // A second app embedding the same extension.
        let project = try MiniProject(root: directory.url, objects: """
            APP2 = {isa = PBXNativeTarget; buildConfigurationList = APP2_CONFIGS; buildPhases = (APP2_EMBED, ); name = App2;
                productType = "com.apple.product-type.application"; };
            APP2_EMBED = {isa = PBXCopyFilesBuildPhase; dstSubfolderSpec = 13; files = (EMBED2, ); };
            EMBED2 = {isa = PBXBuildFile; fileRef = EXT_PRODUCT; };
            APP2_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (APP2_RELEASE, ); };
            APP2_RELEASE = {isa = XCBuildConfiguration; buildSettings = {GENERATE_INFOPLIST_FILE = YES; PRODUCT_BUNDLE_IDENTIFIER = com.mini.app2; }; name = Release; };
            """, targets: ["APP2"])
        let plan = try project.plan()
        #expect(plan.apps.map { $0.extensions.map(\.moduleName) } == [["Ext"], ["Ext"]])
        #expect(plan.extensions.map(\.moduleName) == ["Ext"])
        let manifest = PackageWriter(directory: directory.url.appendingPathComponent("Out"), sdk: directory.url, sourceRoot: directory.url)
            .manifest(plan, projectName: "Mini")
        #expect(manifest.components(separatedBy: ".executableTarget(name: \"Ext\"").count == 2, "declared once: \(manifest)")

        // The app's stand-in target is its module name + StandIn: here the extension's module name.
        let same = try TemporaryDirectory(prefix: "xcode-import-collide")
        defer { same.remove() }
        let clash = try MiniProject(root: same.url, appSettings: "PRODUCT_MODULE_NAME = ExtStandInX;",
                                    extensionSettings: "PRODUCT_MODULE_NAME = ExtStandInXStandIn;")
        let error = try #require(throws: ImportError.self) { _ = try clash.plan() }
        #expect(error.description.contains("would both be the package target ExtStandInXStandIn"), "\(error)")
    }

    @Test("generated Swift holds a target name as a string literal and on one comment line")
    func generatedSwiftEscapes() {
        let name = "Evil\"\n exit(1) // \\(x)"
        let source = StandInApp.source(appName: name)
        #expect(source.contains(#"let appName = "Evil\"\n exit(1) // \\(x)""#), "\(source)")
        let firstLine = source.split(separator: "\n", omittingEmptySubsequences: false)[0]
        #expect(firstLine.hasPrefix("// Generated by `wallet-host import`: stands in for Evil\"  exit(1)"), "\(firstLine)")
        #expect(!source.contains("\n exit(1)"), "the name's line break stays out of the code")
        #expect(!source.contains("print(\"\(name)"))
    }
}
