import Foundation

/// Finds, in a read project, the app targets that embed Wallet extensions and the unit-test
/// targets that test them, and resolves each one's settings, manifests and files (``ImportPlan``).
public enum ImportPlanner {
    /// Wallet's two extension points.
    public static let walletExtensionPoints = ["com.apple.PassKit.issuer-provisioning",
                                               "com.apple.PassKit.issuer-provisioning.authorization"]

    /// - Throws: ``ImportError`` when no app embeds a Wallet extension, a manifest cannot be read, or
    ///   a name the import would give a file or a Swift target is not one (naming target and setting).
    public static func plan(_ project: XcodeProject, configuration: String) throws -> ImportPlan {
        var notCarried: [String] = project.unsupported
        var apps: [ImportPlan.App] = []
        var embeddedIdentifiers: Set<String> = []
        // An extension embedded by two apps is planned once and assembled into both.
        var planned: [String: ImportPlan.Bundle] = [:]
        for target in project.targets where target.productType == XcodeTarget.applicationType {
            var extensions: [ImportPlan.Bundle] = []
            let embedded = target.embeddedTargetIdentifiers + target.dependencyIdentifiers.filter {
                project.target(identifier: $0)?.productType == XcodeTarget.appExtensionType
            }
            for identifier in uniqued(embedded) {
                guard let candidate = project.target(identifier: identifier) else { continue }
                embeddedIdentifiers.insert(identifier)
                if let bundle = planned[identifier] {
                    extensions.append(bundle)
                    continue
                }
                guard let bundle = try walletExtension(candidate, in: project, configuration: configuration, notCarried: &notCarried) else { continue }
                planned[identifier] = bundle
                extensions.append(bundle)
            }
            guard !extensions.isEmpty else {
                notCarried.append("target \(target.name): the app embeds no Wallet extension; skipped")
                continue
            }
            notCarried += target.unsupported.map { "target \(target.name): \($0)" }
            var (app, lines) = try bundle(target, in: project, configuration: configuration)
            notCarried += lines
            if !app.sources.isEmpty {
                notCarried.append("target \(target.name): the app's \(app.sources.count) Swift files are not built; a stand-in writes DIR/seed instead")
            }
            app.sources = []
            app.infoPlist = try xml(standIn(app.infoPlist), target: target.name)
            apps.append(ImportPlan.App(app: app, extensions: extensions))
        }
        guard !apps.isEmpty else {
            throw ImportError("\(project.url.path): no app target embeds an extension whose NSExtensionPointIdentifier is "
                + walletExtensionPoints.joined(separator: " or ") + (notCarried.isEmpty ? "" : " (\(notCarried.joined(separator: "; ")))"))
        }
        var tests: [ImportPlan.TestTarget] = []
        let modules = ImportPlan(configuration: configuration, apps: apps, tests: [], notCarried: []).extensions.map(\.moduleName)
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
            var refused: [String] = []
            let settings = try project.buildSettings(for: target, configuration: configuration, refused: &refused)
            let flags = try named(target) { try SwiftCompilationFlags(settings) }
            notCarried += (target.unsupported + refused + flags.notCarried).map { "target \(target.name): \($0)" }
            tests.append(ImportPlan.TestTarget(name: BuildSettings.identifier(target.name), sources: target.swiftSources,
                                               testedModules: imported, swiftLanguageMode: try named(target) { try languageMode(settings) },
                                               compilationConditions: flags.conditions))
        }
        let plan = ImportPlan(configuration: configuration, apps: apps, tests: tests, notCarried: uniqued(notCarried))
        try PlanNameCollisions.check(plan)
        return plan
    }

    /// The bundle of an embedded extension when it is a Wallet extension; nil, with a line, when it is not or
    /// its Info.plist cannot be read to tell.
    private static func walletExtension(_ candidate: XcodeTarget, in project: XcodeProject, configuration: String,
                                        notCarried: inout [String]) throws -> ImportPlan.Bundle? {
        let point: String?
        do {
            let settings = try project.buildSettings(for: candidate, configuration: configuration)
            let info = try ManifestBuilder(settings: settings, sourceRoot: project.sourceRoot, boundary: project.boundary)
                .infoPlist(targetName: candidate.name)
            point = (info["NSExtension"] as? [String: Any])?["NSExtensionPointIdentifier"] as? String
        } catch {
            notCarried.append("target \(candidate.name): its Info.plist cannot be read to tell whether it is a Wallet extension (\(error)); skipped")
            return nil
        }
        guard let point, walletExtensionPoints.contains(point) else {
            notCarried.append("target \(candidate.name): extension point \(point ?? "(none)") is not one of Wallet's; skipped")
            return nil
        }
        let (bundle, lines) = try bundle(candidate, in: project, configuration: configuration)
        var unsupported = candidate.unsupported
        if let scene = bundle.storyboardScene {
            let file = "\(scene.storyboardName).storyboard: "
            unsupported.removeAll { $0.hasPrefix(file) }
            unsupported.append(StoryboardImport.carriedLine(scene))
        }
        notCarried += unsupported.map { "target \(candidate.name): \($0)" }
        notCarried += lines
        guard bundle.principalClass != nil || bundle.hasEntryPoint else {
            // One extension nothing would start does not stop the others: it is left out, named.
            notCarried.append("target \(candidate.name): its Info.plist has no NSExtension.NSExtensionPrincipalClass and none of its "
                + "Swift files is main.swift or declares @main, so nothing would start the extension "
                + "(and it names no NSExtensionMainStoryboard); name the principal class in NSExtensionPrincipalClass. Not carried")
            return nil
        }
        return bundle
    }

    /// One target's bundle: its settings resolved, names checked, manifests built and files listed;
    /// with the lines (naming the target) for what of it is not carried.
    static func bundle(_ target: XcodeTarget, in project: XcodeProject, configuration: String) throws -> (ImportPlan.Bundle, [String]) {
        var refused: [String] = []
        let settings = try project.buildSettings(for: target, configuration: configuration, refused: &refused)
        return try named(target) {
            let manifests = ManifestBuilder(settings: settings, sourceRoot: project.sourceRoot, boundary: project.boundary)
            var info = try manifests.infoPlist(targetName: target.name)
            let entitlements = try manifests.entitlements(targetName: target.name)
            var extensionInfo = info["NSExtension"] as? [String: Any]
            var principal = (extensionInfo?["NSExtensionPrincipalClass"] as? String).map { $0.split(separator: ".").last.map(String.init) ?? $0 }
            if let principal, let problem = ImportedNames.identifierProblem(principal) {
                throw ImportError("target \(target.name): NSExtensionPrincipalClass names the class \(ImportedNames.quoted(principal)), which \(problem)")
            }
            let productName = try settings["PRODUCT_NAME"] ?? target.name
            let moduleName = try settings["PRODUCT_MODULE_NAME"] ?? BuildSettings.identifier(target.name)
            // A storyboard-only UI extension: iOS instantiates the storyboard's initial view
            // controller, so its class is the principal class the handshake names.
            var scene: StoryboardScene?
            if principal == nil, let storyboard = extensionInfo?["NSExtensionMainStoryboard"] as? String {
                let read = try StoryboardImport.scene(named: storyboard, in: target, moduleName: moduleName)
                scene = read
                principal = read.customClass
                extensionInfo?["NSExtensionPrincipalClass"] = read.customClass.map { "\(moduleName).\($0)" }
                info["NSExtension"] = extensionInfo
            }
            let executableName = try settings["EXECUTABLE_NAME"] ?? target.name
            let bundleName = try settings["FULL_PRODUCT_NAME"] ?? target.name
            for (setting, value) in [("PRODUCT_NAME", productName), ("PRODUCT_MODULE_NAME", moduleName),
                                     ("EXECUTABLE_NAME", executableName), ("FULL_PRODUCT_NAME", bundleName)] {
                try ImportedNames.checkPathComponent(value, setting: setting, target: target.name)
            }
            try ImportedNames.checkIdentifier(moduleName, setting: "PRODUCT_MODULE_NAME", target: target.name)
            let appGroups = entitlements?["com.apple.security.application-groups"] as? [String] ?? []
            for group in appGroups { try ImportedNames.checkAppGroup(group, target: target.name) }
            let flags = try SwiftCompilationFlags(settings)
            let resources = BundleResources.place(target.resources, manifests: try manifests.manifestFiles(),
                                                  reserved: ["Info.plist", executableName, "\(executableName).entitlements", "PlugIns", "seed"],
                                                  sourceRoot: project.sourceRoot)
            let bundle = ImportPlan.Bundle(
                targetName: target.name, moduleName: moduleName, executableName: executableName, bundleName: bundleName,
                sources: target.swiftSources, resources: resources.resources,
                infoPlist: try xml(info, target: target.name),
                entitlements: try entitlements.map { try xml($0, target: target.name) },
                appGroups: appGroups,
                extensionPoint: extensionInfo?["NSExtensionPointIdentifier"] as? String,
                principalClass: principal,
                swiftLanguageMode: try languageMode(settings),
                compilationConditions: flags.conditions,
                usesSwiftUI: target.swiftSources.contains { SourceScan.imports("SwiftUI", in: $0) || SourceScan.imports("Combine", in: $0) },
                hasEntryPoint: target.swiftSources.contains { $0.lastPathComponent == "main.swift" || SourceScan.declaresMain($0) },
                storyboardScene: scene)
            return (bundle, (refused + flags.notCarried + resources.notCarried).map { "target \(target.name): \($0)" })
        }
    }

    /// Runs `body`, an error of which that does not name a target is said to be `target`'s.
    private static func named<Result>(_ target: XcodeTarget, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch let error as ImportError where !error.description.hasPrefix("target ") {
            throw ImportError("target \(target.name): \(error.description)")
        }
    }

    /// `SWIFT_VERSION` (`5.0`, `6.0`, `4.2`) as a SwiftPM language mode (`5`, `6`, `4.2`).
    static func languageMode(_ settings: BuildSettings) throws -> String? {
        guard let version = try settings["SWIFT_VERSION"], !version.isEmpty else { return nil }
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

    private static func uniqued(_ values: [String]) -> [String] {
        var seen: Set<String> = []
        return values.filter { seen.insert($0).inserted }
    }
}
