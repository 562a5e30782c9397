/// The synthetic project's `project.pbxproj` and Swift sources.
extension SyntheticProject {
    /// Object version 77: classic groups for the app, the non-UI extension, the shared folder and
    /// the tests; a synchronized folder with an exception set for the UI extension; `Shared/CardStore.swift`
    /// in both extensions' sources phases; settings at project and target level, `$(inherited)`,
    /// custom variables, an `.xcconfig`, `INFOPLIST_KEY_` settings and a team.
    static let projectFile = """
        // !$*UTF8*$!
        {
        \tarchiveVersion = 1;
        \tclasses = {
        \t};
        \tobjectVersion = 77;
        \tobjects = {
        \t\tROOT = {isa = PBXProject; buildConfigurationList = PROJECT_CONFIGS; mainGroup = MAIN_GROUP; productRefGroup = PRODUCTS_GROUP;
        \t\t\ttargets = (APP_TARGET, CARDS_TARGET, LOGIN_TARGET, TESTS_TARGET, ); };
        \t\tMAIN_GROUP = {isa = PBXGroup; children = (APP_GROUP, CARDS_GROUP, SHARED_GROUP, LOGIN_FOLDER, TESTS_GROUP, CONFIG_GROUP, PRODUCTS_GROUP, ); sourceTree = "<group>"; };
        \t\tPRODUCTS_GROUP = {isa = PBXGroup; children = (APP_PRODUCT, CARDS_PRODUCT, LOGIN_PRODUCT, ); name = Products; sourceTree = "<group>"; };
        \t\tCONFIG_GROUP = {isa = PBXGroup; children = (SHARED_XCCONFIG, ); path = Config; sourceTree = "<group>"; };
        \t\tSHARED_XCCONFIG = {isa = PBXFileReference; lastKnownFileType = text.xcconfig; path = Shared.xcconfig; sourceTree = "<group>"; };
        \t\tAPP_GROUP = {isa = PBXGroup; children = (APP_SWIFT, APP_ENTITLEMENTS, MAIN_STORYBOARD, ); path = AcmeBank; sourceTree = "<group>"; };
        \t\tAPP_SWIFT = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = AcmeBankApp.swift; sourceTree = "<group>"; };
        \t\tAPP_ENTITLEMENTS = {isa = PBXFileReference; path = AcmeBank.entitlements; sourceTree = "<group>"; };
        \t\tMAIN_STORYBOARD = {isa = PBXVariantGroup; children = (MAIN_STORYBOARD_BASE, ); name = Main.storyboard; sourceTree = "<group>"; };
        \t\tMAIN_STORYBOARD_BASE = {isa = PBXFileReference; lastKnownFileType = file.storyboard; name = Base; path = Base.lproj/Main.storyboard; sourceTree = "<group>"; };
        \t\tCARDS_GROUP = {isa = PBXGroup; children = (CARDS_HANDLER, CARDS_LEGACY, CARDS_INFO, CARDS_ENTITLEMENTS, CARDS_ART, ); path = AcmeCards; sourceTree = "<group>"; };
        \t\tCARDS_HANDLER = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = AcmeCardsHandler.swift; sourceTree = "<group>"; };
        \t\tCARDS_LEGACY = {isa = PBXFileReference; lastKnownFileType = sourcecode.c.objc; path = LegacyBridge.m; sourceTree = "<group>"; };
        \t\tCARDS_INFO = {isa = PBXFileReference; lastKnownFileType = text.plist.xml; path = Info.plist; sourceTree = "<group>"; };
        \t\tCARDS_ENTITLEMENTS = {isa = PBXFileReference; path = AcmeCards.entitlements; sourceTree = "<group>"; };
        \t\tCARDS_ART = {isa = PBXFileReference; lastKnownFileType = folder.assetcatalog; path = Art.xcassets; sourceTree = "<group>"; };
        \t\tSHARED_GROUP = {isa = PBXGroup; children = (SHARED_STORE, ); path = Shared; sourceTree = "<group>"; };
        \t\tSHARED_STORE = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = CardStore.swift; sourceTree = "<group>"; };
        \t\tLOGIN_FOLDER = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (LOGIN_EXCEPTIONS, ); path = AcmeLogin; sourceTree = "<group>"; };
        \t\tLOGIN_EXCEPTIONS = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (Info.plist, Notes/Unused.swift, ); target = LOGIN_TARGET; };
        \t\tTESTS_GROUP = {isa = PBXGroup; children = (TESTS_SWIFT, ); path = AcmeCardsTests; sourceTree = "<group>"; };
        \t\tTESTS_SWIFT = {isa = PBXFileReference; lastKnownFileType = sourcecode.swift; path = AcmeCardsTests.swift; sourceTree = "<group>"; };
        \t\tAPP_PRODUCT = {isa = PBXFileReference; explicitFileType = wrapper.application; path = AcmeBank.app; sourceTree = BUILT_PRODUCTS_DIR; };
        \t\tCARDS_PRODUCT = {isa = PBXFileReference; explicitFileType = "wrapper.app-extension"; path = AcmeCards.appex; sourceTree = BUILT_PRODUCTS_DIR; };
        \t\tLOGIN_PRODUCT = {isa = PBXFileReference; explicitFileType = "wrapper.app-extension"; path = AcmeLogin.appex; sourceTree = BUILT_PRODUCTS_DIR; };
        \t\tAPP_TARGET = {isa = PBXNativeTarget; buildConfigurationList = APP_CONFIGS; buildPhases = (APP_SOURCES, APP_RESOURCES, APP_EMBED, APP_SCRIPT, );
        \t\t\tdependencies = (APP_NEEDS_CARDS, APP_NEEDS_LOGIN, ); name = AcmeBank; productName = AcmeBank; productReference = APP_PRODUCT;
        \t\t\tproductType = "com.apple.product-type.application"; };
        \t\tAPP_SOURCES = {isa = PBXSourcesBuildPhase; files = (APP_SWIFT_BUILD, ); };
        \t\tAPP_SWIFT_BUILD = {isa = PBXBuildFile; fileRef = APP_SWIFT; };
        \t\tAPP_RESOURCES = {isa = PBXResourcesBuildPhase; files = (MAIN_STORYBOARD_BUILD, ); };
        \t\tMAIN_STORYBOARD_BUILD = {isa = PBXBuildFile; fileRef = MAIN_STORYBOARD; };
        \t\tAPP_EMBED = {isa = PBXCopyFilesBuildPhase; dstPath = ""; dstSubfolderSpec = 13; files = (CARDS_EMBED, LOGIN_EMBED, ); name = "Embed Foundation Extensions"; };
        \t\tCARDS_EMBED = {isa = PBXBuildFile; fileRef = CARDS_PRODUCT; };
        \t\tLOGIN_EMBED = {isa = PBXBuildFile; fileRef = LOGIN_PRODUCT; };
        \t\tAPP_SCRIPT = {isa = PBXShellScriptBuildPhase; name = "Upload Symbols"; shellScript = "echo upload"; };
        \t\tAPP_NEEDS_CARDS = {isa = PBXTargetDependency; target = CARDS_TARGET; };
        \t\tAPP_NEEDS_LOGIN = {isa = PBXTargetDependency; target = LOGIN_TARGET; };
        \t\tCARDS_TARGET = {isa = PBXNativeTarget; buildConfigurationList = CARDS_CONFIGS; buildPhases = (CARDS_SOURCES, CARDS_RESOURCES, ); dependencies = ( );
        \t\t\tname = AcmeCards; productReference = CARDS_PRODUCT; productType = "com.apple.product-type.app-extension"; };
        \t\tCARDS_SOURCES = {isa = PBXSourcesBuildPhase; files = (CARDS_HANDLER_BUILD, CARDS_LEGACY_BUILD, SHARED_STORE_IN_CARDS, ); };
        \t\tCARDS_HANDLER_BUILD = {isa = PBXBuildFile; fileRef = CARDS_HANDLER; };
        \t\tCARDS_LEGACY_BUILD = {isa = PBXBuildFile; fileRef = CARDS_LEGACY; };
        \t\tSHARED_STORE_IN_CARDS = {isa = PBXBuildFile; fileRef = SHARED_STORE; };
        \t\tCARDS_RESOURCES = {isa = PBXResourcesBuildPhase; files = (CARDS_ART_BUILD, ); };
        \t\tCARDS_ART_BUILD = {isa = PBXBuildFile; fileRef = CARDS_ART; };
        \t\tLOGIN_TARGET = {isa = PBXNativeTarget; buildConfigurationList = LOGIN_CONFIGS; buildPhases = (LOGIN_SOURCES, ); dependencies = ( );
        \t\t\tfileSystemSynchronizedGroups = (LOGIN_FOLDER, ); name = AcmeLogin; productReference = LOGIN_PRODUCT;
        \t\t\tproductType = "com.apple.product-type.app-extension"; };
        \t\tLOGIN_SOURCES = {isa = PBXSourcesBuildPhase; files = (SHARED_STORE_IN_LOGIN, ); };
        \t\tSHARED_STORE_IN_LOGIN = {isa = PBXBuildFile; fileRef = SHARED_STORE; };
        \t\tTESTS_TARGET = {isa = PBXNativeTarget; buildConfigurationList = TESTS_CONFIGS; buildPhases = (TESTS_SOURCES, ); dependencies = ( );
        \t\t\tname = AcmeCardsTests; productType = "com.apple.product-type.bundle.unit-test"; };
        \t\tTESTS_SOURCES = {isa = PBXSourcesBuildPhase; files = (TESTS_SWIFT_BUILD, ); };
        \t\tTESTS_SWIFT_BUILD = {isa = PBXBuildFile; fileRef = TESTS_SWIFT; };
        \t\tPROJECT_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (PROJECT_DEBUG, PROJECT_RELEASE, ); defaultConfigurationName = Release; };
        \t\tPROJECT_DEBUG = {isa = XCBuildConfiguration; baseConfigurationReference = SHARED_XCCONFIG; buildSettings = {
        \t\t\tDEVELOPMENT_TEAM = \(team); IPHONEOS_DEPLOYMENT_TARGET = 17.0; SWIFT_VERSION = 5.0; SDKROOT = iphoneos;
        \t\t\tOTHER_SWIFT_FLAGS = ("-D", ACME_DEBUG, ); }; name = Debug; };
        \t\tPROJECT_RELEASE = {isa = XCBuildConfiguration; baseConfigurationReference = SHARED_XCCONFIG; buildSettings = {
        \t\t\tDEVELOPMENT_TEAM = \(team); IPHONEOS_DEPLOYMENT_TARGET = 17.0; SWIFT_VERSION = 5.0; SDKROOT = iphoneos; }; name = Release; };
        \t\tAPP_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (APP_DEBUG, APP_RELEASE, ); defaultConfigurationName = Release; };
        \t\tAPP_DEBUG = {isa = XCBuildConfiguration; buildSettings = {\(appSettings)}; name = Debug; };
        \t\tAPP_RELEASE = {isa = XCBuildConfiguration; buildSettings = {\(appSettings)}; name = Release; };
        \t\tCARDS_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (CARDS_DEBUG, CARDS_RELEASE, ); defaultConfigurationName = Release; };
        \t\tCARDS_DEBUG = {isa = XCBuildConfiguration; buildSettings = {\(cardsSettings)}; name = Debug; };
        \t\tCARDS_RELEASE = {isa = XCBuildConfiguration; buildSettings = {\(cardsSettings)}; name = Release; };
        \t\tLOGIN_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (LOGIN_DEBUG, LOGIN_RELEASE, ); defaultConfigurationName = Release; };
        \t\tLOGIN_DEBUG = {isa = XCBuildConfiguration; buildSettings = {\(loginSettings)}; name = Debug; };
        \t\tLOGIN_RELEASE = {isa = XCBuildConfiguration; buildSettings = {\(loginSettings)}; name = Release; };
        \t\tTESTS_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (TESTS_DEBUG, TESTS_RELEASE, ); defaultConfigurationName = Release; };
        \t\tTESTS_DEBUG = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = "$(ACME_BUNDLE_PREFIX).tests"; TEST_HOST = ""; }; name = Debug; };
        \t\tTESTS_RELEASE = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = "$(ACME_BUNDLE_PREFIX).tests"; }; name = Release; };
        \t};
        \trootObject = ROOT;
        }

        """

