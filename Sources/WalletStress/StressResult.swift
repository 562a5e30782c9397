import WalletHostRuntime

/// Everything one stress run measured, before it is summarized (``StressReport``) or drawn
/// (``StressPage``).
public struct StressResult: Sendable {
    public var descriptor: ExtensionDescriptor
    public var plan: StressPlan
    public var memoryLimitBytes: Int
    /// Every call, in index order.
    public var records: [StressCallRecord]
    public var elapsed: Duration
    /// Times the warm process had to be launched again (after a crash, a kill, a hang).
    public var relaunches: Int
    /// Fresh processes started for `--cold-every` calls.
    public var coldLaunches: Int
    public var faultsInjected: [ChaosFault: Int]
    /// Faults drawn that found no process to hit (it was between lives).
    public var faultsMissed: Int
    public var memoryKills: Int
    public var hangs: Int
    public var lateCompletions: Int
    public var doubleCompletions: Int
    public var protocolErrors: Int
    public var hostBefore: HostSnapshot
    public var hostAfter: HostSnapshot

    /// Footprint samples for the growth fit: each successful warm call's footprint right after
    /// it, against how many calls its process had served by then. Cold calls run on processes of
    /// their own and are left out: one sample per process says nothing about growth.
    public var footprintSamples: [MemoryGrowthFit.Sample] {
        var served: [Int32: Int] = [:]
        var samples: [MemoryGrowthFit.Sample] = []
        for record in records {
            guard let pid = record.pid, !record.cold else { continue }
            served[pid, default: 0] += 1
            if let bytes = record.footprintAfterBytes {
                samples.append(MemoryGrowthFit.Sample(pid: pid, callsServed: served[pid]!, bytes: bytes))
            }
        }
        return samples
    }

    /// The growth fit over ``footprintSamples``.
    public var memoryFit: MemoryGrowthFit? {
        MemoryGrowthFit(footprintSamples)
    }
}
