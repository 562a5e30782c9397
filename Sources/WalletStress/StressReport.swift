
/// The summary of a stress run, as `--json` prints it (docs/STRESS.md is its schema) and as the
/// table, the thresholds and the page read it.
public struct StressReport: Sendable, Codable {
    public var target: Target
    public var plan: Plan
    public var calls: Int
    public var ok: Int
    public var failed: Int
    public var elapsedSeconds: Double
    public var callsPerSecond: Double
    public var methods: [String: MethodSummary]
    /// Calls that ended with neither a result nor an error: must be 0.
    public var lost: Int
    public var relaunches: Int
    public var coldLaunches: Int
    public var memoryKills: Int
    public var hangs: Int
    public var lateCompletions: Int
    public var doubleCompletions: Int
    public var protocolErrors: Int
    public var chaos: Chaos
    public var memory: Memory
    public var host: Host
    /// The first failed calls (at most 100), with what the host saw.
    public var failures: [Failure]
    /// `--find-memory-limit`: the lowest limit under which every call still succeeded.
    public var memoryLimitSearch: MemoryLimitSearch.Outcome?
    /// `--cpu-share search`: the share of one core below which status starts missing its deadline.
    public var cpuShareSearch: CPUShareSearch.Outcome?
    /// The `--fail-on` conditions and whether each held.
    public var thresholds: [ThresholdOutcome] = []

    public struct Target: Sendable, Codable {
        public var bundleIdentifier: String
        public var executable: String
        public var extensionPoint: String
    }

    public struct Plan: Sendable, Codable {
        public var methods: [String]
        public var calls: Int?
        public var durationSeconds: Double?
        public var concurrency: Int
        public var coldEvery: Int
        public var cpuSharePercent: Double?
        public var chaos: [String]
        public var chaosRate: Double
        public var seed: UInt64
    }

    /// Warm or cold calls of one method.
    public struct Phase: Sendable, Codable {
        public var calls: Int
        public var latencyMs: LatencySummary
    }

    public struct MethodSummary: Sendable, Codable {
        public var calls: Int
        public var ok: Int
        public var failed: Int
        public var deadlineMisses: Int
        public var deadlineMs: Double?
        /// The deadline minus p99: how much room is left (negative: p99 misses).
        public var marginMs: Double?
        public var latencyMs: LatencySummary
        public var warm: Phase
        public var cold: Phase
        /// The highest footprint sampled during any call of this method.
        public var peakFootprintBytes: Int?
        /// Failed calls by error kind.
        public var errors: [String: Int]
    }

    public struct Chaos: Sendable, Codable {
        /// Faults that reached a process.
        public var injected: Int
        public var kill: Int
        public var stop: Int
        public var closeFd4: Int
        /// Faults drawn that found no process to hit.
        public var missed: Int
    }

    public struct Memory: Sendable, Codable {
        public var limitBytes: Int
        public var peakBytes: Int?
        /// The footprint after the last successful warm call.
        public var lastBytes: Int?
        /// The fitted growth per call when it is a leak (``MemoryGrowthFit/leaking``), else 0.
        public var leakBytesPerCall: Double
        public var leakFit: MemoryGrowthFit?
        /// More calls until the footprint reaches the limit at that rate, when it leaks.
        public var projectedCallsToLimit: Int?
    }

    public struct Host: Sendable, Codable {
        public var before: HostSnapshot
        public var after: HostSnapshot
        public var fileDescriptorDelta: Int
        /// The descriptors open after the run that were not before it, each `fd N: TARGET`
        /// (``HostSnapshot/newDescriptors(since:)``): what a positive delta left open.
        public var newDescriptors: [String]
        public var threadDelta: Int
        public var zombies: Int
    }

    public struct Failure: Sendable, Codable {
        public var index: Int
        public var method: String
        public var cold: Bool
        public var atMs: Double
        public var latencyMs: Double
        public var kind: String
        public var message: String
        public var fault: String?
        public var evidence: [String]
    }

