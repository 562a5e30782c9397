import Foundation
import Testing
import Wallet
import WalletBundleInspection
import WalletTestSupport
import WalletWire

/// The checks that look at an app and its extensions together.
@Suite("Bundle containing-app checks")
struct BundleAppTests {
    private let nonUIPlist = "Issuer.app/PlugIns/WNonUIExt.appex/Info.plist"

    @Test func extensionIdentifierNotPrefixedByTheAppsIsAnError() throws {
        let (app, findings) = try loadFixture(withFirstExtension {
            $0.setting("CFBundleIdentifier", to: "com.example.issuerx.WNonUIExt")
        })
        #expect(app == nil)
        expectFinding(findings, .error, key: "CFBundleIdentifier", pathSuffix: nonUIPlist,
                      mentioning: "\"com.example.issuerx.WNonUIExt\" does not start with", "\"com.example.issuer.\"")
    }

    @Test func appWithoutProvisioningEntitlementIsAWarning() throws {
        var fixture = AppFixture()
        fixture.entitlements?["com.apple.developer.payment-pass-provisioning"] = nil
        let (app, findings) = try loadFixture(fixture)
        expectFinding(findings, .warning, key: "com.apple.developer.payment-pass-provisioning",
                      pathSuffix: "Issuer.app/Issuer.entitlements",
                      mentioning: "missing", "Wallet would not load this app's extensions on a device")
        #expect(app != nil)
    }

    @Test func appGroupsThatDifferAreAnErrorNamingBothSides() throws {
        let (app, findings) = try loadFixture(withFirstExtension {
            var appExtension = $0
            appExtension.entitlements?["com.apple.security.application-groups"] = ["group.com.example.other"]
            return appExtension
        })
        #expect(app == nil)
        expectFinding(findings, .error, key: "com.apple.security.application-groups",
                      pathSuffix: "WNonUIExt.appex/WNonUIExt.entitlements",
                      mentioning: "only the extension has group.com.example.other",
                      "only the app has group.com.example.issuer",
                      "walletExtensionAppGroupIDNotFound")
    }

    /// Issue 33, bug 4: an app with an analytics group its extensions lack, or an extension in
    /// no group, was refused as "differ from the containing app"; iOS has no such rule.
    @Test func extensionGroupsThatAreASubsetOfTheAppsOrNoneAreAccepted() throws {
        var fixture = AppFixture()
        fixture.entitlements?["com.apple.security.application-groups"] = [BundleFixtureDefaults.appGroup, "group.com.example.analytics"]
        let (app, findings) = try loadFixture(fixture)
        expectNoErrors(findings)
        #expect(app != nil)
        let (noGroup, noGroupFindings) = try loadFixture(withFirstExtension {
            var appExtension = $0
            appExtension.entitlements?["com.apple.security.application-groups"] = nil
            return appExtension
        })
        expectNoErrors(noGroupFindings)
        #expect(noGroup != nil)
    }

    @Test func nonUIExtensionWithoutUIPartnerIsAWarning() throws {
        var fixture = AppFixture()
        fixture.extensions = [.nonUI()]
        let (app, findings) = try loadFixture(fixture)
        expectFinding(findings, .warning, key: "PlugIns", pathSuffix: "Issuer.app",
                      mentioning: "has a non-UI extension (WNonUIExt.appex) but no UI extension",
                      "requiresAuthentication")
        #expect(app?.extensions.count == 1)
    }

    @Test func uiExtensionWithoutNonUIPartnerIsAWarning() throws {
        var fixture = AppFixture()
        fixture.extensions = [.ui()]
        let (_, findings) = try loadFixture(fixture)
        expectFinding(findings, .warning, key: "PlugIns", pathSuffix: "Issuer.app",
                      mentioning: "has a UI extension (WUIExt.appex) but no non-UI extension", "never list this app")
    }

    @Test func appWithoutExtensionsIsAWarning() throws {
        var fixture = AppFixture()
        fixture.extensions = []
        let (app, findings) = try loadFixture(fixture)
        expectFinding(findings, .warning, key: "PlugIns", pathSuffix: "Issuer.app", mentioning: "has no .appex extensions")
        #expect(app?.extensions == [])
    }

    @Test func twoExtensionsOfOnePointAreAnError() throws {
        var fixture = AppFixture()
        fixture.extensions.append(.nonUI(name: "WNonUIExt2"))
        let (app, findings) = try loadFixture(fixture)
        #expect(app == nil)
        expectFinding(findings, .error, key: "PlugIns", pathSuffix: "Issuer.app",
                      mentioning: "WNonUIExt.appex, WNonUIExt2.appex all use com.apple.PassKit.issuer-provisioning")
    }

    @Test func twoExtensionsWithOneIdentifierAreAnError() throws {
        var fixture = AppFixture()
        fixture.extensions[1] = fixture.extensions[1].setting("CFBundleIdentifier", to: "com.example.issuer.WNonUIExt")
        let (_, findings) = try loadFixture(fixture)
        expectFinding(findings, .error, key: "CFBundleIdentifier", pathSuffix: "WUIExt.appex/Info.plist",
                      mentioning: "is also the identifier of WNonUIExt.appex")
    }

    @Test func loneExtensionInsideAnAppIsCheckedAgainstIt() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let appURL = try AppFixture().write(in: directory.url)
        let loader = BundleLoader.wallet

        let (inside, insideFindings) = loader.loadExtension(at: appURL.appendingPathComponent("PlugIns/WNonUIExt.appex"))
        expectNoErrors(insideFindings)
        #expect(inside?.containingAppBundleIdentifier == "com.example.issuer")
        #expect(inside?.extensionPoint.identifier == WalletExtensionPoint.nonUI)

        let badlyNamed = try ExtensionFixture.nonUI(appIdentifier: "com.example.other")
            .write(in: appURL.appendingPathComponent("PlugIns"))
        let (_, badFindings) = loader.loadExtension(at: badlyNamed)
        expectFinding(badFindings, .error, key: "CFBundleIdentifier", pathSuffix: nonUIPlist, mentioning: "does not start with")
    }

    @Test func loneExtensionOutsideAnAppHasNoContainingApp() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try ExtensionFixture.nonUI().write(in: directory.url)
        let (bundle, findings) = BundleLoader.wallet.loadExtension(at: url)
        expectNoErrors(findings)
        #expect(bundle != nil)
        #expect(bundle?.containingAppBundleIdentifier == nil)
    }
}
