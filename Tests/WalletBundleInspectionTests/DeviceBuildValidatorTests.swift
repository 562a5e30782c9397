import DeviceBuildFixtures
import Foundation
import Wallet
#if canImport(Glibc)
import Glibc
#endif
import Testing
import WalletTestSupport
import WalletBundleInspection

/// One way to break the MyIssuer build, and the finding it must produce.
struct Breakage: Sendable, CustomTestStringConvertible {
    var name: String
    var change: @Sendable (inout IssuerBuildFixture) -> Void
    var severity: ValidationFinding.Severity
    var check: DeviceBuildCheck
    var pathSuffix: String
    var key: String
    var fragment: String
    /// Checks besides ``check`` that may also report the breakage (one cause, several symptoms).
    var alsoReportedBy: [DeviceBuildCheck] = []
    var options = DeviceBuildOptions()

    var testDescription: String { name }
}

extension IssuerBuildFixture {
    static let nonUI = "MyIssuerNonUI.appex"
    static let ui = "MyIssuerUI.appex"

    /// Signs `value` for `key` into a bundle and lets its profile allow it, so that only the
    /// check under test objects.
    mutating func sign(_ key: String, _ value: Any?, into bundle: String?) {
        func apply(_ target: inout Bundle) {
            target.entitlements[key] = value
            var profile = target.profile!
            var allowed = profile["Entitlements"] as! [String: Any]
            allowed[key] = value
            profile["Entitlements"] = allowed
            target.profile = profile
        }
        if let bundle { apply(&self[extension: bundle]) } else { apply(&app) }
    }
}

/// `DeviceBuildValidator` on builds made in code: the MyIssuer build passes every check as an
/// `.ipa`, an `.xcarchive` and a built `.app`; each breakage gives its one finding, with the
/// check's id and the symptom a device would show.
@Suite("device build validation (.ipa, .xcarchive, built .app)")
struct DeviceBuildValidatorTests {
    static func validateIPA(_ build: IssuerBuildFixture, options: DeviceBuildOptions = DeviceBuildOptions()) throws -> [ValidationFinding] {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent("MyIssuer.ipa")
        try build.writeIPA(to: url)
        let (findings, count) = DeviceBuildValidator.wallet(options: options).validate(ipa: url)
        #expect(count == 1 + build.extensions.count)
        return findings
    }

    static func rendered(_ findings: [ValidationFinding]) -> String {
        findings.map(\.description).joined(separator: "\n")
    }

    @Test func theMyIssuerBuildPassesAsAnIPA() throws {
        let findings = try Self.validateIPA(.myIssuer())
        #expect(findings.isEmpty, "\(Self.rendered(findings))")
    }

