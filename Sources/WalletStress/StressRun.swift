import Foundation
import Synchronization
import WalletHostRuntime
import WalletWire

/// One stress run against one extension: callers share a warm process (a fresh one for every
/// K-th call), every call is measured with the footprint right after it, faults are injected at
/// the plan's rate, and the CPU share is enforced for the whole run.
public final class StressRun: Sendable {
    public let descriptor: ExtensionDescriptor
    public let configuration: HostConfiguration
    public let plan: StressPlan
    private let events: StressEventCounter
    private let warmRunner: ExtensionRunner
    private let chaos: ChaosInjector
    private let progress: Mutex<ProgressState>
    /// The configuration's clock: the run's length (``StressPlan/duration``) and each call's
    /// times are read on it, so a run on a ``TestClock`` ends when the test advances it.
    private var clock: any HostClock { configuration.clock }

    /// What the callers share while the load runs.
    private struct ProgressState {
        var nextIndex = 0
        var records: [StressCallRecord] = []
        var coldLaunches = 0
        var faultsInjected: [ChaosFault: Int] = [:]
        var faultsMissed = 0
        var probe: FootprintProbe?
    }

    /// - Parameters:
    ///   - configuration: The host configuration (deadlines, memory limit); its event sink gets
    ///     everything but per-call chatter (see ``StressEventCounter``).
    public init(descriptor: ExtensionDescriptor, configuration: HostConfiguration, plan: StressPlan) {
        var configuration = configuration
        events = StressEventCounter(forwardingTo: configuration.events)
        configuration.events = events
        configuration.idleTimeout = nil
        self.descriptor = descriptor
        self.configuration = configuration
        self.plan = plan
        warmRunner = ExtensionRunner(descriptor: descriptor, configuration: configuration)
        chaos = ChaosInjector(faults: plan.chaos, rate: plan.chaosRate, seed: plan.seed)
        progress = Mutex(ProgressState())
    }

    /// A live view of the run for a progress line: calls done, and the latest latencies.
    public struct Progress: Sendable {
        public var done: Int
        public var total: Int?
        public var elapsed: Duration
        public var recentLatencies: [Double]
        public var misses: Int
        public var kills: Int
    }

