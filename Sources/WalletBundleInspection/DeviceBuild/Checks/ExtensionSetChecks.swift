import ExtensionModel
/// The checks on the app's extensions as a set and on each Wallet extension's entry point:
/// identifier prefixes, the two extension points once each, the principal class.
struct ExtensionSetChecks {
    var registry: ExtensionPointRegistry
    var policy: BundlePolicy

    private typealias Key = ValidationFinding.Key

    func run(on build: DeviceBuild, findings: inout [ValidationFinding]) {
        checkIdentifierPrefixes(build, findings: &findings)
        checkExtensionPoints(build, findings: &findings)
        for bundle in build.walletExtensions {
            checkPrincipalClass(of: bundle, findings: &findings)
        }
    }

    private func checkIdentifierPrefixes(_ build: DeviceBuild, findings: inout [ValidationFinding]) {
        guard let appIdentifier = build.app.bundleIdentifier else { return }
        for bundle in build.extensions {
            guard let identifier = bundle.bundleIdentifier, !identifier.hasPrefix(appIdentifier + ".") else { continue }
            findings.append(.error, .extensionIdentifierPrefix, bundle.infoPath, Key.bundleIdentifier,
                            "\"\(identifier)\" does not start with the app's identifier and a dot (\"\(appIdentifier).\"); "
                                + "the device refuses to install an app whose extensions are not prefixed this way")
        }
    }

    private func checkExtensionPoints(_ build: DeviceBuild, findings: inout [ValidationFinding]) {
        let plugInsPath = build.app.infoPath.dropLast("Info.plist".count) + Key.plugIns
        for point in registry.points {
            let users = build.extensions.filter { $0.extensionPointIdentifier == point.identifier }
            switch (users.count, point.role) {
            case (1, _):
                continue
            case (0, .nonUI):
                findings.append(.error, .extensionPoints, String(plugInsPath), Key.extensionPointIdentifier,
                                "no extension uses \(point.identifier); \(policy.hostName) asks that extension for status, so it will not list the app")
            case (0, .ui):
                findings.append(.warning, .extensionPoints, String(plugInsPath), Key.extensionPointIdentifier,
                                "no extension uses \(point.identifier); fine only while status never says requiresAuthentication, "
                                    + "since \(policy.hostName) cannot authenticate the user without it")
            default:
                findings.append(.error, .extensionPoints, String(plugInsPath), Key.extensionPointIdentifier,
                                "\(users.map(\.name).joined(separator: ", ")) all use \(point.identifier); an app has one extension per point, "
                                    + "and which one \(policy.hostName) would load is undefined")
            }
        }
    }

    private func checkPrincipalClass(of bundle: DeviceBundle, findings: inout [ValidationFinding]) {
        let attributes = bundle.info[Key.extensionDictionary]?.dictionaryValue ?? [:]
        guard let principalClass = attributes["NSExtensionPrincipalClass"]?.stringValue, !principalClass.isEmpty else {
            let isUI = registry.point(bundle.extensionPointIdentifier ?? "")?.role == .ui
            if isUI, attributes["NSExtensionMainStoryboard"]?.stringValue != nil { return }
            findings.append(.error, .principalClass, bundle.infoPath, Key.extensionPrincipalClass,
                            "missing\(isUI ? " (and no NSExtensionMainStoryboard)" : ""); the extension has no class to instantiate, "
                                + "so its process exits at launch and \(policy.hostName) does not list the app")
            return
        }
        guard !BuildVariableExpander.containsReference(principalClass) else {
            findings.append(.error, .principalClass, bundle.infoPath, Key.extensionPrincipalClass,
                            "\"\(principalClass)\" still holds a build variable; Xcode expands it in a built product, so this one was not built by Xcode")
            return
        }
        guard let symbols = bundle.executable?.deviceSlice?.definedSymbols else { return }
        let candidates = PrincipalClassSymbols.candidates(for: principalClass)
        guard !candidates.contains(where: symbols.contains) else { return }
        findings.append(.error, .principalClass, bundle.infoPath, Key.extensionPrincipalClass,
                        "\"\(principalClass)\" names no class defined in \(bundle.info[Key.bundleExecutable]?.stringValue ?? "the executable") "
                            + "(looked for \(candidates.joined(separator: ", "))); the extension crashes at launch and \(policy.hostName) does not list the app")
    }
}

/// The symbol names a class leaves in a Mach-O symbol table.
enum PrincipalClassSymbols {
    /// For `Module.Class`, Swift's Objective-C class symbol `_OBJC_CLASS_$__TtC6Module5Class`
    /// (a principal class subclasses NSObject, so it has one) and the Swift class metadata
    /// `_$s6Module5ClassCN`; for a plain `Class`, `_OBJC_CLASS_$_Class`.
    static func candidates(for principalClass: String) -> [String] {
        let parts = principalClass.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            return ["_OBJC_CLASS_$_\(principalClass)"]
        }
        let mangled = "\(parts[0].utf8.count)\(parts[0])\(parts[1].utf8.count)\(parts[1])"
        return ["_OBJC_CLASS_$__TtC\(mangled)", "_$s\(mangled)CN", "_OBJC_CLASS_$_\(parts[1])"]
    }
}
