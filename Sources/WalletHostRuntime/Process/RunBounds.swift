import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The bounds of a program the host runs to completion that is an issuer's code (a containing
/// app): the same as its extensions'. A memory limit over everything it runs (its control groups,
/// or its processes counted one by one, as ``ExtensionFootprint`` counts an extension's), its own
/// `pids` group, the container quota (``ContainerQuotaWatch``, and `RLIMIT_FSIZE`), and the
/// limits of ``ProcessLimits/issuerCode(memoryLimitBytes:containerQuotaBytes:hasControlGroup:processLimitOverride:)``.
public struct RunBounds: Sendable {
    /// The name in reports and in its control groups' names (the executable's file name).
    public var executableName: String
    /// Who it is, in events.
    public var bundleIdentifier: String
    /// Everything it runs together, in bytes.
    public var memoryLimitBytes: Int
    /// Whether it gets control groups of its own where the host can make them.
    public var controlGroups: ControlGroupMode
    /// Its App Group containers, and what they may hold together (nil: unbounded).
    public var containers: [String]
    public var containerQuotaBytes: Int?
    /// Where its memory kill, stop and exit are recorded, as an extension's are.
    public var events: any HostEventSink

    public init(executableName: String, bundleIdentifier: String, memoryLimitBytes: Int, controlGroups: ControlGroupMode = .auto,
                containers: [String] = [], containerQuotaBytes: Int? = nil, events: any HostEventSink = NullEventSink()) {
        self.executableName = executableName
        self.bundleIdentifier = bundleIdentifier
        self.memoryLimitBytes = memoryLimitBytes
        self.controlGroups = controlGroups
        self.containers = containers
        self.containerQuotaBytes = containerQuotaBytes
        self.events = events
    }
}

/// One bounded run's watch: made before the spawn (the control groups, which the child moves
/// into before it runs anything), started on the child, checked on a timer of the run's loop.
final class RunBoundsWatch: Sendable {
    /// How often the footprint is counted: with control groups (one `pread`) every 20 ms; without
    /// them every 100 ms, as an extension's is during calls (each process's `statm` and its
    /// descriptors, about 50 µs a process).
    var sampleInterval: Duration { controlGroup == nil ? .milliseconds(100) : .milliseconds(20) }

    let bounds: RunBounds
    let controlGroup: ExtensionControlGroup?
    /// The run's loop's clock: the samples' times, and the footprint's full counts' ages.
    let clock: any HostClock
    private struct State {
        var footprint: ExtensionFootprint?
        var lastSample: ContinuousClock.Instant
        var quotaToken: UInt64?
        var exit: ExtensionExit?
    }
    private let state: Mutex<State>
    /// The containers' use when the quota watch found them over it.
    private let quotaExceeded = Mutex<Int?>(nil)

    init(_ bounds: RunBounds, clock: any HostClock) {
        self.bounds = bounds
        self.clock = clock
        state = Mutex(State(lastSample: clock.now() - .seconds(1)))
        controlGroup = ExtensionControlGroup.make(executableName: bounds.executableName, memoryLimitBytes: bounds.memoryLimitBytes,
                                                  mode: bounds.controlGroups)
    }

    /// `configuration` with the bounds' limits and control groups.
    func apply(to configuration: SpawnConfiguration) -> SpawnConfiguration {
        var configuration = configuration
        configuration.limits = ProcessLimits.issuerCode(memoryLimitBytes: bounds.memoryLimitBytes,
                                                        containerQuotaBytes: bounds.containerQuotaBytes,
                                                        hasControlGroup: controlGroup != nil,
                                                        hasCPUGroup: controlGroup?.cpuPath != nil)
        configuration.controlGroupDescriptors = controlGroup?.procsDescriptors ?? []
        return configuration
    }

    /// Starts watching the spawned `child`.
    func start(_ child: ChildProcess) {
        controlGroup?.closeProcsDescriptors()
        let footprint = ExtensionFootprint(pid: child.pid, root: child.groupLeader, sandboxed: child.sandboxed,
                                           controlGroup: controlGroup, rootDescriptor: child.exitDescriptor, clock: clock)
        var token: UInt64?
        if let quota = bounds.containerQuotaBytes, !bounds.containers.isEmpty {
            token = ContainerQuotaWatch.shared.watch(bounds.containers, quotaBytes: quota) { [self] used in
                quotaExceeded.withLock { $0 = used }
            }
        }
        state.withLock { state in
            state.footprint = footprint
            state.quotaToken = token
        }
    }

