import Foundation
import Wallet
import WalletBundleInspection
import WalletHostRuntime
import WalletTestSupport
import WalletWire

/// A fresh simulated device with one issuer's app installed and, unless told otherwise, opened
/// once: the add-card flow's tests start from here.
public struct AddCardFixture {
    /// The installed apps: the issuer's alone.
    public let installed: InstalledApps
    /// The device the flow adds cards to.
    public let device: SimulatedDevice
    /// The issuer's app.
    public var app: AppBundle { installed.apps[0] }

    /// - Parameters:
    ///   - app: The issuer's app.
    ///   - statePrefix: The name the device's fresh state directory starts with.
    ///   - openApp: Whether the user opens the app once first (as Wallet requires before it lists the issuer).
    public init(app: AppBundle, statePrefix: String = "wallet-host-flow", openApp: Bool = true) throws {
        installed = InstalledApps(apps: [app])
        device = SimulatedDevice(state: StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: statePrefix)))
        if openApp { _ = try AppLauncher(device: device).open(app) }
    }

    /// The same, with the app loaded from `appURL`.
    /// - Throws: `BundleLoadFailure` with the loader's findings when it does not load.
    public init(appAt appURL: URL, statePrefix: String = "wallet-host-flow", openApp: Bool = true) throws {
        let (app, findings) = BundleLoader.wallet.loadApp(at: appURL)
        guard let app else {
            throw BundleLoadFailure(description: "\(appURL.path): " + findings.map(\.description).joined(separator: "\n"))
        }
        try self.init(app: app, statePrefix: statePrefix, openApp: openApp)
    }

    /// An add-card flow on this device, with `HostConfiguration.relaxedStatus` changed by `configure`.
    public func flow(userAgent: (any UserAgent)? = nil, configure: (inout HostConfiguration) -> Void = { _ in }) -> AddCardFlow {
        var configuration = HostConfiguration.relaxedStatus
        configure(&configuration)
        return AddCardFlow(installed: installed, device: device, configuration: configuration, userAgent: userAgent)
    }

    /// Runs the flow for `kind` with no user to answer the extension's questions.
    public func run(device kind: DeviceKind = .iphone, configure: (inout HostConfiguration) -> Void = { _ in }) async -> FlowReport {
        await flow(configure: configure).run(AddCardOptions(device: kind))
    }

    /// Runs the flow for `kind` with a user who answers as `script` (a `ScriptedUserAgent` JSON) says.
    public func run(_ script: String, device kind: DeviceKind = .iphone,
                    configure: (inout HostConfiguration) -> Void = { _ in }) async throws -> (FlowReport, ScriptedUserAgent) {
        let agent = try ScriptedUserAgent(data: Data(script.utf8))
        // The script's issuer and selection, as the command line passes them: data, not a downcast.
        let options = AddCardOptions(UserPreferences(device: kind).fillingGaps(from: agent.script.preferences))
        return (await flow(userAgent: agent, configure: configure).run(options), agent)
    }

    /// What Wallet's discovery makes of the issuer for `kind` (its status, or why it is not listed).
    public func status(_ kind: DeviceKind) async -> DiscoveredIssuer? {
        await flow().discover(kind).first
    }

    /// The passes on the device for `kind`.
    public func passes(on kind: DeviceKind) throws -> [PassRecord] {
        try device.passes().filter { $0.device == kind }
    }
}

extension HostConfiguration {
    /// Wallet's rules but a 5 s status deadline, for tests about something else on a loaded machine
    /// (a cold status there can take longer than Wallet's 100 ms).
    public static var relaxedStatus: HostConfiguration {
        var configuration = HostConfiguration()
        configuration.deadlineOverrides[WireMethod.status] = .seconds(5)
        return configuration
    }
}
