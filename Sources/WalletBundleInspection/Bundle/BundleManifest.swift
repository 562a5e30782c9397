import Foundation
import WalletWire

/// The two kinds of bundle the host reads, with what differs between them.
enum BundleKind {
    case app
    case appExtension

    var pathExtension: String {
        switch self {
        case .app: "app"
        case .appExtension: "appex"
        }
    }

    var expectedPackageType: String {
        switch self {
        case .app: "APPL"
        case .appExtension: "XPC!"
        }
    }
}

/// What every bundle has, app or extension: its Info.plist (build variables expanded), identifier,
/// executable and entitlements. Read once, then checked further by the app or extension reader.
struct BundleManifest {
    var bundleURL: URL
    var infoPlistURL: URL
    /// The Info.plist with build variables expanded.
    var info: [String: PropertyListValue]
    /// `CFBundleIdentifier`, nil when missing or unusable (a finding says why).
    var bundleIdentifier: String?
    /// `CFBundleExecutable`, nil when missing or unusable.
    var executableName: String?
    /// The executable when it exists and can be run.
    var executableURL: URL?
    var entitlements: BundleEntitlements

    var infoPlistPath: String { infoPlistURL.path }

    /// Reads a bundle's Info.plist, executable and entitlements, reporting every problem found.
    /// - Returns: nil when there is no bundle directory or no usable Info.plist; otherwise the
    ///   manifest, possibly with error findings about single keys.
    static func read(
        bundleURL: URL,
        kind: BundleKind,
        findings: inout [ValidationFinding]
    ) -> BundleManifest? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: bundleURL.path, isDirectory: &isDirectory) else {
            findings.error(bundleURL.path, ValidationFinding.Key.bundle, "does not exist")
            return nil
        }
        guard isDirectory.boolValue else {
            findings.error(bundleURL.path, ValidationFinding.Key.bundle,
                           "is a file; a .\(kind.pathExtension) bundle is a directory")
            return nil
        }
        let infoPlistURL = bundleURL.appendingPathComponent("Info.plist")
        let outcome = PropertyListFile.read(infoPlistURL)
        guard case .dictionary(let raw, _) = outcome else {
            if let finding = outcome.finding(at: infoPlistURL, missingProblem: "missing; every bundle needs an Info.plist") {
                findings.append(finding)
            }
            return nil
        }
        findings.append(contentsOf: outcome.duplicateKeyFindings(at: infoPlistURL))
        let path = infoPlistURL.path
        let bundleIdentifier = identity(raw, ValidationFinding.Key.bundleIdentifier, path: path, findings: &findings)
        if let bundleIdentifier, let bad = bundleIdentifier.unicodeScalars.first(where: { !isBundleIdentifierScalar($0) }) {
            findings.error(path, ValidationFinding.Key.bundleIdentifier,
                           "\"\(bundleIdentifier)\" contains \"\(bad)\"; only letters A-Z and a-z, digits, \"-\" and \".\" are allowed")
        }
        let executableName = identity(raw, ValidationFinding.Key.bundleExecutable, path: path, findings: &findings)

        let expander = BuildVariableExpander(executableName: executableName, bundleIdentifier: bundleIdentifier)
        let identityKeys: Set = [ValidationFinding.Key.bundleIdentifier, ValidationFinding.Key.bundleExecutable]
        let info = expander.expand(raw, skippingKeys: identityKeys) { keyPath, problems in
            findings.append(contentsOf: problems.map { $0.finding(path: path, keyPath: keyPath) })
        }
        checkPackageType(info, kind: kind, path: path, findings: &findings)

        let executableURL = executableName.flatMap { name in
            executableCheck(bundleURL: bundleURL, infoPlistPath: path, kind: kind)
                .run(executableName: name, findings: &findings)
        }
        let entitlements = EntitlementsReader.read(
            bundleURL: bundleURL, executableName: executableName, expander: expander, findings: &findings)
        return BundleManifest(
            bundleURL: bundleURL, infoPlistURL: infoPlistURL, info: info, bundleIdentifier: bundleIdentifier,
            executableName: executableName, executableURL: executableURL, entitlements: entitlements)
    }

    /// Reads `CFBundleIdentifier` or `CFBundleExecutable`: required, non-empty, spelled out.
    private static func identity(
        _ info: [String: PropertyListValue],
        _ key: String,
        path: String,
        findings: inout [ValidationFinding]
    ) -> String? {
        guard let value = info[key] else {
            findings.error(path, key, "missing")
            return nil
        }
        guard let string = findings.nonEmptyString(value, path: path, key: key) else { return nil }
        // The build variables derive from these two keys, so here they have nothing to expand to.
        guard !BuildVariableExpander.containsReference(string) else {
            findings.error(path, key, "\"\(string)\" holds a build variable; an assembled bundle spells out its \(key)")
            return nil
        }
        return string
    }

    private static func isBundleIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", ".": true
        default: false
        }
    }

    private static func checkPackageType(
        _ info: [String: PropertyListValue],
        kind: BundleKind,
        path: String,
        findings: inout [ValidationFinding]
    ) {
        let key = ValidationFinding.Key.bundlePackageType
        guard let value = info[key], value.stringValue != kind.expectedPackageType else { return }
        let found = value.stringValue.map { "\"\($0)\"" } ?? value.typeName
        findings.warning(path, key, "is \(found), but a .\(kind.pathExtension) bundle has \"\(kind.expectedPackageType)\"")
    }

    private static func executableCheck(bundleURL: URL, infoPlistPath: String, kind: BundleKind) -> ExecutableCheck {
        switch kind {
        case .app:
            ExecutableCheck(bundleURL: bundleURL, infoPlistPath: infoPlistPath, missingSeverity: .warning,
                            missingConsequence: "; the host cannot launch the containing app")
        case .appExtension:
            ExecutableCheck(bundleURL: bundleURL, infoPlistPath: infoPlistPath, missingSeverity: .error,
                            missingConsequence: "")
        }
    }
}