    static let appSettings = """
        CODE_SIGN_ENTITLEMENTS = AcmeBank/AcmeBank.entitlements; GENERATE_INFOPLIST_FILE = YES;
        INFOPLIST_KEY_CFBundleDisplayName = "Acme Bank"; INFOPLIST_KEY_UIRequiresFullScreen = YES;
        PRODUCT_BUNDLE_IDENTIFIER = "$(ACME_BUNDLE_PREFIX).app"; PRODUCT_NAME = "$(TARGET_NAME)";
        """
    static let cardsSettings = """
        CODE_SIGN_ENTITLEMENTS = AcmeCards/AcmeCards.entitlements; GENERATE_INFOPLIST_FILE = YES; INFOPLIST_FILE = AcmeCards/Info.plist;
        INFOPLIST_KEY_CFBundleDisplayName = "Acme Cards"; PRODUCT_BUNDLE_IDENTIFIER = "$(ACME_BUNDLE_PREFIX).app.$(PRODUCT_NAME:lower)";
        PRODUCT_NAME = "$(TARGET_NAME)"; IPHONEOS_DEPLOYMENT_TARGET = 17.4; OTHER_SWIFT_FLAGS = ("$(inherited)", "-D", ACME_CARDS, );
        """
    static let loginSettings = """
        CODE_SIGN_ENTITLEMENTS = AcmeCards/AcmeCards.entitlements; GENERATE_INFOPLIST_FILE = YES; INFOPLIST_FILE = AcmeLogin/Info.plist;
        INFOPLIST_KEY_CFBundleDisplayName = "Acme Login"; PRODUCT_BUNDLE_IDENTIFIER = "$(ACME_BUNDLE_PREFIX).app.login";
        PRODUCT_NAME = "$(TARGET_NAME)"; SWIFT_VERSION = 6.0;
        """

