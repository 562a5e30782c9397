import Foundation
import ExtensionModel

/// Loads `.app` bundles with their `PlugIns/*.appex` extensions and validates their manifests.
///
/// Loading never throws: every problem becomes a ``ValidationFinding``, and a bundle loads when none
/// of its findings (nor its extensions') is an error. One broken bundle never stops or hides the others.
///
///     let loader = BundleLoader(registry: .wallet, policy: .wallet)
///     let (apps, findings) = loader.loadApps(in: URL(fileURLWithPath: "Bundles"))
public struct BundleLoader: Sendable {
    /// The extension points an extension may plug into.
    public var registry: ExtensionPointRegistry
    /// The platform rules beyond the registry (entitlement, minimum OS version).
    public var policy: BundlePolicy

    private typealias Key = ValidationFinding.Key

    /// Creates a loader.
    /// - Parameters:
    ///   - registry: The extension points an extension may plug into; `ExtensionPointRegistry.wallet` for Wallet's two.
    ///   - policy: The platform rules beyond the registry; `BundlePolicy.wallet` for Wallet's.
    public init(registry: ExtensionPointRegistry, policy: BundlePolicy) {
        self.registry = registry
        self.policy = policy
    }

    /// Loads one `.app` with the extensions in its `PlugIns` directory.
    /// - Parameter url: The `.app` directory.
    /// - Returns: The app, or nil when the app or any of its extensions has an error finding;
    ///   and every finding about the app and its extensions, in directory order.
    public func loadApp(at url: URL) -> (app: AppBundle?, findings: [ValidationFinding]) {
        let outcome = appOutcome(at: url.standardizedFileURL)
        return (outcome.loaded.first, outcome.findings)
    }

    /// Loads one `.appex` on its own.
    ///
    /// When it sits in `X.app/PlugIns/`, it is also checked against `X.app` (identifier prefix,
    /// App Groups) and gets `X.app`'s identifier as its containing app's.
    /// - Parameter url: The `.appex` directory.
    /// - Returns: The extension, or nil when it has an error finding; and every finding about it.
    public func loadExtension(at url: URL) -> (bundle: ExtensionBundle?, findings: [ValidationFinding]) {
        let outcome = extensionOutcome(at: url.standardizedFileURL)
        return (outcome.loaded.first, outcome.findings)
    }

    /// Loads every `*.app` in a directory, in name order.
    /// - Parameter directory: A directory holding `.app` bundles (other entries are ignored).
    /// - Returns: The apps that loaded, and the findings about every app, loaded or not.
    public func loadApps(in directory: URL) -> (apps: [AppBundle], findings: [ValidationFinding]) {
        let outcome = appsOutcome(in: directory.standardizedFileURL)
        return (outcome.loaded, outcome.findings)
    }

    /// Validates bundles for the `wallet-host validate` command.
    /// - Parameters:
    ///   - paths: Each a `.app`, a `.appex`, a directory of `.app` bundles, or a device build
    ///     (`.ipa`, `.xcarchive`, or a `.app` whose executable is Mach-O), which
    ///     ``DeviceBuildValidator`` checks as a device would see it.
    ///   - deviceBuildOptions: The target iOS and the date for device builds.
    /// - Returns: Every finding, with what loaded and how many bundles were read.
    public func validate(paths: [URL], deviceBuildOptions: DeviceBuildOptions = DeviceBuildOptions()) -> ValidationReport {
        var report = ValidationReport(findings: [], bundleCount: 0, apps: [], extensions: [])
        let deviceBuilds = DeviceBuildValidator(registry: registry, policy: policy, options: deviceBuildOptions)
        for url in paths.map(\.standardizedFileURL) {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                report.findings.error(url.path, Key.path, "does not exist")
                continue
            }
            if let (findings, bundleCount) = deviceBuilds.validateIfDeviceBuild(url, isDirectory: isDirectory.boolValue) {
                report.findings += findings
                report.bundleCount += bundleCount
                report.noteChecksRun(DeviceBuildCheck.allCases.map(\.rawValue))
                continue
            }
            report.noteChecksRun([ValidationReport.sourceLayoutCheck])
            switch url.pathExtension {
            case BundleKind.app.pathExtension:
                report.add(appOutcome(at: url)) { $0.apps.append(contentsOf: $1) }
            case BundleKind.appExtension.pathExtension:
                report.add(extensionOutcome(at: url)) { $0.extensions.append(contentsOf: $1) }
            case _ where isDirectory.boolValue:
                report.add(appsOutcome(in: url)) { $0.apps.append(contentsOf: $1) }
            default:
                report.findings.error(url.path, Key.path, "is neither a .app, .appex, .ipa or .xcarchive bundle nor a directory of .app bundles")
            }
        }
        report.findings += TeamChecks.appGroupClashes(TeamChecks.claimants(apps: report.apps, extensions: report.extensions))
        return report
    }
}

