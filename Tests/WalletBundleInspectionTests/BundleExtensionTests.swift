import Foundation
import Testing
import WalletBundleInspection
import WalletWire

/// The `NSExtension` dictionary, OS version and entitlement of a single extension.
@Suite("Bundle extension manifest checks")
struct BundleExtensionTests {
    private let nonUIPlist = "Issuer.app/PlugIns/WNonUIExt.appex/Info.plist"
    private let uiPlist = "Issuer.app/PlugIns/WUIExt.appex/Info.plist"

    /// The app fixture with its UI extension (the second) changed.
    private func withUIExtension(_ change: (ExtensionFixture) -> ExtensionFixture) -> AppFixture {
        var app = AppFixture()
        app.extensions[1] = change(app.extensions[1])
        return app
    }

    @Test func missingExtensionDictionaryIsAnError() throws {
        let (app, findings) = try loadFixture(withFirstExtension { $0.setting("NSExtension", to: nil) })
        #expect(app == nil)
        expectFinding(findings, .error, key: "NSExtension", pathSuffix: nonUIPlist, mentioning: "missing")
    }

    @Test func extensionValueThatIsNotADictionaryIsAnError() throws {
        let (_, findings) = try loadFixture(withFirstExtension { $0.setting("NSExtension", to: "yes") })
        expectFinding(findings, .error, key: "NSExtension", pathSuffix: nonUIPlist, mentioning: "is a string, not a dictionary")
    }