    static let handlerSource = """
        import PassKit
        import UIKit

        /// The non-UI extension: one card, its art from the asset catalog, its title from the App Group.
        final class AcmeCardsHandler: PKIssuerProvisioningExtensionHandler {
            override func status(completion: @escaping (PKIssuerProvisioningExtensionStatus) -> Void) {
                let status = PKIssuerProvisioningExtensionStatus()
                status.requiresAuthentication = !CardStore.isLoggedIn
                status.passEntriesAvailable = true
                status.remotePassEntriesAvailable = false
                completion(status)
            }

            override func passEntries(completion: @escaping ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
                guard let art = UIImage(named: "acme-card")?.cgImage,
                      let configuration = PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2) else {
                    completion([])
                    return
                }
                configuration.cardholderName = "Ada Acme"
                configuration.primaryAccountSuffix = "4321"
                configuration.primaryAccountIdentifier = "acme-card-1"
                configuration.paymentNetwork = .visa
                configuration.localizedDescription = CardStore.cardTitle
                configuration.style = .payment
                let entry = PKIssuerProvisioningExtensionPaymentPassEntry(identifier: "acme-card-1", title: CardStore.cardTitle, art: art,
                                                                          addRequestConfiguration: configuration)
                completion(entry.map { [$0] } ?? [])
            }

            override func remotePassEntries(completion: @escaping ([PKIssuerProvisioningExtensionPassEntry]) -> Void) {
                completion([])
            }

            override func generateAddPaymentPassRequestForPassEntryWithIdentifier(
                _ identifier: String, configuration: PKAddPaymentPassRequestConfiguration, certificateChain certificates: [Data],
                nonce: Data, nonceSignature: Data, completionHandler completion: @escaping (PKAddPaymentPassRequest?) -> Void
            ) {
                completion(nil)
            }
        }

        """

