import Foundation
import Testing
import Wallet
import WalletBundleInspection
import WalletHostRuntime
import WalletStress
import WalletTestSupport
import WalletWire

/// Stress runs against the built example extensions, each on a fresh simulated device.
enum StressRunHarness {
    /// The test helper in `mode`, its descriptor and a configuration for a loaded 2-core machine
    /// (status gets `statusDeadline`, since other suites may be building while these run).
    static func helper(mode: String, statusDeadline: Duration = .seconds(5)) throws -> (ExtensionDescriptor, HostConfiguration) {
        let appex = try ExampleBundles.testHelper(mode: mode)
        let (bundle, findings) = BundleLoader.wallet.loadExtension(at: appex)
        let loaded = try #require(bundle, "\(findings)")
        let state = StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-stress-state"))
        var configuration = HostConfiguration()
        configuration.services = DeviceServices(device: SimulatedDevice(state: state))
        configuration.hangGrace = .milliseconds(500)
        configuration.stopGrace = .milliseconds(300)
        configuration.deadlineOverrides[WireMethod.status] = statusDeadline
        let descriptor = ExtensionDescriptor(bundle: loaded, appGroups: try state.appGroupContainers(loaded.appGroups, team: loaded.team))
        return (descriptor, configuration)
    }

    /// Runs `plan` against the helper in `mode`.
    static func run(mode: String, plan: StressPlan, statusDeadline: Duration = .seconds(5)) async throws -> (StressResult, StressReport) {
        let (descriptor, configuration) = try helper(mode: mode, statusDeadline: statusDeadline)
        let result = try await StressRun(descriptor: descriptor, configuration: configuration, plan: plan).run()
        return (result, StressReport(result))
    }

    static func plan(calls: Int, _ adjust: (inout StressPlan) -> Void = { _ in }) -> StressPlan {
        var plan = StressPlan()
        plan.calls = calls
        adjust(&plan)
        return plan
    }
}
