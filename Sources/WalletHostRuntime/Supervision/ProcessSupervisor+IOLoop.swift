import CWalletSpawn
import Foundation
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// The longest a process waits for its next turn: calls due later than this need not wake it.
let idlePollInterval: Duration = .milliseconds(50)
/// How often the extension's memory is sampled while no call is in flight, at most: what its
/// other processes hold counts too, and they do not wait for a call. Never more often than
/// during calls (the configuration's sample interval).
let idleSampleInterval: Duration = .milliseconds(100)
/// How often the reactor looks whether the kernel's OOM killer ended one of the extension's
/// processes at its control group's hard limit, whatever the sampling (when the group's memory
/// events are not to be had: with them, the kernel says so).
let outOfMemoryCheckInterval: Duration = .milliseconds(20)
/// The longest an idle process waits for its next turn when its control group's memory events
/// watch it: nothing is due, and the events, the pipes and the exit bring a turn.
let watchedIdlePollInterval: Duration = .seconds(1)
/// Where the grid of idle polls starts (``ProcessSupervisor/idleTick(after:every:)``).
let idleTickOrigin = ContinuousClock.now

extension ProcessSupervisor {
    /// One turn of the reactor for this process: reads what is `ready`, runs the delegate's
    /// timers, samples the footprint when due, and plans the next wake-up. On the exit, its
    /// descriptors leave the reactor and the teardown goes to a thread of its own.
    func turn(_ process: SupervisedProcess, ready: SupervisorReactor.Roles, buffer: UnsafeMutableRawBufferPointer) {
        let reactor = process.reactor
        if ready.contains(.wakeup) { drainWakeup(buffer) }
        guard readPipes(process, ready: ready, buffer: buffer) else { return }
        if ready.contains(.exit) || child.exitDescriptor < 0, let status = child.reapIfExited() {
            reactor.unwatchAll(of: process)
            tearDown(process, status: status)
            return
        }
        runTimersAndSample(process, ready: ready)
        reactor.watchRequests(of: process, plan(process))
    }

    /// Reads what the turn's allowance lets it of fd 4, stdout and stderr, and writes what waits
    /// for fd 3; a turn with frames left asks for another.
    /// - Returns: false when a line too large for a turn went to a thread of its own (the turn ends).
    private func readPipes(_ process: SupervisedProcess, ready: SupervisorReactor.Roles, buffer: UnsafeMutableRawBufferPointer) -> Bool {
        let reactor = process.reactor
        let allowanceEnds = ContinuousClock.now + SupervisorReactor.turnAllowance
        var handledAll = true
        if process.loop.responses.open, ready.contains(.responses) || !process.loop.responses.backlog.isEmpty {
            switch readResponses(buffer, loop: &process.loop, allowanceEnds: allowanceEnds) {
            case .handledAll: break
            case .framesLeft: handledAll = false
            case .large(let frame):
                handleApart(frame, of: process)
                return false
            }
            if !process.loop.responses.open { reactor.unwatch(child.responseReader, of: process) }
        }
        if process.loop.stdout.open, ready.contains(.stdout) || !process.loop.stdout.backlog.isEmpty {
            handledAll = readOutput(buffer, stream: .stdout, loop: &process.loop, allowanceEnds: allowanceEnds) && handledAll
            if !process.loop.stdout.open { reactor.unwatch(child.stdoutReader, of: process) }
        }
        if process.loop.stderr.open, ready.contains(.stderr) || !process.loop.stderr.backlog.isEmpty {
            handledAll = readOutput(buffer, stream: .stderr, loop: &process.loop, allowanceEnds: allowanceEnds) && handledAll
            if !process.loop.stderr.open { reactor.unwatch(child.stderrReader, of: process) }
        }
        if ready.contains(.requests) { flushOutgoing() }
        // Frames left for later: another turn, after the other ready processes' (the pipes may be
        // empty now, so epoll would not bring one).
        if !handledAll { wake() }
        return true
    }

