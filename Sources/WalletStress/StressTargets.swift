import Foundation
import Wallet
import WalletBundleInspection

/// What `wallet-host stress APPEX|APP...` loads: an `.appex` as it is, an `.app` stands for its
/// non-UI extensions (the UI extension's `authorize` waits on a person, not a deadline).
public enum StressTargets {
    /// The extension bundles to stress, in the order given.
    /// - Throws: ``StressError`` naming a bundle that does not load or an app without a non-UI extension.
    public static func resolve(_ urls: [URL], loader: BundleLoader = BundleLoader.wallet) throws -> [ExtensionBundle] {
        try urls.flatMap { url -> [ExtensionBundle] in
            if url.pathExtension == "app" {
                let (app, findings) = loader.loadApp(at: url)
                guard let app else { throw StressError("cannot load \(url.path): \(errors(findings))") }
                let extensions = app.extensions(withRole: .nonUI)
                guard !extensions.isEmpty else { throw StressError("\(url.path) has no non-UI extension to stress") }
                return extensions
            }
            let (bundle, findings) = loader.loadExtension(at: url)
            guard let bundle else { throw StressError("cannot load \(url.path): \(errors(findings))") }
            return [bundle]
        }
    }

    /// The `.app` an extension sits in (`X.app/PlugIns/Y.appex`), when it does.
    public static func containingApp(of appex: URL, loader: BundleLoader = BundleLoader.wallet) -> AppBundle? {
        let plugIns = appex.standardizedFileURL.deletingLastPathComponent()
        guard plugIns.lastPathComponent == "PlugIns" else { return nil }
        let app = plugIns.deletingLastPathComponent()
        guard app.pathExtension == "app" else { return nil }
        return loader.loadApp(at: app).app
    }

    /// Opens each target's containing app once in `device`, as a person would before Wallet lists
    /// the issuer (the app writes its cards into its App Group). An app with no executable has
    /// nothing to run and is left as it is.
    /// - Throws: ``Wallet/StateError`` when an app cannot be opened.
    public static func openContainingApps(of bundles: [ExtensionBundle], in device: SimulatedDevice) throws {
        var opened: Set<String> = []
        for bundle in bundles {
            guard let app = containingApp(of: bundle.url), let executable = app.executableURL,
                  FileManager.default.isExecutableFile(atPath: executable.path),
                  opened.insert(app.bundleIdentifier).inserted else { continue }
            _ = try AppLauncher(device: device).open(app)
        }
    }

    private static func errors(_ findings: [ValidationFinding]) -> String {
        findings.filter { $0.severity == .error }.map(\.description).joined(separator: "; ")
    }
}
