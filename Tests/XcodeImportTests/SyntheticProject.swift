import Foundation
import WalletTestSupport

/// An issuer's Xcode project written by the tests (never a copy of someone else's): an app that
/// embeds a non-UI extension in classic groups and a UI extension in an Xcode 16 synchronized
/// folder, a file both extensions compile, an asset catalog, build variables, `INFOPLIST_KEY_`
/// settings, a team, an `.xcconfig`, a unit-test target, and things the importer cannot carry
/// (an Objective-C file, a storyboard, a script phase).
struct SyntheticProject {
    static let team = "ACME123456"
    static let appGroup = "group.com.acme.wallet"
    static let bundlePrefix = "com.acme.wallet"

    /// The directory holding `Acme.xcodeproj` and the sources.
    let root: URL
    var xcodeproj: URL { root.appendingPathComponent("Acme.xcodeproj") }

    /// Writes the project under `root`.
    init(root: URL) throws {
        self.root = root
        let files: [String: String] = [
            "Acme.xcodeproj/project.pbxproj": Self.projectFile,
            "Config/Shared.xcconfig": """
                // The project's base configuration.
                #include "Versions.xcconfig"
                ACME_PREFIX = com.acme
                ACME_BUNDLE_PREFIX = $(ACME_PREFIX).wallet
                """,
            "Config/Versions.xcconfig": "MARKETING_VERSION = 2.4\nCURRENT_PROJECT_VERSION = 17\n",
            "AcmeBank/AcmeBankApp.swift": "// The app's own code: not built by the importer.\n",
            "AcmeBank/AcmeBank.entitlements": Self.plist("""
                <key>com.apple.security.application-groups</key><array><string>group.$(ACME_BUNDLE_PREFIX)</string></array>
                """),
            "AcmeBank/Base.lproj/Main.storyboard": "<document/>\n",
            "AcmeCards/AcmeCardsHandler.swift": Self.handlerSource,
            "AcmeCards/LegacyBridge.m": "// Objective-C the importer cannot carry.\n",
            "AcmeCards/Info.plist": Self.plist("""
                <key>NSExtension</key><dict>
                <key>NSExtensionPointIdentifier</key><string>com.apple.PassKit.issuer-provisioning</string>
                <key>NSExtensionPrincipalClass</key><string>$(PRODUCT_MODULE_NAME).AcmeCardsHandler</string>
                </dict>
                """),
            "AcmeCards/AcmeCards.entitlements": Self.plist("""
                <key>com.apple.developer.payment-pass-provisioning</key><true/>
                <key>com.apple.security.application-groups</key><array><string>group.$(ACME_BUNDLE_PREFIX)</string></array>
                <key>keychain-access-groups</key><array><string>$(AppIdentifierPrefix)com.acme.shared</string></array>
                """),
            "AcmeCards/Art.xcassets/Contents.json": #"{"info": {"author": "xcode", "version": 1}}"#,
            "AcmeCards/Art.xcassets/acme-card.imageset/Contents.json": """
                {"images": [{"filename": "acme-card.png", "idiom": "universal", "scale": "1x"}], "info": {"author": "xcode", "version": 1}}
                """,
            "Shared/CardStore.swift": Self.sharedSource,
            "AcmeLogin/LoginViewController.swift": Self.loginSource,
            "AcmeLogin/Info.plist": Self.plist("""
                <key>NSExtension</key><dict>
                <key>NSExtensionPointIdentifier</key><string>com.apple.PassKit.issuer-provisioning.authorization</string>
                <key>NSExtensionPrincipalClass</key><string>$(PRODUCT_MODULE_NAME).LoginViewController</string>
                </dict>
                """),
            "AcmeLogin/Notes/Unused.swift": "// Excluded from the login target by an exception set.\n#error(\"not in the target\")\n",
            "AcmeCardsTests/AcmeCardsTests.swift": """
                import XCTest
                @testable import AcmeCards

                final class AcmeCardsTests: XCTestCase {
                    func testTitle() { XCTAssertFalse(CardStore.cardTitle.isEmpty) }
                }
                """,
        ]
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try TestPNG.make(width: 1536, height: 969).write(to: root.appendingPathComponent("AcmeCards/Art.xcassets/acme-card.imageset/acme-card.png"))
    }

    static func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0"><dict>
        \(body)
        </dict></plist>
        """
    }
}
