import Foundation

/// Finds, in a read project, the app targets that embed Wallet extensions and the unit-test
/// targets that test them, and resolves each one's settings, manifests and files (``ImportPlan``).
public enum ImportPlanner {
    /// Wallet's two extension points.
    public static let walletExtensionPoints = ["com.apple.PassKit.issuer-provisioning",
                                               "com.apple.PassKit.issuer-provisioning.authorization"]

    /// - Throws: ``ImportError`` when no app embeds a Wallet extension, or a manifest cannot be read.
    public static func plan(_ project: XcodeProject, configuration: String) throws -> ImportPlan {
        var notCarried: [String] = []
        var apps: [ImportPlan.App] = []
        var embeddedIdentifiers: Set<String> = []
        for target in project.targets where target.productType == XcodeTarget.applicationType {
            var extensions: [ImportPlan.Bundle] = []
            let embedded = target.embeddedTargetIdentifiers + target.dependencyIdentifiers.filter {
                project.target(identifier: $0)?.productType == XcodeTarget.appExtensionType
            }
            for identifier in uniqued(embedded) {
                guard let candidate = project.target(identifier: identifier) else { continue }
                embeddedIdentifiers.insert(identifier)
                let bundle = try bundle(candidate, in: project, configuration: configuration)
                guard let point = bundle.extensionPoint, walletExtensionPoints.contains(point) else {
                    notCarried.append("target \(candidate.name): extension point \(bundle.extensionPoint ?? "(none)") is not one of Wallet's; skipped")
                    continue
                }
                notCarried += candidate.unsupported.map { "target \(candidate.name): \($0)" }
                extensions.append(bundle)
            }
            guard !extensions.isEmpty else {
                notCarried.append("target \(target.name): the app embeds no Wallet extension; skipped")
                continue
            }
            notCarried += target.unsupported.map { "target \(target.name): \($0)" }
            var app = try bundle(target, in: project, configuration: configuration)
            if !app.sources.isEmpty {
                notCarried.append("target \(target.name): the app's \(app.sources.count) Swift files are not built; a stand-in writes DIR/seed instead")
            }
            app.sources = []
            app.infoPlist = try xml(standIn(app.infoPlist), target: target.name)
            apps.append(ImportPlan.App(app: app, extensions: extensions))
        }
        guard !apps.isEmpty else {
            throw ImportError("\(project.url.path): no app target embeds an extension whose NSExtensionPointIdentifier is "
                + walletExtensionPoints.joined(separator: " or "))
        }
        let modules = apps.flatMap(\.extensions).map(\.moduleName)
        var tests: [ImportPlan.TestTarget] = []
        for target in project.targets where !embeddedIdentifiers.contains(target.identifier) && target.productType != XcodeTarget.applicationType {
            guard target.productType == XcodeTarget.unitTestType else {
                notCarried.append("target \(target.name) (\(target.productType.replacingOccurrences(of: "com.apple.product-type.", with: ""))) is not carried")
                continue
            }
            let imported = modules.filter { module in target.swiftSources.contains { SourceScan.imports(module, in: $0) } }
            guard !imported.isEmpty else {
                notCarried.append("target \(target.name): its tests import no Wallet extension module; not carried")
                continue
            }
            let settings = try project.buildSettings(for: target, configuration: configuration)
            notCarried += target.unsupported.map { "target \(target.name): \($0)" }
            tests.append(ImportPlan.TestTarget(name: BuildSettings.identifier(target.name), sources: target.swiftSources,
                                               testedModules: imported, swiftLanguageMode: languageMode(settings)))
        }
        return ImportPlan(configuration: configuration, apps: apps, tests: tests, notCarried: notCarried)
    }

    /// One target's bundle: its settings resolved, manifests built and files listed.
    static func bundle(_ target: XcodeTarget, in project: XcodeProject, configuration: String) throws -> ImportPlan.Bundle {
        let settings = try project.buildSettings(for: target, configuration: configuration)
        let manifests = ManifestBuilder(settings: settings, sourceRoot: project.sourceRoot)
        let info = try manifests.infoPlist(targetName: target.name)
        let entitlements = try manifests.entitlements(targetName: target.name)
        let extensionInfo = info["NSExtension"] as? [String: Any]
        let principal = (extensionInfo?["NSExtensionPrincipalClass"] as? String).map { $0.split(separator: ".").last.map(String.init) ?? $0 }
        return ImportPlan.Bundle(
            targetName: target.name,
            moduleName: settings["PRODUCT_MODULE_NAME"] ?? BuildSettings.identifier(target.name),
            executableName: settings["EXECUTABLE_NAME"] ?? target.name,
            bundleName: settings["FULL_PRODUCT_NAME"] ?? target.name,
            sources: target.swiftSources, resources: target.resources,
            infoPlist: try xml(info, target: target.name),
            entitlements: try entitlements.map { try xml($0, target: target.name) },
            appGroups: entitlements?["com.apple.security.application-groups"] as? [String] ?? [],
            extensionPoint: extensionInfo?["NSExtensionPointIdentifier"] as? String,
            principalClass: principal,
            swiftLanguageMode: languageMode(settings),
            usesSwiftUI: target.swiftSources.contains { SourceScan.imports("SwiftUI", in: $0) || SourceScan.imports("Combine", in: $0) },
            hasEntryPoint: target.swiftSources.contains { $0.lastPathComponent == "main.swift" || SourceScan.declaresMain($0) })
    }

    /// `SWIFT_VERSION` (`5.0`, `6.0`, `4.2`) as a SwiftPM language mode (`5`, `6`, `4.2`).
    static func languageMode(_ settings: BuildSettings) -> String? {
        guard let version = settings["SWIFT_VERSION"], !version.isEmpty else { return nil }
        return version.hasSuffix(".0") ? String(version.dropLast(2)) : version
    }

    private static func xml(_ plist: [String: Any], target: String) throws -> Data {
        do {
            return try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        } catch {
            throw ImportError("target \(target): its manifest cannot be written as a property list (\(error))")
        }
    }

    /// The Info.plist key (boolean) that tells `wallet-host app open` the app is a stand-in whose
    /// `seed/keychain.json` it adds (Wallet's `AppLauncher.standInInfoKey`).
    public static let standInInfoKey = "WalletHostImportStandIn"

    private static func standIn(_ info: Data) -> [String: Any] {
        var dictionary = (try? PropertyListSerialization.propertyList(from: info, format: nil) as? [String: Any]) ?? [:]
        dictionary[standInInfoKey] = true
        return dictionary
    }

    private static func uniqued(_ identifiers: [String]) -> [String] {
        var seen: Set<String> = []
        return identifiers.filter { seen.insert($0).inserted }
    }
}
