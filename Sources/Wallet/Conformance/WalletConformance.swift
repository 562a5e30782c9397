import ConformanceEngine
import Foundation
import WalletBundleInspection
import WalletHostRuntime
import WalletWire

/// Wallet's conformance battery (`wallet-host conform`): the host's generic checks, called the
/// way Wallet calls each method, plus Wallet's own rules for entries and requests.
///
/// A run uses a simulated device in `state`: the containing app is opened once first (as a user
/// does before Wallet lists an issuer, so that its App Group holds what it writes at login), the
/// pass library answers `passLibrary.passes`, and a UI extension's prompts are answered by a
/// scripted user who chooses Cancel (or leaves the sheet when a screen has no Cancel) and whose
/// biometrics never match, so `authorize` can run without a person.
///
///     let suite = WalletConformance.suite(state: StateDirectory(url: scratch), options: ConformanceOptions())
///     let report = await suite.run(appex: URL(fileURLWithPath: "SampleIssuer.app/PlugIns/WNonUIExt.appex"))
public enum WalletConformance {
    /// The battery for Wallet's two extension points.
    /// - Parameters:
    ///   - state: The simulated device's state directory; a fresh one gives repeatable results.
    ///   - options: How the engine runs (deadlines and memory limit in its configuration).
    ///   - loader: Loads bundles; Wallet's registry and policy by default.
    public static func suite(state: StateDirectory, options: ConformanceOptions, loader: BundleLoader = BundleLoader.wallet)
        -> ConformanceSuite {
        ConformanceSuite(profile: profile(state: state, loader: loader), options: options)
    }

    /// Wallet's profile: its exercises, its run set-up and its own checks.
    /// - Parameters:
    ///   - state: The simulated device's state directory.
    ///   - loader: Loads bundles.
    public static func profile(state: StateDirectory, loader: BundleLoader = BundleLoader.wallet) -> ConformanceProfile {
        let device = SimulatedDevice(state: state)
        return ConformanceProfile(loader: loader,
                                  prepare: { bundle in try prepare(bundle, device: device, loader: loader) },
                                  exercises: exercises,
                                  checks: { point in checks(for: point, device: device) })
    }

    /// The user a conformance run puts in front of a UI extension: no scripted answers, so
    /// every prompt gets its Cancel action, a prompt without one ("Cancelar", a close icon, no
    /// cancel at all) is left by dismissing the sheet, and every biometric request gets "no match".
    public static func cancellingUser() -> ScriptedUserAgent {
        ScriptedUserAgent(script: UserAgentScript())
    }

    // MARK: Set-up

    static func prepare(_ bundle: ExtensionBundle, device: SimulatedDevice, loader: BundleLoader) throws -> ConformanceEnvironment {
        var notes: [String] = []
        if let appURL = containingApp(of: bundle.url) {
            notes.append(openOnce(appURL, device: device, loader: loader))
        }
        let appGroups = try device.state.appGroupContainers(bundle.appGroups, team: bundle.team)
        var userAgent: (any UserAgent)?
        if bundle.role == .ui {
            userAgent = cancellingUser()
            notes.append("the scripted user answers every prompt with its Cancel action (or leaves the sheet when it has none) "
                         + "and every biometric request with no match")
        }
        return ConformanceEnvironment(appGroups: appGroups, services: DeviceServices(device: device, userAgent: userAgent),
                                      notes: notes)
    }

    /// Opens the containing app unless this device already has, and says what happened.
    private static func openOnce(_ appURL: URL, device: SimulatedDevice, loader: BundleLoader) -> String {
        let name = appURL.lastPathComponent
        let (app, findings) = loader.loadApp(at: appURL)
        guard let app else {
            let first = findings.first { $0.isError }.map { ": \($0.key): \($0.problem)" } ?? ""
            return "\(name) does not load, so it was not opened first\(first)"
        }
        if let settings = try? device.settings(), settings.launchedApps.contains(app.bundleIdentifier) {
            return "\(name) was opened before on this simulated device"
        }
        do {
            let opened = try AppLauncher(device: device).open(app, timeout: .seconds(10))
            return "opened \(name) once first (\(HumanReadable.milliseconds(opened.run.milliseconds))), "
                + "as a user does before Wallet lists the issuer"
        } catch {
            return "could not open \(name) first, so its App Group may be empty: \(error)"
        }
    }

    /// `X.app` for `X.app/PlugIns/Y.appex`.
    private static func containingApp(of appexURL: URL) -> URL? {
        let plugIns = appexURL.deletingLastPathComponent()
        let app = plugIns.deletingLastPathComponent()
        guard plugIns.lastPathComponent == "PlugIns", app.pathExtension == "app" else { return nil }
        return app
    }

    // MARK: Checks

    static func checks(for point: ExtensionPoint, device: SimulatedDevice) -> [ConformanceCheckDefinition] {
        var checks: [ConformanceCheckDefinition] = []
        if point.method(named: WireMethod.passEntries) != nil || point.method(named: WireMethod.remotePassEntries) != nil {
            checks.append(entriesValid(device: device))
        }
        if point.method(named: WireMethod.generateAddPaymentPassRequest) != nil {
            checks.append(requestValid)
        }
        if point.method(named: WireMethod.passEntries) != nil || point.method(named: WireMethod.remotePassEntries) != nil {
            checks.append(instanceState)
        }
        return checks
    }
}