    @Test func missingExtensionPointIsAnError() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            $0.setting("NSExtension.NSExtensionPointIdentifier", to: nil)
        })
        expectFinding(findings, .error, key: "NSExtension.NSExtensionPointIdentifier", pathSuffix: nonUIPlist,
                      mentioning: "missing")
    }

    @Test func unknownExtensionPointIsAnErrorListingTheKnownOnes() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            $0.setting("NSExtension.NSExtensionPointIdentifier", to: "com.apple.widgetkit-extension")
        })
        expectFinding(findings, .error, key: "NSExtension.NSExtensionPointIdentifier", pathSuffix: nonUIPlist,
                      mentioning: "\"com.apple.widgetkit-extension\" is not a known extension point",
                      WalletExtensionPoint.nonUI, WalletExtensionPoint.authorization)
    }

    @Test func missingPrincipalClassRendersTheDocumentedLine() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            $0.setting("NSExtension.NSExtensionPrincipalClass", to: nil)
        })
        let finding = expectFinding(findings, .error, key: "NSExtension.NSExtensionPrincipalClass", pathSuffix: nonUIPlist)
        #expect(finding?.problem == "missing (required for com.apple.PassKit.issuer-provisioning)")
        #expect(finding?.description.hasPrefix("error: /") == true)
        #expect(finding?.description.hasSuffix(
            "/\(nonUIPlist): NSExtension.NSExtensionPrincipalClass: missing (required for com.apple.PassKit.issuer-provisioning)") == true)
    }

    @Test func uiExtensionMayUseAStoryboardInstead() throws {
        let (app, findings) = try loadFixture(withUIExtension {
            $0.setting("NSExtension.NSExtensionPrincipalClass", to: nil)
                .setting("NSExtension.NSExtensionMainStoryboard", to: "MainInterface")
        })
        expectNoErrors(findings)
        expectFinding(findings, .note, key: "NSExtension.NSExtensionMainStoryboard", pathSuffix: uiPlist,
                      mentioning: "cannot read storyboards")
        let ui = app?.extensionBundle(forPoint: WalletExtensionPoint.authorization)
        #expect(ui?.principalClass == nil)
        #expect(ui?.mainStoryboard == "MainInterface")
    }

    @Test func uiExtensionWithNeitherPrincipalClassNorStoryboardIsAnError() throws {
        let (_, findings) = try loadFixture(withUIExtension { $0.setting("NSExtension.NSExtensionPrincipalClass", to: nil) })
        expectFinding(findings, .error, key: "NSExtension.NSExtensionPrincipalClass", pathSuffix: uiPlist,
                      mentioning: "unless NSExtensionMainStoryboard is set")
    }

    /// Issue 33, bug 2: Apple's sample ships both keys; this was an error.
    @Test func principalClassAndStoryboardTogetherAreAcceptedAndValidateSaysWhichIsUsed() throws {
        let (app, findings) = try loadFixture(withUIExtension {
            $0.setting("NSExtension.NSExtensionMainStoryboard", to: "MainInterface")
        })
        expectNoErrors(findings)
        expectFinding(findings, .note, key: "NSExtension.NSExtensionMainStoryboard", pathSuffix: uiPlist,
                      mentioning: "\"MainInterface\" is set beside NSExtensionPrincipalClass", "the host uses the principal class")
        let ui = app?.extensionBundle(forPoint: WalletExtensionPoint.authorization)
        #expect(ui?.principalClass != nil && ui?.mainStoryboard == "MainInterface")
    }

    @Test func nonUIExtensionWithAStoryboardIsAnError() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            $0.setting("NSExtension.NSExtensionPrincipalClass", to: nil)
                .setting("NSExtension.NSExtensionMainStoryboard", to: "MainInterface")
        })
        expectFinding(findings, .error, key: "NSExtension.NSExtensionMainStoryboard", pathSuffix: nonUIPlist,
                      mentioning: "not allowed for com.apple.PassKit.issuer-provisioning, a non-UI extension point")
    }

    @Test func principalClassInAnotherModuleIsAWarning() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            $0.setting("NSExtension.NSExtensionPrincipalClass", to: "OtherModule.Handler")
        })
        expectFinding(findings, .warning, key: "NSExtension.NSExtensionPrincipalClass", pathSuffix: nonUIPlist,
                      mentioning: "is in module OtherModule, but the extension's module is WNonUIExt")
    }

    @Test func unqualifiedPrincipalClassIsANote() throws {
        let (app, findings) = try loadFixture(withFirstExtension {
            $0.setting("NSExtension.NSExtensionPrincipalClass", to: "Handler")
        })
        expectFinding(findings, .note, key: "NSExtension.NSExtensionPrincipalClass", pathSuffix: nonUIPlist,
                      mentioning: "WNonUIExt.Handler")
        #expect(app != nil)
    }

    @Test func minimumOSVersionBelow14IsAWarning() throws {
        let (app, findings) = try loadFixture(withFirstExtension { $0.setting("MinimumOSVersion", to: "13.4") })
        expectFinding(findings, .warning, key: "MinimumOSVersion", pathSuffix: nonUIPlist,
                      mentioning: "13.4 is below 14.0", "iOS 14.0")
        #expect(app != nil)
    }

    @Test func minimumSystemVersionBelow14IsAWarning() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            $0.setting("MinimumOSVersion", to: nil).setting("LSMinimumSystemVersion", to: "12")
        })
        expectFinding(findings, .warning, key: "LSMinimumSystemVersion", pathSuffix: nonUIPlist, mentioning: "12 is below 14.0")
    }

    @Test func minimumOSVersion14WithoutMinorIsFine() throws {
        let (app, findings) = try loadFixture(withFirstExtension { $0.setting("MinimumOSVersion", to: "14") })
        #expect(findings.allSatisfy { $0.key != "MinimumOSVersion" })
        #expect(app?.extensions.first?.minimumOSVersion == "14")
    }

    @Test func unparsableMinimumOSVersionIsAWarning() throws {
        let (_, findings) = try loadFixture(withFirstExtension { $0.setting("MinimumOSVersion", to: "fourteen") })
        expectFinding(findings, .warning, key: "MinimumOSVersion", pathSuffix: nonUIPlist, mentioning: "is not a version number")
    }

    @Test func extensionWithoutProvisioningEntitlementIsAWarning() throws {
        let (app, findings) = try loadFixture(withFirstExtension {
            var appExtension = $0
            appExtension.entitlements = ["com.apple.security.application-groups": [BundleFixtureDefaults.appGroup]]
            return appExtension
        })
        expectFinding(findings, .warning, key: "com.apple.developer.payment-pass-provisioning",
                      pathSuffix: "WNonUIExt.appex/WNonUIExt.entitlements",
                      mentioning: "missing", "Wallet would not load this extension on a device")
        #expect(app != nil)
    }

    @Test func provisioningEntitlementSetToFalseIsAWarning() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            var appExtension = $0
            appExtension.entitlements?["com.apple.developer.payment-pass-provisioning"] = false
            return appExtension
        })
        expectFinding(findings, .warning, key: "com.apple.developer.payment-pass-provisioning",
                      pathSuffix: "WNonUIExt.entitlements", mentioning: "is false")
    }

    @Test func provisioningEntitlementOfTheWrongTypeIsAnError() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            var appExtension = $0
            appExtension.entitlements?["com.apple.developer.payment-pass-provisioning"] = "YES"
            return appExtension
        })
        expectFinding(findings, .error, key: "com.apple.developer.payment-pass-provisioning",
                      pathSuffix: "WNonUIExt.entitlements", mentioning: "is a string, not a Boolean")
    }

    @Test func appGroupsOfTheWrongTypeAreAnError() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            var appExtension = $0
            appExtension.entitlements?["com.apple.security.application-groups"] = BundleFixtureDefaults.appGroup
            return appExtension
        })
        expectFinding(findings, .error, key: "com.apple.security.application-groups",
                      pathSuffix: "WNonUIExt.entitlements", mentioning: "is a string, not an array of strings")
    }

    @Test func extensionWithoutEntitlementsFileIsAWarningOnTheBundle() throws {
        var app = AppFixture()
        app.entitlements = nil
        for index in app.extensions.indices {
            app.extensions[index].entitlements = nil
        }
        let (loaded, findings) = try loadFixture(app)
        expectFinding(findings, .warning, key: "com.apple.developer.payment-pass-provisioning",
                      pathSuffix: "PlugIns/WNonUIExt.appex", mentioning: "the bundle has no .entitlements file")
        #expect(loaded?.appGroups == [])
    }
}
