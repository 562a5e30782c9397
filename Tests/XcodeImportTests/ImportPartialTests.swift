import Foundation
import Testing
import WalletTestSupport
@testable import XcodeImport

/// Real projects that import stopped on: CocoaPods' missing xcconfig, an extension nothing would
/// start beside one that works, a target that does not compile beside one that does.
@Suite("import: what is missing or broken in one target does not stop the rest")
struct ImportPartialTests {
    @Test("a CocoaPods base configuration that is not committed is a not-carried line, and the import goes on")
    func missingPodsXcconfig() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-pods")
        defer { directory.remove() }
        let project = try MiniProject(
            root: directory.url,
            objects: #"PODS = {isa = PBXFileReference; path = "Pods/Target Support Files/Pods-Ext/Pods-Ext.release.xcconfig"; sourceTree = "<group>"; };"#,
            extensionConfiguration: "baseConfigurationReference = PODS;")
        let plan = try project.plan()
        #expect(plan.extensions.count == 1)
        let line = try #require(plan.notCarried.first { $0.contains("Pods-Ext.release.xcconfig") }, "\(plan.notCarried)")
        #expect(line.hasPrefix("target Ext: configuration Release: base configuration file "), "\(line)")
        #expect(line.contains("is missing") && line.contains("pod install"), "\(line)")
    }

    @Test("an extension nothing would start is left out, named, and the other extension of the app is planned")
    func extensionWithoutPrincipalClassIsSkipped() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-partial")
        defer { directory.remove() }
        let noPrincipal = SyntheticProject.plist("""
            <key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.PassKit.issuer-provisioning.authorization</string></dict>
            """)
        let project = try MiniProject(root: directory.url, objects: """
            UI_PRODUCT = {isa = PBXFileReference; path = UI.appex; sourceTree = BUILT_PRODUCTS_DIR; };
            UI = {isa = PBXNativeTarget; buildConfigurationList = UI_CONFIGS; buildPhases = (UI_SOURCES, ); name = UI;
                productReference = UI_PRODUCT; productType = "com.apple.product-type.app-extension"; };
            UI_SOURCES = {isa = PBXSourcesBuildPhase; files = (UI_VIEW_BUILD, ); };
            UI_VIEW_BUILD = {isa = PBXBuildFile; fileRef = UI_VIEW; };
            UI_VIEW = {isa = PBXFileReference; path = UI/View.swift; sourceTree = "<group>"; };
            UI_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (UI_RELEASE, ); };
            UI_RELEASE = {isa = XCBuildConfiguration; buildSettings = {INFOPLIST_FILE = UI/Info.plist; PRODUCT_NAME = "$(TARGET_NAME)";
                PRODUCT_BUNDLE_IDENTIFIER = com.mini.app.ui; }; name = Release; };
            """, targets: ["UI"], appEmbeds: ["UI_PRODUCT"],
            files: ["UI/Info.plist": noPrincipal, "UI/View.swift": "final class View {}\n"])
        let plan = try project.plan()
        #expect(plan.extensions.map(\.targetName) == ["Ext"], "\(plan.extensions.map(\.targetName))")
        let line = try #require(plan.notCarried.first { $0.hasPrefix("target UI: ") }, "\(plan.notCarried)")
        #expect(line.contains("no NSExtension.NSExtensionPrincipalClass") && line.hasSuffix("Not carried"), "\(line)")
    }

    @Test("a product that does not compile is reported; the one that does is built and can be assembled",
          .timeLimit(.minutes(5)))
    func oneBrokenProductDoesNotStopTheOther() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-build")
        defer { directory.remove() }
        let files = [
            "Package.swift": """
                // swift-tools-version:5.9
                import PackageDescription
                let package = Package(name: "Two", targets: [
                    .executableTarget(name: "Good", path: "Good"),
                    .executableTarget(name: "Broken", path: "Broken"),
                ])
                """,
            "Good/main.swift": "print(\"good\")\n",
            "Broken/main.swift": "let x: Int = \"not a number\"\n",
        ]
        for (path, text) in files {
            let url = directory.url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let built = try PackageBuilder(directory: directory.url, xcodeConfiguration: "Debug").build(products: ["Good", "Broken"])
        #expect(built.failed == ["Broken"])
        #expect(FileManager.default.isExecutableFile(atPath: built.products.appendingPathComponent("Good").path))
        #expect(throws: ImportError.self) {
            try PackageBuilder(directory: directory.url, xcodeConfiguration: "Debug").build(products: ["Broken"])
        }
    }
}