    /// Runs the load and returns everything measured.
    /// - Parameter onProgress: Called about five times a second while the load runs.
    /// - Throws: ``StressError`` when the extension cannot be prepared (no entry to ask for).
    public func run(onProgress: (@Sendable (Progress) -> Void)? = nil) async throws -> StressResult {
        let requests: StressRequests
        do {
            if case .failure(let error) = await warmRunner.prewarm() {
                throw StressError("\(descriptor.executableName) could not be started: \(error.message)")
            }
            requests = try await StressRequests.prepare(methods: plan.methods, runner: warmRunner)
        } catch {
            await warmRunner.stop(reason: "stress could not start")
            throw error
        }
        // Taken with the warm process up and the logs open, and again before it is stopped: any
        // difference is what the load itself left behind (cold launches, relaunches, calls).
        // The runtime opens a timer descriptor the first time a sleep races a call: open it now.
        _ = await Watchdog.run(limit: .seconds(1)) { try? await Task.sleep(for: .microseconds(100)) }
        // The extension's output log opens on its first line, which may come with the load.
        configuration.events.prepareOutput(bundleIdentifier: descriptor.bundleIdentifier)
        let before = HostSnapshot.now()
        let throttle = plan.cpuSharePercent.map {
            CPUThrottle(sharePercent: $0, period: plan.cpuSharePeriod, held: chaos.held)
        }
        let started = clock.now()
        let reporter = onProgress.map { report in
            Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(200))
                    report(self.snapshot(since: started))
                }
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<max(1, plan.concurrency) {
                group.addTask { await self.callerLoop(requests: requests, started: started) }
            }
        }
        let elapsed = clock.now() - started
        await chaos.settle()
        reporter?.cancel()
        throttle?.finish()
        if let onProgress { onProgress(snapshot(since: started)) }
        let warmLaunches = warmRunner.launchCount
        progress.withLock { $0.probe = nil }
        var after = await settledSnapshot { $0.fileDescriptors <= before.fileDescriptors && $0.zombies == 0 }
        await warmRunner.stop(reason: "stress finished")
        // Every extension the run started has been stopped: none may be left unreaped.
        after.zombies = await settledSnapshot { $0.zombies == 0 }.zombies
        return progress.withLock { state in
            StressResult(descriptor: descriptor, plan: plan,
                         memoryLimitBytes: configuration.memoryLimit(at: descriptor.point),
                         records: state.records.sorted { $0.index < $1.index }, elapsed: elapsed,
                         relaunches: max(0, warmLaunches - 1), coldLaunches: state.coldLaunches,
                         faultsInjected: state.faultsInjected, faultsMissed: state.faultsMissed,
                         memoryKills: events.count(.memoryKill), hangs: events.count(.hung),
                         lateCompletions: events.count(.lateCompletion) + events.count(.cancelAcknowledged),
                         doubleCompletions: events.count(.doubleCompletion),
                         protocolErrors: events.count(.protocolError),
                         hostBefore: before, hostAfter: after)
        }
    }

    // MARK: The callers

    private func callerLoop(requests: StressRequests, started: ContinuousClock.Instant) async {
        while let index = takeIndex(started: started) {
            let record = await perform(index: index, requests: requests, started: started)
            progress.withLock { $0.records.append(record) }
        }
    }

    /// The next call's index, or nil when the run has made its calls or used its time.
    private func takeIndex(started: ContinuousClock.Instant) -> Int? {
        if let duration = plan.duration, clock.now() - started >= duration { return nil }
        return progress.withLock { state in
            guard plan.duration != nil || state.nextIndex < plan.calls else { return nil }
            defer { state.nextIndex += 1 }
            return state.nextIndex
        }
    }

    private func perform(index: Int, requests: StressRequests, started: ContinuousClock.Instant) async -> StressCallRecord {
        let method = plan.method(ofCall: index)
        let deadline = configuration.deadline(for: method, at: descriptor.point)
        let cold = plan.isCold(index)
        let runner = cold ? ExtensionRunner(descriptor: descriptor, configuration: configuration) : warmRunner
        let fault = chaos.draw()
        var injected: ChaosFault?
        // A stop is most telling when the process is already stopped as the call is asked: the
        // call then waits past its deadline for certain. A warm process is there to stop.
        if fault?.fault == .stop, !cold, let pid = runner.pid,
           await chaos.inject(.stop, into: pid, deadline: deadline) {
            injected = .stop
        }
        let askedAt = clock.now()
        let watchdog = deadline.map { $0 + configuration.hangGrace } ?? .seconds(60)
        async let outcome = Watchdog.run(limit: watchdog + configuration.stopGrace * 4 + .seconds(5)) {
            await requests.call(method, on: runner)
        }
        if let fault, injected == nil {
            try? await Task.sleep(for: fault.delay)
            if let pid = runner.pid, await chaos.inject(fault.fault, into: pid, deadline: deadline) {
                injected = fault.fault
            }
        }
        let finished = await outcome
        var record = StressCallRecord(index: index, method: method, cold: cold || (finished?.launchedProcess ?? false),
                                      startedAtMilliseconds: (askedAt - started).milliseconds,
                                      latencyMilliseconds: finished?.totalMilliseconds ?? (clock.now() - askedAt).milliseconds,
                                      deadlineMilliseconds: deadline?.milliseconds, fault: injected, lost: finished == nil)
        if let finished {
            record.pid = finished.pid
            record.peakFootprintBytes = finished.peakFootprintBytes
            if case .failure(let error) = finished.result {
                record.errorKind = error.kind.rawValue
                record.message = error.message
                record.evidence = error.diagnostics.lines()
            } else if let pid = finished.pid {
                record.footprintAfterBytes = footprint(of: pid, cold: cold)
            }
        }
        progress.withLock { state in
            if cold { state.coldLaunches += 1 }
            if fault != nil, injected == nil { state.faultsMissed += 1 }
            if let injected { state.faultsInjected[injected, default: 0] += 1 }
        }
        if cold { await runner.stop(reason: "cold stress call finished") }
        return record
    }

    /// The footprint of `pid` right after a call; for the warm process the probe stays open.
    private func footprint(of pid: Int32, cold: Bool) -> Int? {
        if cold { return FootprintProbe(pid: pid).sample() }
        return progress.withLock { state in
            if state.probe?.pid != pid { state.probe = FootprintProbe(pid: pid) }
            return state.probe?.sample()
        }
    }

    private func snapshot(since started: ContinuousClock.Instant) -> Progress {
        progress.withLock { state in
            Progress(done: state.records.count, total: plan.duration == nil ? plan.calls : nil,
                     elapsed: clock.now() - started, recentLatencies: state.records.suffix(2_000).map(\.latencyMilliseconds),
                     misses: state.records.lazy.filter(\.missedDeadline).count,
                     kills: state.faultsInjected[.kill, default: 0] + events.count(.memoryKill) + events.count(.hung))
        }
    }

    /// The host's snapshot once `settled` holds (a finished extension's descriptors are closed by
    /// its I/O thread and its exit is reaped just after the call returns): up to 1 s.
    private func settledSnapshot(until settled: (HostSnapshot) -> Bool) async -> HostSnapshot {
        var snapshot = HostSnapshot.now()
        for _ in 0..<50 where !settled(snapshot) {
            try? await Task.sleep(for: .milliseconds(20))
            snapshot = HostSnapshot.now()
        }
        return snapshot
    }
}