    /// Runs the delegate's timers (deadlines) and samples the footprint when either is due.
    private func runTimersAndSample(_ process: SupervisedProcess, ready: SupervisorReactor.Roles) {
        let memoryEvents = context.controlGroup?.memoryEvents ?? -1
        let delegate = process.loop.delegate
        let after = clock.now()
        // Answers read but left in the backlog were in time: their deadlines wait for the next
        // turn, which comes at once (a process that keeps its backlog full by flooding fd 4 gets
        // its timers every 10 ms all the same).
        if process.loop.responses.backlog.isEmpty || after - process.loop.lastTimers >= .milliseconds(10) {
            process.loop.lastTimers = after
            delegate.supervisorTimersDue(self, now: after)
        }
        let callsInFlight = process.loop.callsInFlight
        // Idle turns come on the shared grid's ticks, a little late or early by their place in
        // the batch: half a poll's slack keeps an idle sample on every other tick (100 ms).
        let interval = callsInFlight ? context.sampleInterval
            : max(idleSampleInterval, context.sampleInterval) - idlePollInterval / 2
        if ready.contains(.memoryEvents) {
            // Usage crossed the watch threshold, or the OOM killer acted: sample on the
            // timer again (the next sample reads which side of the threshold usage is on).
            context.controlGroup?.drainMemoryEvents()
            process.loop.memoryAboveWatch = true
        }
        let usageWatched = context.controlGroup?.usageWatched ?? false
        let sampling = callsInFlight || !usageWatched || process.loop.memoryAboveWatch
        if sampling && after - process.loop.lastSample >= max(interval, process.loop.lastSampleCost * 10) {
            process.loop.lastSample = after
            process.loop.lastOutOfMemoryCheck = after
            // What the sample costs is real time, whatever the clock.
            let sampleStarted = ContinuousClock.now
            // Only samples taken during calls count toward their peaks.
            sampleFootprint(delegate: callsInFlight ? delegate : nil,
                            fullCountAge: callsInFlight ? ExtensionFootprint.fullCountAgeDuringCalls
                                : footprint.fullCountAgeIdle)
            process.loop.lastSampleCost = .now - sampleStarted
            if usageWatched, let group = context.controlGroup {
                process.loop.memoryAboveWatch = (group.usageBytes() ?? .max) >= group.memoryWatchThresholdBytes
            }
        } else if context.controlGroup != nil, memoryEvents < 0, after - process.loop.lastOutOfMemoryCheck >= outOfMemoryCheckInterval {
            process.loop.lastOutOfMemoryCheck = after
            if context.controlGroup?.outOfMemoryKills() ?? 0 > 0 { sampleFootprint(delegate: nil) }
        }
    }

    /// Sets the process's timer on the loop for its next turn. The timer is left alone when it
    /// already rings in time (a warm call's turn then costs nothing for it).
    /// - Returns: whether output waits for fd 3 (the reactor watches it for room then).
    func plan(_ process: SupervisedProcess) -> Bool {
        let now = clock.now()
        let plan = process.loop.delegate.supervisorTimerPlan(self)
        process.loop.callsInFlight = plan.callsInFlight
        var nearest = plan.wakeAt
        if plan.callsInFlight {
            let nextSample = now + context.sampleInterval
            if nearest.map({ nextSample < $0 }) ?? true { nearest = nextSample }
        }
        // Idle and below the watch threshold, with the kernel watching: nothing to sample.
        let watched = context.controlGroup?.usageWatched == true && !process.loop.memoryAboveWatch
        var longest = watched && !plan.callsInFlight ? watchedIdlePollInterval : idlePollInterval
        // Without a pidfd, look for the exit every 20 ms.
        if child.exitDescriptor < 0 { longest = min(longest, .milliseconds(20)) }
        var wakeAt = nearest.flatMap { $0 < now + longest ? $0 : nil } ?? Self.idleTick(after: now, every: longest)
        // Asked before the state's lock (the session takes its own lock, then this one, to write):
        // a call past its deadline still being watched for a hang keeps the CPU unthrottled.
        let awaitsAnswers = plan.callsInFlight || context.controlGroup?.cpuPath == nil
            || context.controlGroup?.idleQuotaIsImposed == true || process.loop.delegate.supervisorAwaitsAnswers(self)
        let wantsWrite = state.withLock { state -> Bool in
            // A deadline a writer brought the timer forward to (its call booked after the plan was read).
            if let forward = state.broughtForward, forward < wakeAt { wakeAt = forward }
            state.broughtForward = nil
            // Idle: the quota comes once nothing was written for the grace (a request written
            // after the plan was read moved lastWrite past `now`: no quota then).
            if !plan.callsInFlight, let group = context.controlGroup, group.cpuPath != nil, !group.idleQuotaIsImposed,
               !leftRunning.load(ordering: .relaxed) {
                let due = state.lastWrite + ExtensionControlGroup.idleQuotaGrace
                if due > now {
                    if due < wakeAt { wakeAt = due }
                } else if !awaitsAnswers {
                    group.imposeIdleQuota()
                }
            }
            // Under the lock, so that a writer bringing the timer forward is never overridden.
            if let armed = state.plannedWake, armed > now, armed <= wakeAt {
                // Rings in time already; the turn it brings plans again.
            } else {
                setTimer(&state, for: wakeAt)
            }
            return !state.outgoing.isEmpty
        }
        return wantsWrite
    }

