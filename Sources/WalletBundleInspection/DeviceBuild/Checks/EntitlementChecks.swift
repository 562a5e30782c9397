import WalletWire

/// The checks on the entitlements signed into the app and its Wallet extensions: the
/// provisioning entitlement, App Groups and keychain access groups.
struct EntitlementChecks {
    var policy: BundlePolicy

    static let keychainAccessGroups = "keychain-access-groups"
    private typealias Key = ValidationFinding.Key

    func run(on build: DeviceBuild, findings: inout [ValidationFinding]) {
        checkProvisioningEntitlement(of: build.app, consequence: "\(policy.hostName) will not list the app", findings: &findings)
        for bundle in build.walletExtensions {
            checkProvisioningEntitlement(of: bundle, consequence: "\(policy.hostName) will not load this extension, so it will not list the app",
                                         findings: &findings)
        }
        checkAppGroups(build, findings: &findings)
        checkKeychainGroups(build, findings: &findings)
    }

    private func checkProvisioningEntitlement(of bundle: DeviceBundle, consequence: String, findings: inout [ValidationFinding]) {
        guard let key = policy.requiredEntitlement, let entitlements = bundle.entitlements else { return }
        switch entitlements[key] {
        case .bool(true)?:
            return
        case nil:
            findings.append(.error, .paymentPassEntitlement, bundle.entitlementsPath, key, "missing from \(bundle.entitlementsDescription); \(consequence)")
        case let value?:
            findings.append(.error, .paymentPassEntitlement, bundle.entitlementsPath, key,
                            "is \(value.boolValue == false ? "false" : value.typeName) in \(bundle.entitlementsDescription), not true; \(consequence)")
        }
    }

    private func checkAppGroups(_ build: DeviceBuild, findings: inout [ValidationFinding]) {
        let key = Key.applicationGroups
        for bundle in [build.app] + build.walletExtensions {
            for group in bundle.entitlementList(key) where !group.hasPrefix("group.") {
                findings.append(.warning, .appGroups, bundle.entitlementsPath, key,
                                "\"\(group)\" does not start with \"group.\", which iOS requires of App Group identifiers")
            }
        }
        var consequence = ""
        if let errorName = policy.appGroupMismatchErrorName {
            consequence = "; on a device the extension cannot reach the app's data and \(policy.hostName) fails with \(errorName)"
        }
        // Only a group the extension has and its app lacks: a subset, or none, is how real apps ship.
        compareWithApp(build, key: key, listName: "App Groups", severity: .error, check: .appGroups, consequence: consequence,
                       subsetIsFine: true, findings: &findings)
    }

    private func checkKeychainGroups(_ build: DeviceBuild, findings: inout [ValidationFinding]) {
        let key = Self.keychainAccessGroups
        for bundle in [build.app] + build.walletExtensions {
            guard let team = bundle.teamIdentifier else { continue }
            // Apple's own groups (com.apple.token, for CryptoTokenKit) carry no team prefix.
            for group in bundle.entitlementList(key) where !group.hasPrefix(team + ".") && !group.hasPrefix("com.apple.") {
                let reason = BuildVariableExpander.containsReference(group)
                    ? "still holds a build variable, which signing should have replaced"
                    : "does not start with the team prefix \"\(team).\""
                findings.append(.error, .keychainGroups, bundle.entitlementsPath, key,
                                "\"\(group)\" \(reason); the device refuses to install the app (invalid entitlements)")
            }
        }
        compareWithApp(build, key: key, listName: "keychain access groups", severity: .warning, check: .keychainGroups,
                       consequence: "; the extension cannot read credentials the app saved in a group it lacks (errSecItemNotFound)",
                       findings: &findings)
    }

    /// A finding for each Wallet extension whose list under `key` is not the app's, as a set.
    private func compareWithApp(
        _ build: DeviceBuild,
        key: String,
        listName: String,
        severity: ValidationFinding.Severity,
        check: DeviceBuildCheck,
        consequence: String,
        subsetIsFine: Bool = false,
        findings: inout [ValidationFinding]
    ) {
        guard build.app.entitlements != nil else { return }
        let appList = Set(build.app.entitlementList(key))
        for bundle in build.walletExtensions where bundle.entitlements != nil {
            if subsetIsFine, Set(bundle.entitlementList(key)).isSubset(of: appList) { continue }
            guard let difference = Self.difference(app: appList, bundle: Set(bundle.entitlementList(key)), bundleName: bundle.name) else { continue }
            findings.append(severity, check, bundle.entitlementsPath, key,
                            "\(bundle.name)'s \(listName) differ from \(build.app.name)'s: \(difference)\(consequence)")
        }
    }

    /// "only X has a, b; only the app has c", or nil when the sets are equal.
    static func difference(app: Set<String>, bundle: Set<String>, bundleName: String) -> String? {
        guard app != bundle else { return nil }
        var parts: [String] = []
        let onlyInBundle = bundle.subtracting(app).sorted()
        let onlyInApp = app.subtracting(bundle).sorted()
        if !onlyInBundle.isEmpty { parts.append("only \(bundleName) has \(onlyInBundle.joined(separator: ", "))") }
        if !onlyInApp.isEmpty { parts.append("only the app has \(onlyInApp.joined(separator: ", "))") }
        return parts.joined(separator: "; ")
    }
}
