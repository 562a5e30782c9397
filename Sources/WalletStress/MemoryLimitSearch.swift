import WalletHostRuntime

/// `--find-memory-limit`: bisects the lowest memory limit under which every call of a short run
/// of the plan still succeeds (launch included: `RLIMIT_DATA` counts the runtime's own mappings),
/// the real headroom under Wallet's limit.
public enum MemoryLimitSearch {
    /// One limit tried.
    public struct Probe: Sendable, Codable, Equatable {
        public var limitBytes: Int
        public var succeeded: Bool
        /// The first failure, when a call failed.
        public var failure: String?
    }

    public struct Outcome: Sendable, Codable {
        /// The lowest limit that worked; nil when even the ceiling did not.
        public var lowestWorkingBytes: Int?
        public var ceilingBytes: Int
        /// The search stops when the bracket is this narrow.
        public var resolutionBytes: Int
        /// The calls each probe made.
        public var callsPerProbe: Int
        public var probes: [Probe]

        /// "lowest working memory limit 9.5 MB (of 55 MB): 45.5 MB of headroom".
        public var sentence: String {
            guard let lowest = lowestWorkingBytes else {
                return "memory limit search: calls fail even at \(HumanReadable.megabytes(ceilingBytes))"
            }
            return "lowest working memory limit \(HumanReadable.megabytes(lowest)) (of \(HumanReadable.megabytes(ceilingBytes))): "
                + "\(HumanReadable.megabytes(ceilingBytes - lowest)) of headroom, \(probes.count) probes of "
                + "\(HumanReadable.counted(callsPerProbe, "call"))"
        }
    }

    /// Bisects between 1 MiB and `ceiling` (default: the limit in `configuration`).
    public static func run(descriptor: ExtensionDescriptor, configuration: HostConfiguration, plan: StressPlan,
                           ceiling: Int? = nil, resolution: Int = 256 * 1024) async -> Outcome {
        let ceiling = ceiling ?? configuration.memoryLimit(at: descriptor.point)
        var probePlan = plan
        probePlan.calls = min(plan.duration == nil ? plan.calls : 50, 50)
        probePlan.duration = nil
        probePlan.chaos = []
        probePlan.cpuSharePercent = nil
        var probes: [Probe] = []
        func attempt(_ limit: Int) async -> Bool {
            var limited = configuration
            limited.memoryLimitOverride = limit
            let probe = await Self.probe(limit: limit, descriptor: descriptor, configuration: limited, plan: probePlan)
            probes.append(probe)
            return probe.succeeded
        }
        guard await attempt(ceiling) else {
            return Outcome(lowestWorkingBytes: nil, ceilingBytes: ceiling, resolutionBytes: resolution,
                           callsPerProbe: probePlan.calls, probes: probes)
        }
        var failing = 1 << 20, working = ceiling
        if await attempt(failing) { working = failing }
        while working - failing > resolution {
            let middle = (failing + working) / 2 / 4096 * 4096
            if await attempt(middle) { working = middle } else { failing = middle }
        }
        return Outcome(lowestWorkingBytes: working, ceilingBytes: ceiling, resolutionBytes: resolution,
                       callsPerProbe: probePlan.calls, probes: probes)
    }

    private static func probe(limit: Int, descriptor: ExtensionDescriptor, configuration: HostConfiguration,
                              plan: StressPlan) async -> Probe {
        let run = StressRun(descriptor: descriptor, configuration: configuration, plan: plan)
        do {
            let report = StressReport(try await run.run())
            let failure = report.failures.first.map { "\($0.method): \($0.message)" }
            return Probe(limitBytes: limit, succeeded: report.failed == 0 && report.lost == 0, failure: failure)
        } catch {
            return Probe(limitBytes: limit, succeeded: false, failure: "\(error)")
        }
    }
}
