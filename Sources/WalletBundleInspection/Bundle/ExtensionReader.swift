import Foundation
import ExtensionModel
import WalletWire

/// An extension read from disk and checked on its own, before the checks that need its containing app.
struct ExtensionCandidate {
    var url: URL
    var manifest: BundleManifest?
    /// `NSExtensionPointIdentifier` when it is a non-empty string.
    var extensionPointIdentifier: String?
    /// The registry's point, when the identifier is known.
    var extensionPoint: ExtensionPoint?
    var principalClass: String?
    var mainStoryboard: String?
    /// The class of the storyboard's initial view controller, when the compiled storyboard names it.
    var storyboardEntryClass: String?
    var minimumOSVersion: String?
    /// Every finding about this extension; containing-app checks add theirs.
    var findings: [ValidationFinding] = []

    var name: String { url.lastPathComponent }

    /// The loaded extension, or nil when any finding is an error.
    func bundle(containingAppBundleIdentifier: String?) -> ExtensionBundle? {
        guard !findings.containsErrors,
              let manifest, let extensionPoint,
              let bundleIdentifier = manifest.bundleIdentifier,
              let executableName = manifest.executableName,
              let executableURL = manifest.executableURL else { return nil }
        return ExtensionBundle(
            url: url, bundleIdentifier: bundleIdentifier, executableURL: executableURL,
            extensionPoint: extensionPoint, principalClass: principalClass, mainStoryboard: mainStoryboard,
            moduleName: BuildVariableExpander.moduleName(forExecutable: executableName),
            entitlements: manifest.entitlements, containingAppBundleIdentifier: containingAppBundleIdentifier,
            minimumOSVersion: minimumOSVersion, infoDictionary: manifest.info)
            .withStoryboardEntryClass(storyboardEntryClass)
    }
}

/// Reads one `.appex` and checks its `NSExtension` dictionary, OS version and entitlement.
struct ExtensionReader {
    var registry: ExtensionPointRegistry
    var policy: BundlePolicy

    private typealias Key = ValidationFinding.Key

    func read(at url: URL) -> ExtensionCandidate {
        var candidate = ExtensionCandidate(url: url)
        guard let manifest = BundleManifest.read(bundleURL: url, kind: .appExtension, findings: &candidate.findings) else {
            return candidate
        }
        candidate.manifest = manifest
        let path = manifest.infoPlistPath
        guard let attributesValue = manifest.info[Key.extensionDictionary] else {
            candidate.findings.error(path, Key.extensionDictionary, "missing; an app extension declares its extension point here")
            return candidate
        }
        guard let attributes = attributesValue.dictionaryValue else {
            candidate.findings.error(path, Key.extensionDictionary, "is \(attributesValue.typeName), not a dictionary")
            return candidate
        }
        readExtensionPoint(attributes, path: path, into: &candidate)
        candidate.principalClass = string(attributes, "NSExtensionPrincipalClass", Key.extensionPrincipalClass,
                                          path: path, findings: &candidate.findings)
        candidate.mainStoryboard = string(attributes, "NSExtensionMainStoryboard", Key.extensionMainStoryboard,
                                          path: path, findings: &candidate.findings)
        checkEntryPoint(of: &candidate, path: path)
        checkPrincipalClassModule(of: &candidate, manifest: manifest, path: path)
        checkMinimumOSVersion(of: &candidate, info: manifest.info, path: path)
        if candidate.extensionPoint != nil {
            EntitlementRequirement(policy: policy).check(
                manifest.entitlements, bundleURL: url, consequence: "would not load this extension on a device",
                findings: &candidate.findings)
        }
        return candidate
    }

    /// A string value of the `NSExtension` dictionary; a present but non-string or empty value is an error.
    private func string(
        _ attributes: [String: PropertyListValue],
        _ name: String,
        _ key: String,
        path: String,
        findings: inout [ValidationFinding]
    ) -> String? {
        guard let value = attributes[name] else { return nil }
        return findings.nonEmptyString(value, path: path, key: key)
    }

    private func readExtensionPoint(_ attributes: [String: PropertyListValue], path: String, into candidate: inout ExtensionCandidate) {
        guard attributes["NSExtensionPointIdentifier"] != nil else {
            candidate.findings.error(path, Key.extensionPointIdentifier, "missing; the host cannot tell which extension point this is")
            return
        }
        guard let identifier = string(attributes, "NSExtensionPointIdentifier", Key.extensionPointIdentifier,
                                      path: path, findings: &candidate.findings) else { return }
        candidate.extensionPointIdentifier = identifier
        guard let point = registry.point(identifier) else {
            let known = registry.points.map(\.identifier).joined(separator: ", ")
            candidate.findings.error(path, Key.extensionPointIdentifier,
                                     "\"\(identifier)\" is not a known extension point (known: \(known))")
            return
        }
        candidate.extensionPoint = point
    }

