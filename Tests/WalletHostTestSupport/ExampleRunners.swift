import Foundation
import Wallet
import WalletBundleInspection
import WalletHostRuntime
import WalletTestSupport
import WalletWire

/// Example bundles run through the host's own supervisor, for tests that look inside it.
extension ExampleBundles {
    /// The extension at `appex`, its descriptor, and a configuration for a loaded 2-core machine on
    /// a fresh simulated device: short hang and stop graces, and a `statusDeadline` for status
    /// in place of Wallet's 100 ms (a cold launch can take longer while other suites run).
    /// - Parameter statePrefix: The name the fresh state directory starts with.
    /// - Throws: `BundleLoadFailure` with the loader's findings when `appex` does not load.
    public static func loaded(appex: URL, statePrefix: String = "wallet-host-state", statusDeadline: Duration = .seconds(5))
        throws -> (ExtensionDescriptor, HostConfiguration, StateDirectory) {
        let (bundle, findings) = BundleLoader.wallet.loadExtension(at: appex)
        guard let bundle else {
            throw BundleLoadFailure(description: "\(appex.path): " + findings.map(\.description).joined(separator: "\n"))
        }
        let state = StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: statePrefix))
        var configuration = HostConfiguration()
        configuration.services = DeviceServices(device: SimulatedDevice(state: state))
        configuration.hangGrace = .milliseconds(500)
        configuration.stopGrace = .milliseconds(300)
        configuration.deadlineOverrides[WireMethod.status] = statusDeadline
        let descriptor = ExtensionDescriptor(bundle: bundle, appGroups: try state.appGroupContainers(bundle.appGroups, team: bundle.team))
        return (descriptor, configuration, state)
    }

    /// A runner for an `.appex`, with a fresh state directory, an event collector and no idle
    /// timeout. Tests about the status deadline set it back explicitly in `configure`.
    /// - Parameter point: The extension point to run it as, in place of the one its bundle names.
    public static func runner(appex: URL, point: ExtensionPoint? = nil, configure: (inout HostConfiguration) -> Void = { _ in })
        throws -> (ExtensionRunner, EventCollector, StateDirectory) {
        var (descriptor, configuration, state) = try loaded(appex: appex)
        let events = EventCollector()
        configuration.events = events
        configuration.idleTimeout = nil
        configure(&configuration)
        if let point { descriptor.point = point }
        return (ExtensionRunner(descriptor: descriptor, configuration: configuration), events, state)
    }
}

/// A bundle the tests expected to load did not; the loader's findings say why.
public struct BundleLoadFailure: Error, CustomStringConvertible {
    /// The bundle's path and the loader's findings, one a line.
    public var description: String
}
