import Foundation
import WalletBundleInspection
import WalletHostRuntime

/// Where the add-card flow gets its extension runners: by default one ``IssuerRunners`` per run;
/// the daemon hands out its warm processes instead.
public protocol IssuerRunnerSource: Sendable {
    /// The runner of `app`'s extension for the role, or nil when the app has none.
    /// - Throws: ``StateError`` when its App Group containers cannot be created.
    func runner(for app: AppBundle, role: ExtensionRole) async throws -> ExtensionRunner?
    /// The flow is over: stop what was started for it alone.
    func stopAll() async
}

/// One ``ExtensionRunner`` per installed extension, created on first use and shared by the
/// flow's steps (so the non-UI extension stays warm from `status` to the last card).
actor IssuerRunners: IssuerRunnerSource {
    private let installed: InstalledApps
    private let device: SimulatedDevice
    private let configuration: HostConfiguration
    private let userAgent: (any UserAgent)?
    private var runners: [String: ExtensionRunner] = [:]

    init(installed: InstalledApps, device: SimulatedDevice, configuration: HostConfiguration, userAgent: (any UserAgent)?) {
        self.installed = installed
        self.device = device
        self.configuration = configuration
        self.userAgent = userAgent
    }

    /// The runner of `app`'s extension for the role, or nil when the app has none.
    /// - Throws: ``StateError`` when its App Group containers cannot be created.
    func runner(for app: AppBundle, role: ExtensionRole) throws -> ExtensionRunner? {
        guard let bundle = app.extensions(withRole: role).first else { return nil }
        if let existing = runners[bundle.bundleIdentifier] { return existing }
        var configuration = configuration
        // Only the UI extension talks to the user.
        configuration.services = DeviceServices(device: device, userAgent: role == .ui ? userAgent : nil)
        let descriptor = ExtensionDescriptor(bundle: bundle, appGroups: try device.state.appGroupContainers(bundle.appGroups, team: bundle.team))
        let runner = ExtensionRunner(descriptor: descriptor, configuration: configuration)
        runners[bundle.bundleIdentifier] = runner
        return runner
    }

    func stopAll() async {
        let all = Array(runners.values)
        runners.removeAll()
        for runner in all { await runner.stop(reason: "flow finished") }
    }
}