    /// Summarizes `result`.
    public init(_ result: StressResult) {
        let records = result.records
        target = Target(bundleIdentifier: result.descriptor.bundleIdentifier, executable: result.descriptor.executableName,
                        extensionPoint: result.descriptor.point.identifier)
        let plan = result.plan
        self.plan = Plan(methods: plan.methods, calls: plan.duration == nil ? plan.calls : nil,
                         durationSeconds: plan.duration.map { $0.milliseconds / 1000 }, concurrency: plan.concurrency,
                         coldEvery: plan.coldEvery, cpuSharePercent: plan.cpuSharePercent,
                         chaos: plan.chaos.sorted().map(\.rawValue), chaosRate: plan.chaosRate, seed: plan.seed)
        calls = records.count
        ok = records.filter(\.succeeded).count
        failed = calls - ok
        elapsedSeconds = result.elapsed.milliseconds / 1000
        callsPerSecond = elapsedSeconds > 0 ? Double(calls) / elapsedSeconds : 0
        methods = Dictionary(grouping: records, by: \.method).mapValues(Self.summary)
        lost = records.filter(\.lost).count
        relaunches = result.relaunches
        coldLaunches = result.coldLaunches
        memoryKills = result.memoryKills
        hangs = result.hangs
        lateCompletions = result.lateCompletions
        doubleCompletions = result.doubleCompletions
        protocolErrors = result.protocolErrors
        let faults = result.faultsInjected
        chaos = Chaos(injected: faults.values.reduce(0, +), kill: faults[.kill, default: 0], stop: faults[.stop, default: 0],
                      closeFd4: faults[.closeFd4, default: 0], missed: result.faultsMissed)
        let fit = result.memoryFit
        let last = records.last { !$0.cold && $0.footprintAfterBytes != nil }?.footprintAfterBytes
        let peaks = records.compactMap(\.peakFootprintBytes) + records.compactMap(\.footprintAfterBytes)
        memory = Memory(limitBytes: result.memoryLimitBytes, peakBytes: peaks.max(), lastBytes: last,
                        leakBytesPerCall: fit?.leaking == true ? fit!.slopeBytesPerCall : 0, leakFit: fit,
                        projectedCallsToLimit: last.flatMap { fit?.callsToLimit(from: $0, limitBytes: result.memoryLimitBytes) })
        host = Host(before: result.hostBefore, after: result.hostAfter,
                    fileDescriptorDelta: result.hostAfter.fileDescriptors - result.hostBefore.fileDescriptors,
                    newDescriptors: result.hostAfter.newDescriptors(since: result.hostBefore),
                    threadDelta: result.hostAfter.threads - result.hostBefore.threads, zombies: result.hostAfter.zombies)
        failures = records.filter { !$0.succeeded }.prefix(100).map { record in
            Failure(index: record.index, method: record.method, cold: record.cold, atMs: record.startedAtMilliseconds,
                    latencyMs: record.latencyMilliseconds, kind: record.lost ? "lost" : record.errorKind ?? "unknown",
                    message: record.lost ? "neither a result nor an error arrived" : record.message ?? "",
                    fault: record.fault?.rawValue, evidence: record.evidence)
        }
    }

    private static func summary(_ records: [StressCallRecord]) -> MethodSummary {
        let latencies = LatencySummary(records.map(\.latencyMilliseconds))
        let deadline = records.compactMap(\.deadlineMilliseconds).first
        let warm = records.filter { !$0.cold }, cold = records.filter(\.cold)
        var errors: [String: Int] = [:]
        for record in records where !record.succeeded { errors[record.lost ? "lost" : record.errorKind ?? "unknown", default: 0] += 1 }
        let ok = records.filter(\.succeeded).count
        return MethodSummary(calls: records.count, ok: ok, failed: records.count - ok,
                             deadlineMisses: records.filter(\.missedDeadline).count, deadlineMs: deadline,
                             marginMs: deadline.map { $0 - latencies.p99 }, latencyMs: latencies,
                             warm: Phase(calls: warm.count, latencyMs: LatencySummary(warm.map(\.latencyMilliseconds))),
                             cold: Phase(calls: cold.count, latencyMs: LatencySummary(cold.map(\.latencyMilliseconds))),
                             peakFootprintBytes: (records.compactMap(\.peakFootprintBytes) + records.compactMap(\.footprintAfterBytes)).max(),
                             errors: errors)
    }
}
