import Foundation
import WalletTestSupport
@testable import XcodeImport

/// A small project for the importer's refusals and edge cases: app `App` embedding the Wallet
/// extension `Ext` (`Ext/Handler.swift`, `Ext/Info.plist`), every file reference at the source
/// root; the settings, resources and extra objects are the test's.
struct MiniProject {
    let root: URL
    var xcodeproj: URL { root.appendingPathComponent("Mini.xcodeproj") }

    static let walletInfo = """
        <key>NSExtension</key><dict>
        <key>NSExtensionPointIdentifier</key><string>com.apple.PassKit.issuer-provisioning</string>
        <key>NSExtensionPrincipalClass</key><string>$(PRODUCT_MODULE_NAME).Handler</string>
        </dict>
        """

    /// - Parameters:
    ///   - appSettings: The app target's build settings (pbxproj syntax, `KEY = value;`).
    ///   - extensionSettings: The extension's, after `INFOPLIST_FILE = Ext/Info.plist; PRODUCT_NAME = "$(TARGET_NAME)";`.
    ///   - extensionInfo: The body of `Ext/Info.plist`.
    ///   - sources: pbxproj identifiers of more file references in the extension's sources phase.
    ///   - resources: pbxproj identifiers of file references in the extension's resources phase.
    ///   - objects: More objects (file references, variant groups, targets).
    ///   - targets: More target identifiers for the project.
    ///   - appEmbeds: More product references the app embeds.
    ///   - extensionFolders: Synchronized folders the extension lists.
    ///   - files: Files to write, by path below the root.
    ///   - extensionConfiguration: More keys of the extension's Release configuration object
    ///     (`baseConfigurationReference = X;`).
    init(root: URL, appSettings: String = "", extensionSettings: String = "", extensionInfo: String = walletInfo,
         sources: [String] = [], resources: [String] = [], objects: String = "", targets: [String] = [], appEmbeds: [String] = [],
         extensionFolders: [String] = [], files: [String: String] = [:], extensionConfiguration: String = "") throws {
        self.root = root
        let embeds = (["EXT_PRODUCT"] + appEmbeds).map { "EMBED_\($0)" }
        let project = """
            // !$*UTF8*$!
            {
            archiveVersion = 1; classes = { }; objectVersion = 77;
            objects = {
            ROOT = {isa = PBXProject; buildConfigurationList = PROJECT_CONFIGS; targets = (APP, EXT, \(targets.map { "\($0), " }.joined())); };
            APP = {isa = PBXNativeTarget; buildConfigurationList = APP_CONFIGS; buildPhases = (APP_EMBED, ); name = App;
                productType = "com.apple.product-type.application"; };
            APP_EMBED = {isa = PBXCopyFilesBuildPhase; dstSubfolderSpec = 13; files = (\(embeds.map { "\($0), " }.joined())); };
            \((["EXT_PRODUCT"] + appEmbeds).map { "EMBED_\($0) = {isa = PBXBuildFile; fileRef = \($0); };" }.joined(separator: "\n"))
            EXT_PRODUCT = {isa = PBXFileReference; path = Ext.appex; sourceTree = BUILT_PRODUCTS_DIR; };
            EXT = {isa = PBXNativeTarget; buildConfigurationList = EXT_CONFIGS; buildPhases = (EXT_SOURCES, EXT_RESOURCES, ); name = Ext;
                fileSystemSynchronizedGroups = (\(extensionFolders.map { "\($0), " }.joined())); productReference = EXT_PRODUCT;
                productType = "com.apple.product-type.app-extension"; };
            EXT_SOURCES = {isa = PBXSourcesBuildPhase; files = (HANDLER_BUILD, \(sources.map { "SRC_\($0), " }.joined())); };
            \(sources.map { "SRC_\($0) = {isa = PBXBuildFile; fileRef = \($0); };" }.joined(separator: "\n"))
            HANDLER_BUILD = {isa = PBXBuildFile; fileRef = HANDLER; };
            HANDLER = {isa = PBXFileReference; path = Ext/Handler.swift; sourceTree = "<group>"; };
            EXT_RESOURCES = {isa = PBXResourcesBuildPhase; files = (\(resources.map { "RES_\($0), " }.joined())); };
            \(resources.map { "RES_\($0) = {isa = PBXBuildFile; fileRef = \($0); };" }.joined(separator: "\n"))
            \(objects)
            PROJECT_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (PROJECT_RELEASE, ); defaultConfigurationName = Release; };
            PROJECT_RELEASE = {isa = XCBuildConfiguration; buildSettings = { }; name = Release; };
            APP_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (APP_RELEASE, ); };
            APP_RELEASE = {isa = XCBuildConfiguration; buildSettings = {GENERATE_INFOPLIST_FILE = YES; PRODUCT_BUNDLE_IDENTIFIER = com.mini.app;
                \(appSettings) }; name = Release; };
            EXT_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (EXT_RELEASE, ); };
            EXT_RELEASE = {isa = XCBuildConfiguration; \(extensionConfiguration) buildSettings = {INFOPLIST_FILE = Ext/Info.plist; PRODUCT_NAME = "$(TARGET_NAME)";
                PRODUCT_BUNDLE_IDENTIFIER = com.mini.app.ext; \(extensionSettings) }; name = Release; };
            };
            rootObject = ROOT;
            }
            """
        var all = files
        all["Mini.xcodeproj/project.pbxproj"] = project
        all["Ext/Handler.swift"] = all["Ext/Handler.swift"] ?? "final class Handler {}\n"
        all["Ext/Info.plist"] = all["Ext/Info.plist"] ?? SyntheticProject.plist(extensionInfo)
        for (path, text) in all {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
    }

    /// The project read and planned (configuration Release), reading outside its root only `allowOutside`.
    func plan(allowOutside: [URL] = []) throws -> ImportPlan {
        let boundary = ProjectBoundary(projectDirectory: root, allowedOutside: allowOutside)
        return try ImportPlanner.plan(try ProjectFileReader.read(xcodeproj, boundary: boundary), configuration: "Release")
    }
}