    /// Samples the footprint when due and looks at the quota watch: over either, the child's
    /// group and everything in its control group are killed, with the events an extension's
    /// kill gets. The run's loop calls it every ``sampleInterval``.
    /// - Returns: whether the host ended it now.
    func check(_ child: ChildProcess) -> Bool {
        let now = clock.now()
        let footprint = state.withLock { state -> ExtensionFootprint? in
            guard state.exit == nil, now - state.lastSample >= sampleInterval else { return nil }
            state.lastSample = now
            return state.footprint
        }
        if let footprint, let sampled = footprint.sample() {
            let killedByKernel = (controlGroup?.outOfMemoryKills() ?? 0) > 0
            if sampled > bounds.memoryLimitBytes || killedByKernel {
                let usage = footprint.usage()
                let counted = usage.totalBytes > bounds.memoryLimitBytes ? usage.totalBytes : sampled
                record(.memoryKill(HostEvent.MemoryKill(footprintBytes: counted, limitBytes: bounds.memoryLimitBytes, usage: usage,
                                                        kernelLimitBytes: killedByKernel ? controlGroup?.hardLimitBytes : nil)),
                       child)
                end(child, cause: .memoryLimit(footprintBytes: counted), usage: usage)
                return true
            }
        }
        if let used = quotaExceeded.withLock({ $0 }), state.withLock({ $0.exit == nil }), let quota = bounds.containerQuotaBytes {
            let reason = StopReason.containerQuota(usedBytes: used, quotaBytes: quota)
            record(.stop(HostEvent.Stop(reason: reason)), child)
            end(child, cause: .stoppedByHost(reason: reason), usage: nil)
            return true
        }
        return false
    }

    private func end(_ child: ChildProcess, cause: ExtensionExit.Cause, usage: MemoryUsage?) {
        record(.kill(HostEvent.Kill(signal: SignalName.name(SIGKILL), processGroup: child.groupLeader)), child)
        child.signalGroup(SIGKILL)
        controlGroup?.killEveryProcess(timeout: .zero)
        var exit = ExtensionExit(status: .signaled(SIGKILL), cause: cause, executableName: bounds.executableName, pid: child.pid,
                                 memoryLimitDescription: HumanReadable.megabytes(bounds.memoryLimitBytes), stderrTail: [])
        exit.memoryUsage = usage
        state.withLock { $0.exit = exit }
    }

    /// Once the child was reaped: whatever is left in its control groups is killed and the groups
    /// removed, the quota watch ends, and the exit is recorded.
    /// - Returns: how the host ended it, when it did (with the status and stderr it ended with).
    func finish(_ child: ChildProcess, status: TerminationStatus, stderrTail: [String]) -> ExtensionExit? {
        controlGroup?.killEveryProcess()
        // The kernel's OOM killer ended a process at the group's hard limit between two samples.
        if (controlGroup?.outOfMemoryKills() ?? 0) > 0, state.withLock({ $0.exit == nil }) {
            record(.memoryKill(HostEvent.MemoryKill(footprintBytes: bounds.memoryLimitBytes, limitBytes: bounds.memoryLimitBytes,
                                                    kernelLimitBytes: controlGroup?.hardLimitBytes)), child)
            end(child, cause: .memoryLimit(footprintBytes: nil), usage: nil)
        }
        controlGroup?.remove()
        let (token, exit) = state.withLock { state in
            defer { state.quotaToken = nil }
            return (state.quotaToken, state.exit)
        }
        if let token { ContainerQuotaWatch.shared.stopWatching(token) }
        guard var exit else { return nil }
        exit.status = status
        exit.stderrTail = Array(stderrTail.suffix(8))
        var footprint: Int?
        if case .memoryLimit(let bytes) = exit.cause { footprint = bytes }
        record(.exit(HostEvent.Exit(status: status, cause: exit.cause, milliseconds: 0, footprintBytes: footprint,
                                    usage: exit.memoryUsage, description: exit.description)), child)
        return exit
    }

    /// Before the spawn failed: the groups go.
    func abandon() {
        controlGroup?.remove()
    }

    private func record(_ payload: HostEvent.Payload, _ child: ChildProcess) {
        bounds.events.record(HostEvent(payload, bundleIdentifier: bounds.bundleIdentifier, pid: child.pid))
    }
}
