import WalletHostRuntime
import WalletWire

/// `--cpu-share search`: bisects the share of one core below which `status` starts missing its
/// deadline. Each probe makes a few `status` calls, every other one on a fresh process: on a
/// slow device it is the cold launch that misses 100 ms, a warm `status` needs little CPU.
public enum CPUShareSearch {
    public struct Probe: Sendable, Codable, Equatable {
        public var sharePercent: Double
        public var misses: Int
        public var calls: Int
        public var p99Ms: Double
    }

    public struct Outcome: Sendable, Codable {
        /// The lowest share tried at which no status call missed; nil when even 100% missed.
        public var lowestPassingSharePercent: Double?
        /// The highest share tried at which status missed; nil when even the floor passed.
        public var highestMissingSharePercent: Double?
        public var deadlineMs: Double?
        public var probes: [Probe]

        /// "status starts missing 100 ms below 12% of one core (misses at 11%)".
        public var sentence: String {
            let deadline = deadlineMs.map(HumanReadable.milliseconds) ?? "its deadline"
            switch (lowestPassingSharePercent, highestMissingSharePercent) {
            case (nil, _): return "status misses \(deadline) even with a whole core"
            case (let passing?, nil): return "status keeps \(deadline) down to \(StressReport.number(passing))% of one core"
            case (let passing?, let missing?):
                return "status starts missing \(deadline) below \(StressReport.number(passing))% of one core "
                    + "(misses at \(StressReport.number(missing))%)"
            }
        }
    }

    /// Bisects between `floor` and 100% to within one percent.
    public static func run(descriptor: ExtensionDescriptor, configuration: HostConfiguration,
                           callsPerProbe: Int = 10, floor: Double = 1) async -> Outcome {
        var probes: [Probe] = []
        func misses(at share: Double) async -> Bool {
            var plan = StressPlan()
            plan.methods = [WireMethod.status]
            plan.calls = callsPerProbe
            plan.coldEvery = 2
            plan.cpuSharePercent = share
            let run = StressRun(descriptor: descriptor, configuration: configuration, plan: plan)
            let report = (try? await run.run()).map(StressReport.init)
            let status = report?.methods[WireMethod.status]
            probes.append(Probe(sharePercent: share, misses: status?.deadlineMisses ?? callsPerProbe,
                                calls: status?.calls ?? 0, p99Ms: status?.latencyMs.p99 ?? 0))
            return status.map { $0.deadlineMisses > 0 || $0.failed > 0 } ?? true
        }
        let deadline = configuration.deadline(for: WireMethod.status, at: descriptor.point)?.milliseconds
        guard !(await misses(at: 100)) else {
            return Outcome(lowestPassingSharePercent: nil, highestMissingSharePercent: 100, deadlineMs: deadline, probes: probes)
        }
        guard await misses(at: floor) else {
            return Outcome(lowestPassingSharePercent: floor, highestMissingSharePercent: nil, deadlineMs: deadline, probes: probes)
        }
        var missing = floor, passing = 100.0
        while passing - missing > 1 {
            let middle = ((missing + passing) / 2).rounded()
            if await misses(at: middle) { missing = middle } else { passing = middle }
        }
        return Outcome(lowestPassingSharePercent: passing, highestMissingSharePercent: missing, deadlineMs: deadline, probes: probes)
    }
}