    /// The next tick, at most `interval` from `now`, of a grid that every process's idle polls
    /// share: idle processes wake together, one wake-up of the reactor for all of them instead of
    /// one each (100 idle extensions polled every 50 ms apart from each other woke it 2,000 times
    /// a second).
    static func idleTick(after now: ContinuousClock.Instant, every interval: Duration) -> ContinuousClock.Instant {
        let elapsedTicks = ((now - idleTickOrigin) / interval).rounded(.down)
        return idleTickOrigin + interval * (elapsedTicks + 1)
    }

    private func drainWakeup(_ buffer: UnsafeMutableRawBufferPointer) {
        while let count = try? SystemCall.read(wakeup.read, into: buffer), count > 0 {}
    }

    private func flushOutgoing() {
        state.withLock { state in
            guard !state.outgoing.isEmpty else { return }
            if case .exited = state.phase { return }
            let written = (try? state.outgoing.withUnsafeBytes { try SystemCall.write(child.requestWriter, $0) })
            guard let written else {
                // The read end is gone (the child closed fd 3 or died): its exit will resolve the calls.
                state.outgoing.removeAll()
                return
            }
            state.outgoing.removeFirst(written)
        }
    }

    // MARK: Memory

    /// Samples the extension's footprint (everything it runs) and kills it over the limit, or
    /// when the kernel's OOM killer ended one of its processes at its control group's limit.
    /// - Parameter fullCountAge: a periodic sample
    ///   (``ExtensionFootprint/periodicSample(fullCountAge:limitBytes:)``: over the limit, never
    ///   an estimate); nil counts everything now.
    private func sampleFootprint(delegate: (any ProcessSupervisorDelegate)?, fullCountAge: Duration? = nil) {
        let sampled = if let fullCountAge {
            self.footprint.periodicSample(fullCountAge: fullCountAge, limitBytes: context.memoryLimitBytes)?.bytes
        } else {
            self.footprint.sample()
        }
        guard let footprint = sampled else { return }
        let killedByKernel = (context.controlGroup?.outOfMemoryKills() ?? 0) > 0
        let overLimit = state.withLock { state -> Bool in
            state.lastFootprint = footprint
            guard footprint > context.memoryLimitBytes || killedByKernel, state.memoryKillFootprint == nil else { return false }
            state.memoryKillFootprint = footprint
            return true
        }
        delegate?.supervisor(self, sampledFootprint: footprint)
        if overLimit { killOverMemoryLimit(footprint: footprint, killedByKernel: killedByKernel) }
    }

    /// Records what was counted, then kills every process of the extension.
    private func killOverMemoryLimit(footprint sampled: Int, killedByKernel: Bool) {
        let usage = self.footprint.usage()
        // One number in the report: the count process by process, taken a moment after the
        // sample, unless the memory went back under the limit in between (after the kernel's
        // kill: unless nothing is left).
        let footprint = usage.totalBytes > context.memoryLimitBytes || (killedByKernel && usage.totalBytes > 0)
            ? usage.totalBytes : sampled
        state.withLock { state in
            state.memoryKillUsage = usage
            state.memoryKillFootprint = footprint
        }
        record(.memoryKill(HostEvent.MemoryKill(footprintBytes: footprint, limitBytes: context.memoryLimitBytes, usage: usage,
                                                kernelLimitBytes: killedByKernel ? context.controlGroup?.hardLimitBytes : nil)))
        child.signalGroup(SIGKILL)
        context.controlGroup?.killEveryProcess(timeout: .zero)
    }

    /// One sample now (a call that ends between samples still gets a peak): the extension's own
    /// footprint now, the rest as the last full sample found it when that is recent (as recent
    /// as the periodic samples' full counts are).
    func sampleFootprintNow() -> Int? {
        footprint.quickSample(maxAge: context.controlGroup == nil
                              ? ExtensionFootprint.fullCountAgeDuringCalls : max(context.sampleInterval, .milliseconds(5)))
    }

    // MARK: Exit

    /// Decodes a large frame of fd 4 on a thread of its own, the process's descriptors out of
    /// the reactor meanwhile (its other frames wait, in order, and so do its timers: as when each
    /// process had its own I/O thread); then they come back and a turn goes on with the backlog.
    private func handleApart(_ frame: LineFramer.Frame, of process: SupervisedProcess) {
        let reactor = process.reactor
        reactor.suspend(process)
        let delegate = process.loop.delegate
        let work = { @Sendable [self] in
            delegate.supervisor(self, received: frame)
            reactor.loop.execute { [self] in
                guard reactor.resume(process) else {
                    if DetachedThread.start(name: "wh-exit.\(child.pid)", { self.endUnwatched(process) }) != 0 { endUnwatched(process) }
                    return
                }
                wake()
            }
        }
        if DetachedThread.start(name: "wh-line.\(child.pid)", work) != 0 { work() }
    }