    @Test func theMyIssuerBuildPassesAsAnXcarchiveAndAsABuiltApp() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let archive = directory.url.appendingPathComponent("MyIssuer.xcarchive")
        try IssuerBuildFixture.myIssuer().writeXCArchive(to: archive)
        let report = BundleLoader.wallet.validate(paths: [archive, archive.appendingPathComponent("Products/Applications/MyIssuer.app")])
        #expect(report.findings.isEmpty, "\(Self.rendered(report.findings))")
        #expect(report.summary == "6 bundles, 0 errors, 0 warnings")
        #expect(report.checksRun == DeviceBuildCheck.allCases.map(\.rawValue))
    }

    @Test("an .ipa unpacked into a directory is checked like the archive")
    func unpackedIPA() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let unpacked = directory.url.appendingPathComponent("MyIssuer.ipa")
        try IssuerBuildFixture.myIssuer().write(into: unpacked.appendingPathComponent("Payload"))
        let report = BundleLoader.wallet.validate(paths: [unpacked])
        #expect(report.findings.isEmpty, "\(Self.rendered(report.findings))")
        #expect(report.bundleCount == 3)
    }

    @Test("universal binaries and XML Info.plists read as well as thin ones and binary ones")
    func universalAndXML() throws {
        var build = IssuerBuildFixture.myIssuer()
        build.app.universal = true
        build[extension: IssuerBuildFixture.nonUI].universal = true
        build[extension: IssuerBuildFixture.ui].xmlInfoPlist = true
        let findings = try Self.validateIPA(build)
        #expect(findings.isEmpty, "\(Self.rendered(findings))")
    }

    static let breakages: [Breakage] = [
        Breakage(name: "UI extension signed without payment-pass-provisioning",
                 change: { $0[extension: IssuerBuildFixture.ui].entitlements["com.apple.developer.payment-pass-provisioning"] = nil },
                 severity: .error, check: .paymentPassEntitlement, pathSuffix: "MyIssuerUI.appex/MyIssuerUI",
                 key: "com.apple.developer.payment-pass-provisioning", fragment: "Wallet will not load this extension, so it will not list the app"),
        Breakage(name: "app signed with payment-pass-provisioning false",
                 change: { $0.sign("com.apple.developer.payment-pass-provisioning", false, into: nil) },
                 severity: .error, check: .paymentPassEntitlement, pathSuffix: "MyIssuer.app/MyIssuer",
                 key: "com.apple.developer.payment-pass-provisioning", fragment: "is false in MyIssuer.app's signed entitlements"),
        Breakage(name: "non-UI extension in another App Group",
                 change: { $0.sign("com.apple.security.application-groups", ["group.com.example.other"], into: IssuerBuildFixture.nonUI) },
                 severity: .error, check: .appGroups, pathSuffix: "MyIssuerNonUI.appex/MyIssuerNonUI",
                 key: "com.apple.security.application-groups",
                 fragment: "only MyIssuerNonUI.appex has group.com.example.other; only the app has group.com.example.myissuer; on a device the extension cannot reach the app's data and Wallet fails with walletExtensionAppGroupIDNotFound"),
        Breakage(name: "App Group without the group. prefix",
                 change: { build in
                     for bundle in [nil, IssuerBuildFixture.nonUI, IssuerBuildFixture.ui] { build.sign("com.apple.security.application-groups", ["com.example.shared"], into: bundle) }
                 },
                 severity: .warning, check: .appGroups, pathSuffix: "MyIssuer.app/MyIssuer", key: "com.apple.security.application-groups",
                 fragment: "does not start with \"group.\""),
        Breakage(name: "keychain group outside the team",
                 change: { build in
                     for bundle in [nil, IssuerBuildFixture.nonUI, IssuerBuildFixture.ui] { build.sign("keychain-access-groups", ["ZZZZZZZZZZ.com.example.shared"], into: bundle) }
                 },
                 severity: .error, check: .keychainGroups, pathSuffix: "MyIssuerUI.appex/MyIssuerUI", key: "keychain-access-groups",
                 fragment: "does not start with the team prefix \"A1B2C3D4E5.\""),
        Breakage(name: "UI extension without the app's keychain group",
                 change: { $0.sign("keychain-access-groups", ["A1B2C3D4E5.com.example.myissuer.ui"], into: IssuerBuildFixture.ui) },
                 severity: .warning, check: .keychainGroups, pathSuffix: "MyIssuerUI.appex/MyIssuerUI", key: "keychain-access-groups",
                 fragment: "(errSecItemNotFound)"),
        Breakage(name: "extension identifier not prefixed by the app's",
                 change: { $0[extension: IssuerBuildFixture.nonUI].info["CFBundleIdentifier"] = "com.example.other.NonUI" },
                 severity: .error, check: .extensionIdentifierPrefix, pathSuffix: "MyIssuerNonUI.appex/Info.plist", key: "CFBundleIdentifier",
                 fragment: "does not start with the app's identifier and a dot (\"com.example.myissuer.\")"),
        Breakage(name: "no non-UI extension",
                 change: { $0.extensions.removeAll { $0.directoryName == IssuerBuildFixture.nonUI } },
                 severity: .error, check: .extensionPoints, pathSuffix: "MyIssuer.app/PlugIns", key: "NSExtension.NSExtensionPointIdentifier",
                 fragment: "no extension uses com.apple.PassKit.issuer-provisioning; Wallet asks that extension for status"),
        Breakage(name: "no UI extension",
                 change: { $0.extensions.removeAll { $0.directoryName == IssuerBuildFixture.ui } },
                 severity: .warning, check: .extensionPoints, pathSuffix: "MyIssuer.app/PlugIns", key: "NSExtension.NSExtensionPointIdentifier",
                 fragment: "fine only while status never says requiresAuthentication"),
        Breakage(name: "two non-UI extensions",
                 change: { build in
                     var copy = build[extension: IssuerBuildFixture.nonUI]
                     copy.directoryName = "Second.appex"
                     copy.info["CFBundleIdentifier"] = "com.example.myissuer.Second"
                     build.extensions.append(copy)
                 },
                 severity: .error, check: .extensionPoints, pathSuffix: "MyIssuer.app/PlugIns", key: "NSExtension.NSExtensionPointIdentifier",
                 fragment: "MyIssuerNonUI.appex, Second.appex all use com.apple.PassKit.issuer-provisioning"),
        Breakage(name: "no principal class",
                 change: { build in
                     var extensionDictionary = build[extension: IssuerBuildFixture.nonUI].info["NSExtension"] as! [String: Any]
                     extensionDictionary["NSExtensionPrincipalClass"] = nil
                     build[extension: IssuerBuildFixture.nonUI].info["NSExtension"] = extensionDictionary
                 },
                 severity: .error, check: .principalClass, pathSuffix: "MyIssuerNonUI.appex/Info.plist", key: "NSExtension.NSExtensionPrincipalClass",
                 fragment: "missing; the extension has no class to instantiate"),
        Breakage(name: "principal class not in the executable",
                 change: { build in
                     var extensionDictionary = build[extension: IssuerBuildFixture.nonUI].info["NSExtension"] as! [String: Any]
                     extensionDictionary["NSExtensionPrincipalClass"] = "MyIssuerNonUI.ActionRequestHandler"
                     build[extension: IssuerBuildFixture.nonUI].info["NSExtension"] = extensionDictionary
                 },
                 severity: .error, check: .principalClass, pathSuffix: "MyIssuerNonUI.appex/Info.plist", key: "NSExtension.NSExtensionPrincipalClass",
                 fragment: "\"MyIssuerNonUI.ActionRequestHandler\" names no class defined in MyIssuerNonUI (looked for _OBJC_CLASS_$__TtC13MyIssuerNonUI20ActionRequestHandler"),
        Breakage(name: "extension MinimumOSVersion 13.0",
                 change: { $0[extension: IssuerBuildFixture.nonUI].info["MinimumOSVersion"] = "13.0" },
                 severity: .warning, check: .minimumOSVersion, pathSuffix: "MyIssuerNonUI.appex/Info.plist", key: "MinimumOSVersion",
                 fragment: "13.0 is below 14.0; Wallet loads issuer extensions only on iOS 14.0 or later"),
        Breakage(name: "app MinimumOSVersion above the target iOS",
                 change: { $0.app.info["MinimumOSVersion"] = "15.0" },
                 severity: .error, check: .minimumOSVersion, pathSuffix: "MyIssuer.app/Info.plist", key: "MinimumOSVersion",
                 fragment: "15.0 is above iOS 14.2, the target device's (--ios); the app does not install there",
                 options: DeviceBuildOptions(targetIOSVersion: [14, 2])),
        Breakage(name: "Intents template leftover",
                 change: { $0[extension: IssuerBuildFixture.nonUI].setExtensionAttribute("IntentsSupported", ["INSendMessageIntent"]) },
                 severity: .warning, check: .templateLeftovers, pathSuffix: "MyIssuerNonUI.appex/Info.plist",
                 key: "NSExtension.NSExtensionAttributes.IntentsSupported", fragment: "left over from Xcode's Intents extension template"),
        Breakage(name: "Action template leftover",
                 change: { $0[extension: IssuerBuildFixture.ui].setExtensionAttribute("NSExtensionActivationRule", "TRUEPREDICATE") },
                 severity: .warning, check: .templateLeftovers, pathSuffix: "MyIssuerUI.appex/Info.plist",
                 key: "NSExtension.NSExtensionAttributes.NSExtensionActivationRule", fragment: "left over from Xcode's Action extension template"),
        Breakage(name: "simulator platforms",
                 change: { $0.app.info["CFBundleSupportedPlatforms"] = ["iPhoneSimulator"] },
                 severity: .error, check: .devicePlatform, pathSuffix: "MyIssuer.app/Info.plist", key: "CFBundleSupportedPlatforms",
                 fragment: "is [iPhoneSimulator], without iPhoneOS; a device refuses a bundle built for the simulator"),
        Breakage(name: "simulator platform name",
                 change: { $0.app.info["DTPlatformName"] = "iphonesimulator" },
                 severity: .error, check: .devicePlatform, pathSuffix: "MyIssuer.app/Info.plist", key: "DTPlatformName",
                 fragment: "a simulator build does not install on a device"),
        Breakage(name: "x86_64-only executable",
                 change: { $0[extension: IssuerBuildFixture.ui].simulatorOnly = true },
                 severity: .error, check: .devicePlatform, pathSuffix: "MyIssuerUI.appex/MyIssuerUI", key: "(file)",
                 fragment: "has no arm64 code (only x86_64)"),
        Breakage(name: "expired profile",
                 change: { $0.app.profile!["ExpirationDate"] = Date(timeIntervalSince1970: 1_700_000_000) },
                 severity: .error, check: .provisioningProfile, pathSuffix: "MyIssuer.app/embedded.mobileprovision", key: "ExpirationDate",
                 fragment: "expired on 2023-11-14; the device refuses to install the app"),
        Breakage(name: "profile expiring within 30 days",
                 change: { $0.app.profile!["ExpirationDate"] = Date(timeIntervalSinceNow: 5 * 86_400) },
                 severity: .warning, check: .provisioningProfile, pathSuffix: "MyIssuer.app/embedded.mobileprovision", key: "ExpirationDate",
                 fragment: "within 30 days"),
        Breakage(name: "entitlement the profile does not allow",
                 change: { $0[extension: IssuerBuildFixture.nonUI].entitlements["aps-environment"] = "production" },
                 severity: .error, check: .provisioningProfile, pathSuffix: "MyIssuerNonUI.appex/embedded.mobileprovision", key: "aps-environment",
                 fragment: "the provisioning profile does not allow it"),
        Breakage(name: "development-signed with a distribution profile",
                 change: { $0.app.entitlements["get-task-allow"] = true },
                 severity: .error, check: .provisioningProfile, pathSuffix: "MyIssuer.app/embedded.mobileprovision", key: "get-task-allow",
                 fragment: "is signed into MyIssuer.app as true, but the provisioning profile allows only false"),
        Breakage(name: "unsigned executable",
                 change: { $0.app.signature = .unsigned },
                 severity: .error, check: .codeSignature, pathSuffix: "MyIssuer.app/MyIssuer", key: "(file)",
                 fragment: "has no LC_CODE_SIGNATURE: the arm64 code is unsigned"),
        Breakage(name: "signature without a CodeDirectory",
                 change: { $0[extension: IssuerBuildFixture.nonUI].signature = .rawSuperBlob(Data([0xFA, 0xDE, 0x0C, 0xC0, 0, 0, 0, 12, 0, 0, 0, 0])) },
                 severity: .error, check: .codeSignature, pathSuffix: "MyIssuerNonUI.appex/MyIssuerNonUI", key: "(file)",
                 fragment: "without a CodeDirectory (0xfade0c02)"),
        Breakage(name: "DER-only entitlements",
                 change: { $0[extension: IssuerBuildFixture.ui].signature = .derEntitlementsOnly },
                 severity: .warning, check: .codeSignature, pathSuffix: "MyIssuerUI.appex/MyIssuerUI", key: "(file)",
                 fragment: "only in DER form (0xfade7172)"),
        Breakage(name: "executable that is a shell script",
                 change: { $0[extension: IssuerBuildFixture.nonUI].executableOverride = Data("#!/bin/sh\n".utf8) },
                 severity: .error, check: .codeSignature, pathSuffix: "MyIssuerNonUI.appex/MyIssuerNonUI", key: "(file)",
                 fragment: "is not a Mach-O binary"),
        Breakage(name: "Info.plist without CFBundleExecutable",
                 change: { $0.app.info["CFBundleExecutable"] = nil },
                 severity: .error, check: .infoPlist, pathSuffix: "MyIssuer.app/Info.plist", key: "CFBundleExecutable",
                 fragment: "missing; the device refuses to install a bundle without it"),
    ]

    @Test("each breakage gives its finding, and nothing else objects", arguments: breakages)
    func breakage(_ breakage: Breakage) throws {
        var build = IssuerBuildFixture.myIssuer()
        breakage.change(&build)
        let findings = try Self.validateIPA(build, options: breakage.options)
        let matches = findings.filter {
            $0.severity == breakage.severity && $0.check == breakage.check.rawValue && $0.key == breakage.key
                && $0.path.hasSuffix(breakage.pathSuffix) && $0.problem.contains(breakage.fragment)
        }
        #expect(matches.count == 1, "expected one \(breakage.severity) \(breakage.check.rawValue) at \(breakage.pathSuffix), got:\n\(Self.rendered(findings))")
        let allowed = Set(([breakage.check] + breakage.alsoReportedBy).map(\.rawValue))
        let others = findings.filter { $0.severity != .note && !allowed.contains($0.check ?? "") }
        #expect(others.isEmpty, "other checks objected too:\n\(Self.rendered(others))")
    }

    @Test("a .app whose executable is a FIFO is not opened to tell whether it is a device build", .timeLimit(.minutes(1)))
    func fifoExecutable() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var build = IssuerBuildFixture.myIssuer()
        build.extensions = []
        let appURL = try build.write(into: directory.url)
        try FileManager.default.removeItem(at: appURL.appendingPathComponent("MyIssuer"))
        #expect(mkfifo(appURL.appendingPathComponent("MyIssuer").path, 0o644) == 0)
        #expect(!DeviceBuildValidator.isDeviceBuild(app: appURL))
        let report = BundleLoader.wallet.validate(paths: [appURL])
        #expect(report.findings.contains { $0.key == "CFBundleExecutable" && $0.problem.contains("not a regular file") },
                "\(Self.rendered(report.findings))")
    }

    /// Issue 33, bug 4: the app's analytics group that its extensions lack, or an extension in
    /// no group, was an app-groups error; iOS has no rule that the lists match.
    @Test("extensions in some of the app's App Groups, or in none, pass")
    func appGroupSubsetPasses() throws {
        var build = IssuerBuildFixture.myIssuer()
        build.sign("com.apple.security.application-groups", [IssuerBuildFixture.appGroup, "group.com.example.analytics"], into: nil)
        build.sign("com.apple.security.application-groups", nil, into: IssuerBuildFixture.ui)
        let findings = try Self.validateIPA(build)
        #expect(!findings.contains { $0.key == "com.apple.security.application-groups" }, "\(Self.rendered(findings))")
    }

    @Test("Apple's own keychain group needs no team prefix")
    func appleKeychainGroup() throws {
        var build = IssuerBuildFixture.myIssuer()
        for bundle in [nil, IssuerBuildFixture.nonUI, IssuerBuildFixture.ui] {
            build.sign("keychain-access-groups", [IssuerBuildFixture.keychainGroup, "com.apple.token"], into: bundle)
        }
        let findings = try Self.validateIPA(build)
        #expect(findings.isEmpty, "\(Self.rendered(findings))")
    }

    @Test("a principal class is not looked for in a stripped executable")
    func strippedExecutable() throws {
        var build = IssuerBuildFixture.myIssuer()
        build[extension: IssuerBuildFixture.nonUI].definedSymbols = []
        var extensionDictionary = build[extension: IssuerBuildFixture.nonUI].info["NSExtension"] as! [String: Any]
        extensionDictionary["NSExtensionPrincipalClass"] = "MyIssuerNonUI.Elsewhere"
        build[extension: IssuerBuildFixture.nonUI].info["NSExtension"] = extensionDictionary
        #expect(try Self.validateIPA(build).isEmpty)
    }

    @Test("an unsigned built .app falls back to its loose .entitlements file")
    func looseEntitlementsFallback() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var build = IssuerBuildFixture.myIssuer()
        build.app.signature = .unsigned
        let appURL = try build.write(into: directory.url)
        var entitlements = build.app.entitlements
        entitlements["com.apple.developer.payment-pass-provisioning"] = false
        try PropertyListSerialization.data(fromPropertyList: entitlements, format: .xml, options: 0)
            .write(to: appURL.appendingPathComponent("MyIssuer.entitlements"))
        let report = BundleLoader.wallet.validate(paths: [appURL])
        let rendered = Self.rendered(report.findings)
        #expect(report.findings.count == 3, "\(rendered)")
        #expect(rendered.contains("error: \(appURL.path)/MyIssuer: (file): has no LC_CODE_SIGNATURE"))
        #expect(rendered.contains("note: \(appURL.path)/MyIssuer.entitlements: (file): checked in place of signed entitlements"))
        #expect(rendered.contains("error: \(appURL.path)/MyIssuer.entitlements: com.apple.developer.payment-pass-provisioning: is false in MyIssuer.app's entitlements file"))
    }

    @Test("hostile archives: every bad entry is named, and the app is still checked")
    func hostileArchive() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var writer = ZipWriter()
        for (path, contents) in try IssuerBuildFixture.myIssuer().files() {
            writer.add("Payload/\(path)", contents)
        }
        writer.add("Payload/../../evil.sh", Data("rm -rf ~".utf8))
        writer.add("Payload/MyIssuer.app/Info.plist", Data("shadow".utf8))
        writer.entries.append(.init(name: "Payload/MyIssuer.app/bomb", contents: Data(count: 10), declaredUncompressedSize: 4_000_000_000))
        let url = directory.url.appendingPathComponent("Hostile.ipa")
        try writer.archive().write(to: url)
        let (findings, count) = DeviceBuildValidator.wallet().validate(ipa: url)
        #expect(count == 3)
        #expect(findings.count == 3, "\(Self.rendered(findings))")
        #expect(findings.allSatisfy { $0.check == DeviceBuildCheck.container.rawValue && $0.isError })
        #expect(findings.contains { $0.path == url.path + "/Payload/../../evil.sh" && $0.problem.contains("\"..\" component") })
        #expect(findings.contains { $0.path.hasSuffix("MyIssuer.app/Info.plist") && $0.problem.contains("appears more than once") })
        #expect(findings.contains { $0.path.hasSuffix("MyIssuer.app/bomb") && $0.problem.contains("zip bomb") })
    }

    @Test("containers that hold no single app", arguments: [
        ("NoPayload.ipa", "holds no Payload/NAME.app; an .ipa holds its app as Payload/NAME.app"),
        ("TwoApps.ipa", "holds 2 apps (MyIssuer.app, Other.app); a build holds exactly one"),
        ("NotAZip.ipa", "is not a zip archive (no end-of-central-directory record)"),
    ])
    func containers(name: String, problem: String) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent(name)
        var writer = ZipWriter()
        let files = try IssuerBuildFixture.myIssuer().files()
        switch name {
        case "NoPayload.ipa":
            files.forEach { writer.add($0.path, $0.contents) }
            try writer.archive().write(to: url)
        case "TwoApps.ipa":
            files.forEach { writer.add("Payload/\($0.path)", $0.contents) }
            files.forEach { writer.add("Payload/\($0.path.replacingOccurrences(of: "MyIssuer.app", with: "Other.app"))", $0.contents) }
            try writer.archive().write(to: url)
        default:
            try Data(repeating: 0x50, count: 1000).write(to: url)
        }
        let report = BundleLoader.wallet.validate(paths: [url])
        #expect(report.findings.contains { $0.isError && $0.check == "container" && $0.problem.contains(problem) },
                "\(Self.rendered(report.findings))")
    }
}
