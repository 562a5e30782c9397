import Foundation
import WalletHostRuntime
import WalletHostTestSupport
import WalletStress
import WalletTestSupport

/// Stress runs against the built example extensions, each on a fresh simulated device.
enum StressRunHarness {
    /// The test helper in `mode`, its descriptor and a configuration for a loaded 2-core machine
    /// (status gets `statusDeadline`, since other suites may be building while these run).
    static func helper(mode: String, statusDeadline: Duration = .seconds(5)) throws -> (ExtensionDescriptor, HostConfiguration) {
        let (descriptor, configuration, _) = try ExampleBundles.loaded(appex: try ExampleBundles.testHelper(mode: mode),
                                                                    statePrefix: "wallet-host-stress-state", statusDeadline: statusDeadline)
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