    /// A non-UI extension needs a principal class; a UI one a principal class, a storyboard, or
    /// both (as Apple's sample ships: a MainInterface storyboard whose initial view controller is
    /// the principal class), in which case the host uses the principal class, as iOS does.
    private func checkEntryPoint(of candidate: inout ExtensionCandidate, path: String) {
        let pointName = candidate.extensionPointIdentifier ?? "an app extension"
        switch (candidate.principalClass, candidate.mainStoryboard) {
        case (_?, _?) where candidate.extensionPoint?.role == .nonUI:
            candidate.findings.error(path, Key.extensionMainStoryboard,
                                     "not allowed for \(pointName), a non-UI extension point; remove it and keep NSExtensionPrincipalClass")
        case (let principal?, let storyboard?):
            candidate.findings.note(path, Key.extensionMainStoryboard,
                                    "\"\(storyboard)\" is set beside NSExtensionPrincipalClass, as Apple's sample ships; "
                                        + "the host uses the principal class \(principal), whose screen the storyboard's initial view controller is")
        case (nil, nil) where candidate.extensionPoint?.role == .ui:
            candidate.findings.error(path, Key.extensionPrincipalClass,
                                     "missing (required for \(pointName) unless NSExtensionMainStoryboard is set)")
        case (nil, nil):
            candidate.findings.error(path, Key.extensionPrincipalClass, "missing (required for \(pointName))")
        case (nil, _?) where candidate.extensionPoint?.role == .nonUI:
            candidate.findings.error(path, Key.extensionMainStoryboard,
                                     "not allowed for \(pointName), a non-UI extension point; set NSExtensionPrincipalClass instead")
        case (nil, let storyboard?) where candidate.extensionPoint?.role == .ui:
            // iOS instantiates the storyboard's initial view controller: its class is what the handshake names.
            switch CompiledStoryboard.entryClass(named: storyboard, in: candidate.url) {
            case .success(let className):
                candidate.storyboardEntryClass = className
                candidate.findings.note(path, Key.extensionMainStoryboard,
                                        "the host uses the storyboard \(storyboard)'s initial view controller, \(className), as the principal class")
            case .failure(let problem):
                candidate.findings.note(path, Key.extensionMainStoryboard,
                                        "the host cannot read storyboards here (\(problem.description)), so the handshake names "
                                            + "\(storyboard) and the extension's runtime must answer to that name")
            }
        case (_?, nil), (nil, _?):
            break
        }
    }

    /// Swift resolves `Module.Class` at runtime, so a module other than the extension's own finds nothing.
    private func checkPrincipalClassModule(of candidate: inout ExtensionCandidate, manifest: BundleManifest, path: String) {
        guard let principalClass = candidate.principalClass,
              !BuildVariableExpander.containsReference(principalClass),
              let executableName = manifest.executableName else { return }
        let moduleName = BuildVariableExpander.moduleName(forExecutable: executableName)
        guard let dot = principalClass.firstIndex(of: ".") else {
            candidate.findings.note(path, Key.extensionPrincipalClass,
                                    "\"\(principalClass)\" is not module-qualified; "
                                        + "a Swift extension finds its class at runtime as \(moduleName).\(principalClass) ($(PRODUCT_MODULE_NAME).\(principalClass))")
            return
        }
        let module = String(principalClass[..<dot])
        if module != moduleName {
            candidate.findings.warning(path, Key.extensionPrincipalClass,
                                       "\"\(principalClass)\" is in module \(module), but the extension's module is \(moduleName) (from CFBundleExecutable); "
                                           + "a Swift extension would not find the class")
        }
    }

    private func checkMinimumOSVersion(of candidate: inout ExtensionCandidate, info: [String: PropertyListValue], path: String) {
        let key = info[Key.minimumOSVersion] != nil ? Key.minimumOSVersion : Key.minimumSystemVersion
        guard let value = info[key] else { return }
        guard let version = value.stringValue else {
            candidate.findings.warning(path, key, "is \(value.typeName), not a version string like \"\(policy.minimumOSVersionString)\"")
            return
        }
        candidate.minimumOSVersion = version
        let components = version.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard !components.isEmpty, !components.contains(nil) else {
            candidate.findings.warning(path, key, "\"\(version)\" is not a version number like \"\(policy.minimumOSVersionString)\"")
            return
        }
        if policy.isBelowMinimumOSVersion(components.map { $0! }) {
            candidate.findings.warning(path, key,
                                       "\(version) is below \(policy.minimumOSVersionString); "
                                           + "\(policy.hostName) extensions need \(policy.platformName) \(policy.minimumOSVersionString) or later")
        }
    }
}
