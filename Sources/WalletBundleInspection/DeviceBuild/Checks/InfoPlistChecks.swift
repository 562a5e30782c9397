import WalletWire

/// The checks on Info.plist keys beyond identity: OS versions, template leftovers, and the
/// platform the bundle was built for.
struct InfoPlistChecks {
    var policy: BundlePolicy
    var options: DeviceBuildOptions

    private typealias Key = ValidationFinding.Key

    /// Keys Xcode's Intents extension template puts in `NSExtensionAttributes`.
    static let intentsTemplateKeys = ["IntentsSupported", "IntentsRestrictedWhileLocked"]
    /// The key Xcode's Action extension template puts in `NSExtensionAttributes`.
    static let actionTemplateKey = "NSExtensionActivationRule"

    func run(on build: DeviceBuild, findings: inout [ValidationFinding]) {
        for bundle in [build.app] + build.extensions {
            checkMinimumOSVersion(of: bundle, isWalletExtension: build.walletExtensions.contains { $0.path == bundle.path }, findings: &findings)
            checkPlatform(of: bundle, findings: &findings)
        }
        for bundle in build.walletExtensions {
            checkTemplateLeftovers(of: bundle, findings: &findings)
        }
    }

    private func checkMinimumOSVersion(of bundle: DeviceBundle, isWalletExtension: Bool, findings: inout [ValidationFinding]) {
        let key = Key.minimumOSVersion
        guard let value = bundle.info[key] else {
            findings.append(.warning, .minimumOSVersion, bundle.infoPath, key, "missing; Xcode writes it into every built bundle, so this one was not built by Xcode")
            return
        }
        guard let text = value.stringValue, let version = DeviceBuildOptions.versionComponents(text) else {
            findings.append(.error, .minimumOSVersion, bundle.infoPath, key,
                            "\(value.stringValue.map { "\"\($0)\"" } ?? value.typeName) is not a version like \"\(policy.minimumOSVersionString)\"; the device refuses to install the app")
            return
        }
        if DeviceBuildOptions.compare(version, options.targetIOSVersion) == .orderedDescending {
            findings.append(.error, .minimumOSVersion, bundle.infoPath, key,
                            "\(text) is above iOS \(options.targetIOSVersionString), the target device's (--ios); "
                                + (bundle.name.hasSuffix(".app") ? "the app does not install there" : "the device does not load \(bundle.name) there"))
        }
        if isWalletExtension, policy.isBelowMinimumOSVersion(version) {
            findings.append(.warning, .minimumOSVersion, bundle.infoPath, key,
                            "\(text) is below \(policy.minimumOSVersionString); \(policy.hostName) loads issuer extensions only on \(policy.platformName) \(policy.minimumOSVersionString) or later")
        }
    }

    private func checkPlatform(of bundle: DeviceBundle, findings: inout [ValidationFinding]) {
        let platformsKey = "CFBundleSupportedPlatforms"
        if let value = bundle.info[platformsKey] {
            let platforms = value.arrayValue?.compactMap(\.stringValue) ?? []
            if !platforms.contains("iPhoneOS") {
                findings.append(.error, .devicePlatform, bundle.infoPath, platformsKey,
                                "is [\(platforms.joined(separator: ", "))], without iPhoneOS; a device refuses a bundle built for "
                                    + (platforms.contains("iPhoneSimulator") ? "the simulator" : "another platform"))
            }
        } else {
            findings.append(.warning, .devicePlatform, bundle.infoPath, platformsKey, "missing; Xcode writes [iPhoneOS] into a device build")
        }
        let nameKey = "DTPlatformName"
        if let value = bundle.info[nameKey] {
            if value.stringValue != "iphoneos" {
                findings.append(.error, .devicePlatform, bundle.infoPath, nameKey,
                                "is \(value.stringValue.map { "\"\($0)\"" } ?? value.typeName), not \"iphoneos\"; "
                                    + (value.stringValue == "iphonesimulator" ? "a simulator build does not install on a device" : "this is not a device build"))
            }
        } else {
            findings.append(.warning, .devicePlatform, bundle.infoPath, nameKey, "missing; Xcode writes \"iphoneos\" into a device build")
        }
    }

    private func checkTemplateLeftovers(of bundle: DeviceBundle, findings: inout [ValidationFinding]) {
        guard let attributes = bundle.extensionAttributes else { return }
        let point = bundle.extensionPointIdentifier ?? "its extension point"
        for key in Self.intentsTemplateKeys where attributes[key] != nil {
            findings.append(.warning, .templateLeftovers, bundle.infoPath, "NSExtension.NSExtensionAttributes.\(key)",
                            "is left over from Xcode's Intents extension template; \(point) does not read it, and an extension started from that template "
                                + "often keeps the template's principal class or extension point too")
        }
        if attributes[Self.actionTemplateKey] != nil {
            findings.append(.warning, .templateLeftovers, bundle.infoPath, "NSExtension.NSExtensionAttributes.\(Self.actionTemplateKey)",
                            "is left over from Xcode's Action extension template; \(point) does not read it, and App Review rejects activation rules that do not fit the extension")
        }
    }
}