    /// Ends a process whose descriptors could not go back into the reactor: killed with its
    /// group, reaped (waiting here: a thread of its own), then torn down as any exit is.
    private func endUnwatched(_ process: SupervisedProcess) {
        beginStop(.requested("the host could not watch it again (epoll: \(String(cString: strerror(errno))))"))
        guard let status = killAndReap(within: nil) else { return }
        finish(status: status, loop: &process.loop)
    }

    /// Hands the exit to a thread of its own: the teardown may wait (a control group's last
    /// processes leaving it) and must not hold up the reactor's other processes. When no thread
    /// can be started (the host at its limit of threads), the reactor tears down itself: late
    /// is better than never.
    private func tearDown(_ process: SupervisedProcess, status: TerminationStatus) {
        let work = { @Sendable [self] in finish(status: status, loop: &process.loop) }
        if DetachedThread.start(name: "wh-exit.\(child.pid)", work) != 0 { work() }
    }

    /// The exit's teardown, on a thread of its own (it reads what is left with a buffer of its own).
    private func finish(status: TerminationStatus, loop: inout IOLoopState) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        // Grandchildren may still hold the pipes; they share the group and die with it, and
        // whatever left the group but not the control group dies too.
        child.signalGroup(SIGKILL)
        context.controlGroup?.killEveryProcess()
        // The kernel's OOM killer ended the extension itself at its control group's limit before
        // a sample saw it: reported as a memory kill all the same, with what is left in the group.
        let killedByKernel = (context.controlGroup?.outOfMemoryKills() ?? 0) > 0
        if killedByKernel, let last = state.withLock({ $0.memoryKillFootprint == nil ? $0.lastFootprint ?? 0 : nil }) {
            killOverMemoryLimit(footprint: last, killedByKernel: true)
        }
        // What is left: the backlogs first, then the pipes (grandchildren died with the group; a
        // stream that ended has an empty backlog).
        if loop.responses.open { _ = readResponses(buffer, loop: &loop, allowanceEnds: nil, reads: 64, untilEnd: true, largeFramesApart: false) }
        if loop.stdout.open { _ = readOutput(buffer, stream: .stdout, loop: &loop, allowanceEnds: nil, reads: 16, untilEnd: true) }
        if loop.stderr.open { _ = readOutput(buffer, stream: .stderr, loop: &loop, allowanceEnds: nil, reads: 16, untilEnd: true) }
        // After the last responses: each takes a footprint sample, which reads the group's files.
        context.controlGroup?.remove()

        let stderr = stderrTail.withLock { $0.all }
        let exit = state.withLock { state -> ExtensionExit in
            let cause: ExtensionExit.Cause
            if let footprint = state.memoryKillFootprint {
                cause = .memoryLimit(footprintBytes: footprint)
            } else if killedByKernel || loop.sawAllocationFailure {
                cause = .memoryLimit(footprintBytes: state.lastFootprint)
            } else if case .stopping(let reason) = state.phase {
                cause = .stoppedByHost(reason: reason)
            } else {
                cause = .ended
            }
            var exit = ExtensionExit(status: status, cause: cause, executableName: context.executableName, pid: child.pid,
                                     memoryLimitDescription: HumanReadable.megabytes(context.memoryLimitBytes),
                                     stderrTail: stderr)
            if case .memoryLimit = cause { exit.memoryUsage = state.memoryKillUsage }
            state.phase = .exited(exit)
            leftRunning.store(true, ordering: .releasing)
            state.outgoing.removeAll()
            return exit
        }
        child.closeDescriptors()
        // For a memory death, the footprint its cause names (the one over the limit, or the last sample).
        var deathFootprint: Int?
        if case .memoryLimit(let footprint) = exit.cause { deathFootprint = footprint }
        record(.exit(HostEvent.Exit(status: status, cause: exit.cause, milliseconds: (clock.now() - launchedAt).milliseconds,
                                    footprintBytes: deathFootprint, usage: exit.memoryUsage, description: exit.description)))
        recordDroppedOutput()
        loop.delegate.supervisor(self, processExited: exit)
        let waiters = state.withLock { $0.exitWaiters.takeAll() }
        for waiter in waiters { waiter.resume(returning: exit) }
        reportExit(exit)
    }
}
