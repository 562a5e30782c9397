import Foundation
import Wallet
import WalletBundleInspection
import WalletHostRuntime
import WalletStress

/// What `stress` asks for: the extensions, the load, the searches and the verdict's thresholds.
struct StressRequest: Sendable {
    var bundles: [ExtensionBundle]
    var plan: StressPlan
    var findMemoryLimit = false
    var searchCPUShare = false
    var thresholds: [StressThreshold]
    /// Open each extension's containing app first (a fresh device has never opened them).
    var openContainingApps = false
    /// Each moment of a run, for the live progress line.
    var onProgress: (@Sendable (StressRun.Progress) -> Void)?
}

/// One extension's stress run: its report (thresholds judged) and the raw run the HTML page charts.
struct StressSessionResult: Sendable {
    var report: StressReport
    var result: StressResult
}

extension InProcessSession {
    /// Loads each extension with calls on processes of this session's own. Only in this
    /// process: the report measures the host that runs the extensions (its descriptors,
    /// threads and memory) beside them, and the daemon has no stress method.
    /// - Parameter afterEach: Called as each extension's run ends (to clear the progress line).
    func stress(_ request: StressRequest, afterEach: @Sendable () -> Void = {}) async throws -> [StressSessionResult] {
        let state = StateDirectory(url: stateURL)
        let device = SimulatedDevice(state: state)
        if request.openContainingApps { try StressTargets.openContainingApps(of: request.bundles, in: device) }
        var configuration = configuration
        configuration.events = try state.openEventLog()
        configuration.services = DeviceServices(device: device)
        var results: [StressSessionResult] = []
        for bundle in request.bundles {
            let descriptor = ExtensionDescriptor(bundle: bundle, appGroups: try state.appGroupContainers(bundle.appGroups, team: bundle.team))
            let run = StressRun(descriptor: descriptor, configuration: configuration, plan: request.plan)
            let result = try await run.run(onProgress: request.onProgress)
            afterEach()
            var report = StressReport(result)
            if request.findMemoryLimit {
                report.memoryLimitSearch = await MemoryLimitSearch.run(descriptor: descriptor, configuration: configuration,
                                                                       plan: request.plan)
            }
            if request.searchCPUShare {
                report.cpuShareSearch = await CPUShareSearch.run(descriptor: descriptor, configuration: configuration)
            }
            report.thresholds = request.thresholds.map { ThresholdOutcome(threshold: $0, report: report) }
            results.append(StressSessionResult(report: report, result: result))
        }
        return results
    }
}