    static let sharedSource = """
        import Foundation

        /// Compiled into both extensions (one file, two targets): what the app stored at login.
        enum CardStore {
            static let appGroup = "\(appGroup)"
            static var isLoggedIn: Bool { UserDefaults(suiteName: appGroup)?.string(forKey: "AcmeSession") != nil }
            static var cardTitle: String { UserDefaults(suiteName: appGroup)?.string(forKey: "AcmeCardTitle") ?? "Acme Card" }
        }

        """

    static let loginSource = """
        import PassKit
        import UIKit

        /// The UI extension's principal class: an alert whose Approve authorizes and Cancel cancels.
        final class LoginViewController: UIViewController, PKIssuerProvisioningExtensionAuthorizationProviding {
            var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)?

            override func viewDidAppear(_ animated: Bool) {
                super.viewDidAppear(animated)
                let alert = UIAlertController(title: "Sign in to Acme", message: CardStore.cardTitle, preferredStyle: .alert)
                alert.addAction(UIAlertAction(title: "Approve", style: .default) { [weak self] _ in self?.completionHandler?(.authorized) })
                alert.addAction(UIAlertAction(title: "Cancel", style: .cancel) { [weak self] _ in self?.completionHandler?(.canceled) })
                present(alert, animated: true)
            }
        }

        """
}
