import Foundation
import Testing
import Wallet
import WalletBundleInspection
import WalletTestSupport

/// Info.plist, identity keys and the executable: the checks every bundle goes through.
@Suite("Bundle manifest and executable checks")
struct BundleManifestTests {
    private let nonUIPlist = "Issuer.app/PlugIns/WNonUIExt.appex/Info.plist"

    /// Writes an app whose non-UI extension's Info.plist holds these raw bytes instead of a good manifest.
    private func loadWithRawExtensionPlist(_ text: String?) throws -> [ValidationFinding] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let appURL = try AppFixture().write(in: directory.url)
        let plistURL = appURL.appendingPathComponent("PlugIns/WNonUIExt.appex/Info.plist")
        try FileManager.default.removeItem(at: plistURL)
        if let text {
            try Data(text.utf8).write(to: plistURL)
        }
        let (app, findings) = BundleLoader.wallet.loadApp(at: appURL)
        #expect(app == nil)
        return findings
    }

    @Test func missingInfoPlistIsAnError() throws {
        let findings = try loadWithRawExtensionPlist(nil)
        expectFinding(findings, .error, key: "(file)", pathSuffix: nonUIPlist, mentioning: "missing")
    }

    @Test func malformedInfoPlistNamesTheParseProblem() throws {
        let findings = try loadWithRawExtensionPlist(
            "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n<key>CFBundleIdentifier</key>\n</dict>\n</plist>\n")
        let finding = expectFinding(findings, .error, key: "(file)", pathSuffix: nonUIPlist,
                                    mentioning: "is not a valid XML or binary property list")
        // The parser's own words name what is wrong and where.
        #expect(finding?.problem.contains("line") == true)
    }

    @Test func emptyInfoPlistIsAnError() throws {
        let findings = try loadWithRawExtensionPlist("")
        expectFinding(findings, .error, key: "(file)", pathSuffix: nonUIPlist, mentioning: "is empty")
    }

    @Test func infoPlistThatIsNotADictionaryIsAnError() throws {
        let findings = try loadWithRawExtensionPlist(
            "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><array><string>x</string></array></plist>\n")
        expectFinding(findings, .error, key: "(file)", pathSuffix: nonUIPlist,
                      mentioning: "the top level is an array, not a dictionary")
    }

    @Test func missingBundleIdentifierIsAnError() throws {
        let (app, findings) = try loadFixture(withFirstExtension { $0.setting("CFBundleIdentifier", to: nil) })
        #expect(app == nil)
        expectFinding(findings, .error, key: "CFBundleIdentifier", pathSuffix: nonUIPlist, mentioning: "missing")
    }

    @Test func bundleIdentifierOfTheWrongTypeIsAnError() throws {
        let (_, findings) = try loadFixture(withFirstExtension { $0.setting("CFBundleIdentifier", to: 42) })
        expectFinding(findings, .error, key: "CFBundleIdentifier", pathSuffix: nonUIPlist,
                      mentioning: "is an integer, not a string")
    }

    @Test func bundleIdentifierWithABuildVariableIsAnError() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            $0.setting("CFBundleIdentifier", to: "$(PRODUCT_BUNDLE_IDENTIFIER)")
        })
        expectFinding(findings, .error, key: "CFBundleIdentifier", pathSuffix: nonUIPlist, mentioning: "holds a build variable")
    }

    @Test func bundleIdentifierWithASpaceIsAnError() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            $0.setting("CFBundleIdentifier", to: "com.example.issuer.W NonUI")
        })
        expectFinding(findings, .error, key: "CFBundleIdentifier", pathSuffix: nonUIPlist, mentioning: "contains \" \"")
    }

    @Test func missingBundleExecutableKeyIsAnError() throws {
        let (_, findings) = try loadFixture(withFirstExtension { $0.setting("CFBundleExecutable", to: nil) })
        expectFinding(findings, .error, key: "CFBundleExecutable", pathSuffix: nonUIPlist, mentioning: "missing")
    }

    @Test func missingExecutableFileIsAnError() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            var appExtension = $0
            appExtension.executable = .none
            return appExtension
        })
        expectFinding(findings, .error, key: "CFBundleExecutable", pathSuffix: nonUIPlist,
                      mentioning: "names \"WNonUIExt\", which does not exist in the bundle")
    }

    @Test func executableWithoutExecuteBitIsAnError() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            var appExtension = $0
            appExtension.executable = .notExecutable
            return appExtension
        })
        expectFinding(findings, .error, key: "CFBundleExecutable", pathSuffix: nonUIPlist,
                      mentioning: "is not executable (mode 644)", "chmod +x")
    }

    @Test func executablePathWithDotDotIsAnError() throws {
        let (_, findings) = try loadFixture(withFirstExtension { $0.setting("CFBundleExecutable", to: "../../Issuer") })
        expectFinding(findings, .error, key: "CFBundleExecutable", pathSuffix: nonUIPlist,
                      mentioning: "has a \"..\" component")
    }

    @Test func absoluteExecutablePathIsAnError() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            var appExtension = $0.setting("CFBundleExecutable", to: "/bin/sh")
            appExtension.executable = .none
            return appExtension
        })
        expectFinding(findings, .error, key: "CFBundleExecutable", pathSuffix: nonUIPlist, mentioning: "is an absolute path")
    }

    @Test func executableSymlinkLeavingTheBundleIsAnError() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            var appExtension = $0
            appExtension.executable = .symlink(to: "/bin/sh")
            return appExtension
        })
        expectFinding(findings, .error, key: "CFBundleExecutable", pathSuffix: nonUIPlist,
                      mentioning: "outside the bundle directory")
    }

    @Test func executableSymlinkInsideTheBundleIsFine() throws {
        let (app, findings) = try loadFixture(withFirstExtension {
            var appExtension = $0.setting("CFBundleExecutable", to: "WNonUIExtLink")
            appExtension.executable = .symlink(to: "WNonUIExtReal")
            return appExtension
        }.addingFile("PlugIns/WNonUIExt.appex/WNonUIExtReal"))
        expectNoErrors(findings)
        #expect(app?.extensions.first?.executableURL.lastPathComponent == "WNonUIExtLink")
    }

    @Test func machOExecutableIsAnError() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            var appExtension = $0
            appExtension.executable = .machO
            return appExtension
        })
        expectFinding(findings, .error, key: "CFBundleExecutable", pathSuffix: nonUIPlist, mentioning: "Mach-O")
    }

    @Test func emptyExecutableIsAnError() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            var appExtension = $0
            appExtension.executable = .empty
            return appExtension
        })
        expectFinding(findings, .error, key: "CFBundleExecutable", pathSuffix: nonUIPlist, mentioning: "which is empty")
    }

    @Test func danglingExecutableSymlinkIsAnError() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            var appExtension = $0
            appExtension.executable = .symlink(to: "Nowhere")
            return appExtension
        })
        expectFinding(findings, .error, key: "CFBundleExecutable", pathSuffix: nonUIPlist,
                      mentioning: "a symbolic link whose target does not exist")
    }

    @Test func appWithoutExecutableFileStillLoads() throws {
        var fixture = AppFixture()
        fixture.executable = .none
        let (app, findings) = try loadFixture(fixture)
        expectFinding(findings, .warning, key: "CFBundleExecutable", pathSuffix: "Issuer.app/Info.plist",
                      mentioning: "the host cannot launch the containing app")
        #expect(app != nil)
        #expect(app?.executableURL == nil)
    }

    @Test func wrongPackageTypeIsAWarning() throws {
        let (_, findings) = try loadFixture(withFirstExtension { $0.setting("CFBundlePackageType", to: "APPL") })
        expectFinding(findings, .warning, key: "CFBundlePackageType", pathSuffix: nonUIPlist,
                      mentioning: "is \"APPL\", but a .appex bundle has \"XPC!\"")
    }

    @Test func unknownBuildVariableIsAWarningNamingItsKeyPath() throws {
        let (app, findings) = try loadFixture(withFirstExtension {
            $0.setting("NSExtension.NSExtensionAttributes.Team", to: "$(DEVELOPMENT_TEAM)")
        })
        expectFinding(findings, .warning, key: "NSExtension.NSExtensionAttributes.Team", pathSuffix: nonUIPlist,
                      mentioning: "unknown build variable $(DEVELOPMENT_TEAM)")
        #expect(app != nil)
    }

    @Test func unterminatedBuildVariableIsAWarning() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            $0.setting("NSExtension.NSExtensionAttributes.Name", to: "x$(PRODUCT_NAME")
        })
        expectFinding(findings, .warning, key: "NSExtension.NSExtensionAttributes.Name", pathSuffix: nonUIPlist,
                      mentioning: "without its closing bracket")
    }

    @Test func moduleNameFollowsXcode() throws {
        let (app, findings) = try loadFixture(withFirstExtension {
            $0.setting("CFBundleExecutable", to: "2Pay-Ext")
                .setting("NSExtension.NSExtensionPrincipalClass", to: "$(PRODUCT_MODULE_NAME).Handler")
        })
        expectNoErrors(findings)
        let nonUI = app?.extensions.first
        #expect(nonUI?.moduleName == "_Pay_Ext")
        #expect(nonUI?.principalClass == "_Pay_Ext.Handler")
    }
}
