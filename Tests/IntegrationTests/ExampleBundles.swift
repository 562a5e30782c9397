import Foundation
import Testing
import Wallet
import WalletBundleInspection
import WalletHostRuntime
import WalletTestSupport
import WalletWire

/// Example bundles run through the host's own supervisor, for tests that look inside it.
extension ExampleBundles {
    /// A runner for an `.appex`, with a fresh state directory and an event collector.
    /// - Parameter point: The extension point to run it as, in place of the one its bundle names.
    static func runner(appex: URL, point: ExtensionPoint? = nil, configure: (inout HostConfiguration) -> Void = { _ in })
        throws -> (ExtensionRunner, EventCollector, StateDirectory) {
        let (bundle, findings) = BundleLoader.wallet.loadExtension(at: appex)
        guard let bundle else {
            throw BundleLoadFailure(description: findings.map(\.description).joined(separator: "\n"))
        }
        let state = StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-state"))
        let events = EventCollector()
        var configuration = HostConfiguration()
        configuration.events = events
        configuration.services = DeviceServices(device: SimulatedDevice(state: state))
        configuration.idleTimeout = nil
        configuration.hangGrace = .milliseconds(500)
        configuration.stopGrace = .milliseconds(300)
        // Tests run many suites at once on two cores: a cold launch can take longer than
        // Wallet's 100 ms. Tests about the status deadline set it back explicitly.
        configuration.deadlineOverrides[WireMethod.status] = .seconds(5)
        configure(&configuration)
        var descriptor = ExtensionDescriptor(bundle: bundle,
                                             appGroups: try state.appGroupContainers(bundle.appGroups, team: bundle.team))
        if let point { descriptor.point = point }
        return (ExtensionRunner(descriptor: descriptor, configuration: configuration), events, state)
    }
}

struct BundleLoadFailure: Error, CustomStringConvertible {
    var description: String
}