/// What loading gave: the bundles that loaded, every finding, and how many bundles were read.
struct LoadOutcome<Loaded> {
    var loaded: [Loaded] = []
    var findings: [ValidationFinding] = []
    /// Apps and extensions read, loaded or not.
    var bundleCount = 0
}

extension ValidationReport {
    fileprivate mutating func noteChecksRun(_ checks: [String]) {
        checksRun += checks.filter { !checksRun.contains($0) }
    }

    fileprivate mutating func add<Loaded>(_ outcome: LoadOutcome<Loaded>, keep: (inout ValidationReport, [Loaded]) -> Void) {
        findings.append(contentsOf: outcome.findings)
        bundleCount += outcome.bundleCount
        keep(&self, outcome.loaded)
    }
}

extension BundleLoader {
    private var extensionReader: ExtensionReader { ExtensionReader(registry: registry, policy: policy) }
    private var containingAppChecks: ContainingAppChecks { ContainingAppChecks(registry: registry, policy: policy) }

    func appOutcome(at url: URL) -> LoadOutcome<AppBundle> {
        var outcome = LoadOutcome<AppBundle>()
        let manifest = BundleManifest.read(bundleURL: url, kind: .app, findings: &outcome.findings)
        let summary = manifest.map(ContainingAppSummary.init)
        if let summary {
            containingAppChecks.checkAppEntitlement(of: summary, findings: &outcome.findings)
        }
        if let manifest, let bundleIdentifier = manifest.bundleIdentifier {
            TeamChecks.checkKeychainGroupPrefixes(manifest.entitlements, unsignedTeam: bundleIdentifier, bundleURL: url,
                                                  findings: &outcome.findings)
        }
        // Extensions are read even when the app's own Info.plist is unusable, so all their findings show.
        var candidates = extensionURLs(inApp: url, findings: &outcome.findings).map(extensionReader.read(at:))
        var setFindings: [ValidationFinding] = []
        if let summary {
            for index in candidates.indices {
                containingAppChecks.checkMembership(of: &candidates[index], in: summary)
            }
            containingAppChecks.checkExtensionSet(candidates, of: summary, findings: &setFindings)
        }
        outcome.findings += candidates.flatMap(\.findings) + setFindings
        outcome.bundleCount = 1 + candidates.count
        guard !outcome.findings.containsErrors, let manifest, let bundleIdentifier = manifest.bundleIdentifier else {
            return outcome
        }
        let extensions = candidates.compactMap { $0.bundle(containingAppBundleIdentifier: bundleIdentifier) }
        outcome.loaded = [AppBundle(
            url: url, bundleIdentifier: bundleIdentifier, executableURL: manifest.executableURL,
            entitlements: manifest.entitlements, extensions: extensions, infoDictionary: manifest.info)]
        return outcome
    }

