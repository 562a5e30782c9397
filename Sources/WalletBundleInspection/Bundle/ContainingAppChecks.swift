import Foundation
import ExtensionModel

/// What the checks between an app and its extensions need to know about the app.
struct ContainingAppSummary {
    var url: URL
    var bundleIdentifier: String?
    var entitlements: BundleEntitlements

    init(_ manifest: BundleManifest) {
        url = manifest.bundleURL
        bundleIdentifier = manifest.bundleIdentifier
        entitlements = manifest.entitlements
    }

    var name: String { url.lastPathComponent }
}

/// The checks that look at an app and its extensions together.
struct ContainingAppChecks {
    var registry: ExtensionPointRegistry
    var policy: BundlePolicy

    private typealias Key = ValidationFinding.Key

    /// Checks one extension against its app: identifier prefix and App Groups.
    func checkMembership(of candidate: inout ExtensionCandidate, in app: ContainingAppSummary) {
        guard let manifest = candidate.manifest else { return }
        if let appIdentifier = app.bundleIdentifier, let identifier = manifest.bundleIdentifier,
           !identifier.hasPrefix(appIdentifier + ".") {
            candidate.findings.error(manifest.infoPlistPath, Key.bundleIdentifier,
                                     "\"\(identifier)\" does not start with the containing app's identifier and a dot (\"\(appIdentifier).\"); "
                                         + "iOS refuses to install an app whose extensions are not prefixed this way")
        }
        checkAppGroups(of: &candidate, manifest: manifest, in: app)
        if let appIdentifier = app.bundleIdentifier {
            TeamChecks.checkSameTeam(extension: manifest, app: app, findings: &candidate.findings)
            TeamChecks.checkKeychainGroupPrefixes(manifest.entitlements, unsignedTeam: appIdentifier, bundleURL: manifest.bundleURL,
                                                  findings: &candidate.findings)
        }
    }

    /// iOS has no rule that an extension's App Groups equal its app's: each target's
    /// entitlements stand alone, within its team (``TeamChecks``). An extension in some of the
    /// app's groups, or in none, is fine (the app may also have an analytics group); one in a
    /// group its app is not in cannot reach the app's data there.
    private func checkAppGroups(of candidate: inout ExtensionCandidate, manifest: BundleManifest, in app: ContainingAppSummary) {
        let appGroups = Set(app.entitlements.appGroups)
        let extensionGroups = Set(manifest.entitlements.appGroups)
        guard !extensionGroups.isSubset(of: appGroups) else { return }
        var differences: [String] = []
        let onlyInExtension = extensionGroups.subtracting(appGroups).sorted()
        let onlyInApp = appGroups.subtracting(extensionGroups).sorted()
        if !onlyInExtension.isEmpty {
            differences.append("only the extension has \(onlyInExtension.joined(separator: ", "))")
        }
        if !onlyInApp.isEmpty {
            differences.append("only the app has \(onlyInApp.joined(separator: ", "))")
        }
        var problem = "differ from the containing app \(app.name)'s App Groups: \(differences.joined(separator: "; "))"
        if let errorName = policy.appGroupMismatchErrorName {
            problem += "; on a device the extension cannot reach the app's data and \(policy.hostName) fails with \(errorName)"
        }
        let path = manifest.entitlements.url?.path ?? manifest.bundleURL.path
        candidate.findings.error(path, Key.applicationGroups, problem)
    }

    /// Checks the app's own entitlement, which the host system needs before it loads any of the extensions.
    func checkAppEntitlement(of app: ContainingAppSummary, findings: inout [ValidationFinding]) {
        EntitlementRequirement(policy: policy).check(
            app.entitlements, bundleURL: app.url, consequence: "would not load this app's extensions on a device",
            findings: &findings)
    }

    /// Checks the app's set of extensions as a whole.
    func checkExtensionSet(_ candidates: [ExtensionCandidate], of app: ContainingAppSummary, findings: inout [ValidationFinding]) {
        guard !candidates.isEmpty else {
            findings.warning(app.url.path, Key.plugIns, "has no .appex extensions; the host has nothing to run for this app")
            return
        }
        checkOneExtensionPerPoint(candidates, of: app, findings: &findings)
        checkDistinctIdentifiers(candidates, findings: &findings)
        checkRolesPresent(candidates, of: app, findings: &findings)
    }

    private func checkOneExtensionPerPoint(_ candidates: [ExtensionCandidate], of app: ContainingAppSummary, findings: inout [ValidationFinding]) {
        let byPoint = Dictionary(grouping: candidates.filter { $0.extensionPointIdentifier != nil }) { $0.extensionPointIdentifier! }
        for point in byPoint.keys.sorted() where byPoint[point]!.count > 1 {
            let names = byPoint[point]!.map(\.name).joined(separator: ", ")
            findings.error(app.url.path, Key.plugIns,
                           "\(names) all use \(point); an app has at most one extension per extension point")
        }
    }

    private func checkDistinctIdentifiers(_ candidates: [ExtensionCandidate], findings: inout [ValidationFinding]) {
        var firstOwner: [String: String] = [:]
        for candidate in candidates {
            guard let manifest = candidate.manifest, let identifier = manifest.bundleIdentifier else { continue }
            if let owner = firstOwner[identifier] {
                findings.error(manifest.infoPlistPath, Key.bundleIdentifier,
                               "\"\(identifier)\" is also the identifier of \(owner); every extension needs its own")
            } else {
                firstOwner[identifier] = candidate.name
            }
        }
    }

    /// The non-UI extension is the one asked for status; the UI one is only needed for authentication.
    private func checkRolesPresent(_ candidates: [ExtensionCandidate], of app: ContainingAppSummary, findings: inout [ValidationFinding]) {
        let nonUI = candidates.filter { $0.extensionPoint?.role == .nonUI }
        let ui = candidates.filter { $0.extensionPoint?.role == .ui }
        let uiPoints = registry.points.filter { $0.role == .ui }.map(\.identifier).joined(separator: " or ")
        let nonUIPoints = registry.points.filter { $0.role == .nonUI }.map(\.identifier).joined(separator: " or ")
        if let first = nonUI.first, ui.isEmpty, !uiPoints.isEmpty {
            findings.warning(app.url.path, Key.plugIns,
                             "has a non-UI extension (\(first.name)) but no UI extension (\(uiPoints)); this is fine only while status never says requiresAuthentication")
        }
        if let first = ui.first, nonUI.isEmpty, !nonUIPoints.isEmpty {
            findings.warning(app.url.path, Key.plugIns,
                             "has a UI extension (\(first.name)) but no non-UI extension (\(nonUIPoints)); "
                                 + "\(policy.hostName) asks only the non-UI extension for status, so it would never list this app")
        }
    }
}