    /// The `.appex` directories in `PlugIns`, in name order; none when there is no `PlugIns`.
    private func extensionURLs(inApp appURL: URL, findings: inout [ValidationFinding]) -> [URL] {
        let plugInsURL = appURL.appendingPathComponent("PlugIns")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: plugInsURL.path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else {
            findings.error(plugInsURL.path, Key.bundle, "is a file; PlugIns must be a directory of .appex bundles")
            return []
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: plugInsURL.path)) ?? []
        return names.filter { $0.hasSuffix(".appex") }.sorted().map { plugInsURL.appendingPathComponent($0) }
    }

    func extensionOutcome(at url: URL) -> LoadOutcome<ExtensionBundle> {
        var candidate = extensionReader.read(at: url)
        var containingAppBundleIdentifier: String?
        if let appURL = Self.enclosingApp(of: url) {
            var appFindings: [ValidationFinding] = []  // the app's own problems are not this extension's
            if let appManifest = BundleManifest.read(bundleURL: appURL, kind: .app, findings: &appFindings),
               let appIdentifier = appManifest.bundleIdentifier {
                containingAppChecks.checkMembership(of: &candidate, in: ContainingAppSummary(appManifest))
                containingAppBundleIdentifier = appIdentifier
            } else {
                candidate.checkKeychainGroupPrefixesAlone()
                candidate.findings.note(url.path, Key.bundle,
                                        "sits in \(appURL.lastPathComponent)/PlugIns, but that app has no usable CFBundleIdentifier; "
                                            + "the identifier prefix and App Groups were not checked")
            }
        } else {
            candidate.checkKeychainGroupPrefixesAlone()
        }
        var outcome = LoadOutcome<ExtensionBundle>(findings: candidate.findings, bundleCount: 1)
        if let bundle = candidate.bundle(containingAppBundleIdentifier: containingAppBundleIdentifier) {
            outcome.loaded = [bundle]
        }
        return outcome
    }

    /// `X.app` for `X.app/PlugIns/Y.appex`, nil for an extension anywhere else.
    private static func enclosingApp(of extensionURL: URL) -> URL? {
        let plugIns = extensionURL.deletingLastPathComponent()
        let app = plugIns.deletingLastPathComponent()
        guard plugIns.lastPathComponent == "PlugIns", app.pathExtension == BundleKind.app.pathExtension else { return nil }
        return app
    }

    func appsOutcome(in directory: URL) -> LoadOutcome<AppBundle> {
        var outcome = LoadOutcome<AppBundle>()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) else {
            outcome.findings.error(directory.path, Key.directory, "does not exist")
            return outcome
        }
        guard isDirectory.boolValue,
              let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
            outcome.findings.error(directory.path, Key.directory, "is not a readable directory")
            return outcome
        }
        let appNames = names.filter { $0.hasSuffix(".app") }.sorted()
        if appNames.isEmpty {
            outcome.findings.warning(directory.path, Key.directory, "holds no .app bundles")
        }
        var firstOwner: [String: String] = [:]
        for name in appNames {
            let app = appOutcome(at: directory.appendingPathComponent(name))
            outcome.findings += app.findings
            outcome.bundleCount += app.bundleCount
            guard let loaded = app.loaded.first else { continue }
            if let owner = firstOwner[loaded.bundleIdentifier] {
                outcome.findings.error(loaded.url.appendingPathComponent("Info.plist").path, Key.bundleIdentifier,
                                       "\"\(loaded.bundleIdentifier)\" is also the identifier of \(owner); "
                                           + "the host cannot tell the two apps apart, so this one is not loaded")
                continue
            }
            firstOwner[loaded.bundleIdentifier] = name
            outcome.loaded.append(loaded)
        }
        return outcome
    }
}

extension ExtensionCandidate {
    /// The keychain group check of an extension outside any usable app, of the team its identifier implies.
    fileprivate mutating func checkKeychainGroupPrefixesAlone() {
        guard let manifest, let bundleIdentifier = manifest.bundleIdentifier else { return }
        let team = ExtensionDescriptor.unsignedTeam(bundleIdentifier: bundleIdentifier, containingAppBundleIdentifier: nil)
        TeamChecks.checkKeychainGroupPrefixes(manifest.entitlements, unsignedTeam: team, bundleURL: url, findings: &findings)
    }
}
