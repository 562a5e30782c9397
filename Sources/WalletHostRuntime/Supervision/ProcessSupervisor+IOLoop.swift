import CWalletSpawn
import Foundation
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// The longest the I/O thread sleeps: calls due later than this need not wake it.
let idlePollInterval: Duration = .milliseconds(50)
/// How often the extension's memory is sampled while no call is in flight, at most: what its
/// other processes hold counts too, and they do not wait for a call. Never more often than
/// during calls (the configuration's sample interval).
let idleSampleInterval: Duration = .milliseconds(100)
/// How often the I/O thread looks whether the kernel's OOM killer ended one of the extension's
/// processes at its control group's hard limit, whatever the sampling (when the group's memory
/// events are not to be had: with them, the kernel says so).
let outOfMemoryCheckInterval: Duration = .milliseconds(20)
/// The longest an idle I/O thread sleeps when its control group's memory events watch the
/// extension: nothing is due, and the events, the pipes and the exit wake it.
let watchedIdlePollInterval: Duration = .seconds(1)
/// Reads of fd 4 in one reactor turn, at most (64 KiB each: hundreds of answers).
let responseReadsPerTurn = 4

/// A process's I/O state, touched only by its reactor's thread (then by its teardown thread).
struct IOLoopState {
    /// The protocol layer, told of frames, timers, samples and the exit.
    let delegate: any ProcessSupervisorDelegate
    var rpcFramer = LineFramer()
    var stdoutFramer = LineFramer(maximumLineBytes: 64 * 1024)
    var stderrFramer = LineFramer(maximumLineBytes: 64 * 1024)
    var rpcOpen = true
    var stdoutOpen = true
    var stderrOpen = true
    /// Set when any stderr line reads like a failed allocation (the runtime's backtrace that
    /// follows can push it out of the tail).
    var sawAllocationFailure = false
    var lastSample = ContinuousClock.now - .seconds(1)
    /// A sample took this long: the next waits at least ten times as long (counting hundreds of
    /// processes one by one must not keep the thread busy).
    var lastSampleCost = Duration.zero
    var lastOutOfMemoryCheck = ContinuousClock.now
    /// The control group's usage was at or above its watch threshold when last read (or has not
    /// been read yet): an idle extension is sampled on a timer until it is below.
    var memoryAboveWatch = true
    /// Whether calls were in flight when the last plan was made: the samples until the next
    /// plan are taken at the calls' rate, and count toward their peaks.
    var callsInFlight = false
}

extension ProcessSupervisor {
    /// One turn of the reactor for this process: reads what is `ready`, runs the delegate's
    /// timers, samples the footprint when due, and plans the next wake-up. On the exit, its
    /// descriptors leave the reactor and the teardown goes to a thread of its own.
    func turn(_ process: SupervisedProcess, ready: SupervisorReactor.Roles, buffer: UnsafeMutableRawBufferPointer) {
        let memoryEvents = context.controlGroup?.memoryEvents ?? -1
        if ready.contains(.wakeup) { drainWakeup(buffer) }
        if ready.contains(.timer) { _ = wh_eventfd_drain(timer) }
        if ready.contains(.responses) {
            readResponses(buffer, loop: &process.loop)
            if !process.loop.rpcOpen { process.reactor.unwatch(child.responseReader) }
        }
        if ready.contains(.stdout) {
            readOutput(buffer, stream: .stdout, loop: &process.loop)
            if !process.loop.stdoutOpen { process.reactor.unwatch(child.stdoutReader) }
        }
        if ready.contains(.stderr) {
            readOutput(buffer, stream: .stderr, loop: &process.loop)
            if !process.loop.stderrOpen { process.reactor.unwatch(child.stderrReader) }
        }
        if ready.contains(.requests) { flushOutgoing() }

        if ready.contains(.exit) || child.exitDescriptor < 0, let status = child.reapIfExited() {
            process.reactor.unwatchAll(of: process)
            tearDown(process, status: status)
            return
        }
        let delegate = process.loop.delegate
        let after = ContinuousClock.now
        delegate.supervisorTimersDue(self, now: after)
        let callsInFlight = process.loop.callsInFlight
        let interval = callsInFlight ? context.sampleInterval : max(idleSampleInterval, context.sampleInterval)
        if ready.contains(.memoryEvents) {
            // Usage crossed the watch threshold, or the OOM killer acted: sample on the
            // timer again (the next sample reads which side of the threshold usage is on).
            context.controlGroup?.drainMemoryEvents()
            process.loop.memoryAboveWatch = true
        }
        let sampling = callsInFlight || memoryEvents < 0 || process.loop.memoryAboveWatch
        if sampling && after - process.loop.lastSample >= max(interval, process.loop.lastSampleCost * 10) {
            process.loop.lastSample = after
            process.loop.lastOutOfMemoryCheck = after
            // Only samples taken during calls count toward their peaks.
            sampleFootprint(delegate: callsInFlight ? delegate : nil)
            process.loop.lastSampleCost = .now - after
            if memoryEvents >= 0, let group = context.controlGroup {
                process.loop.memoryAboveWatch = (group.usageBytes() ?? .max) >= group.memoryWatchThresholdBytes
            }
        } else if context.controlGroup != nil, memoryEvents < 0, after - process.loop.lastOutOfMemoryCheck >= outOfMemoryCheckInterval {
            process.loop.lastOutOfMemoryCheck = after
            if context.controlGroup?.outOfMemoryKills() ?? 0 > 0 { sampleFootprint(delegate: nil) }
        }
        plan(process)
    }

    /// Arms the process's timer for its next turn, and watches fd 3 while output waits.
    /// The timer is left alone when it already rings in time (a warm call's turn then costs
    /// no system call for it).
    func plan(_ process: SupervisedProcess) {
        let now = ContinuousClock.now
        let plan = process.loop.delegate.supervisorTimerPlan(self)
        process.loop.callsInFlight = plan.callsInFlight
        var nearest = plan.wakeAt
        if plan.callsInFlight {
            let nextSample = now + context.sampleInterval
            if nearest.map({ nextSample < $0 }) ?? true { nearest = nextSample }
        }
        // Idle and below the watch threshold, with the kernel watching: nothing to sample.
        let watched = (context.controlGroup?.memoryEvents ?? -1) >= 0 && !process.loop.memoryAboveWatch
        var longest = watched && !plan.callsInFlight ? watchedIdlePollInterval : idlePollInterval
        // Without a pidfd, look for the exit every 20 ms.
        if child.exitDescriptor < 0 { longest = min(longest, .milliseconds(20)) }
        var wakeAt = min(nearest ?? now + longest, now + longest)
        let wantsWrite = state.withLock { state -> Bool in
            // A deadline a writer brought the timer forward to (its call booked after the plan was read).
            if let forward = state.broughtForward, forward < wakeAt { wakeAt = forward }
            state.broughtForward = nil
            // Under the lock, so that a writer bringing the timer forward is never overridden.
            if let armed = state.plannedWake, armed > now, armed <= wakeAt {
                // Rings in time already; the turn it brings plans again.
            } else {
                state.plannedWake = wakeAt
                wh_timer_arm(timer, Self.nanoseconds(until: wakeAt))
            }
            return !state.outgoing.isEmpty
        }
        process.reactor.watchRequests(of: process, wantsWrite)
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

    // MARK: Reading

    /// Reads fd 4, at most `reads` times: the reactor's turn reads little, so that a chatty
    /// process cannot hold up the others' (what is left is there for its next turn). A turn
    /// stops at a read shorter than the buffer, which emptied the pipe (epoll reports what comes
    /// next): a warm call's answer costs one read, not a second one to hear the pipe is empty.
    /// - Parameter untilEnd: read on after short reads, to the end of what is there or of the
    ///   pipe (the drain after the exit).
    private func readResponses(_ buffer: UnsafeMutableRawBufferPointer, loop: inout IOLoopState,
                               reads: Int = responseReadsPerTurn, untilEnd: Bool = false) {
        for _ in 0..<reads {
            let count: Int?
            do {
                count = try SystemCall.read(child.responseReader, into: buffer)
            } catch {
                count = 0
            }
            guard let count else { return }
            if count == 0 {
                loop.rpcOpen = false
                loop.delegate.supervisorResponseChannelClosed(self, partialLineBytes: loop.rpcFramer.finish())
                return
            }
            for frame in loop.rpcFramer.append(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) {
                loop.delegate.supervisor(self, received: frame)
            }
            if count < buffer.count && !untilEnd { return }
        }
    }

    enum OutputStream: String {
        case stdout, stderr
    }

    /// Reads stdout or stderr, at most `reads` times (one per turn: a flood of short lines costs
    /// its framing and logging, and must not hold up the other processes' turns).
    private func readOutput(_ buffer: UnsafeMutableRawBufferPointer, stream: OutputStream, loop: inout IOLoopState,
                            reads: Int = 1) {
        let fd = stream == .stdout ? child.stdoutReader : child.stderrReader
        for _ in 0..<reads {
            let result: Int?
            do {
                result = try SystemCall.read(fd, into: buffer)
            } catch {
                result = 0
            }
            guard let count = result else { return }
            if count == 0 {
                if stream == .stdout { loop.stdoutOpen = false } else { loop.stderrOpen = false }
                let tail = stream == .stdout ? loop.stdoutFramer.finish() : loop.stderrFramer.finish()
                if tail > 0 { recordOutput("(\(tail) bytes without a final newline)", stream: stream.rawValue) }
                return
            }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            let frames = stream == .stdout ? loop.stdoutFramer.append(chunk) : loop.stderrFramer.append(chunk)
            for frame in frames {
                let line: String
                switch frame {
                case .line(let data): line = String(decoding: data, as: UTF8.self)
                case .oversized(let count): line = "(a line of \(count) bytes, not shown)"
                }
                if stream == .stderr, !loop.sawAllocationFailure, Self.looksLikeAllocationFailure(line) {
                    loop.sawAllocationFailure = true
                }
                recordOutput(line, stream: stream.rawValue)
            }
        }
    }

    /// Swift's "failed to allocate", C's ENOMEM text, C++'s bad_alloc, Python's MemoryError.
    static func looksLikeAllocationFailure(_ line: String) -> Bool {
        let markers = ["failed to allocate", "cannot allocate memory", "out of memory", "bad_alloc", "memoryerror",
                       "malloc returned null"]
        let lowered = line.lowercased()
        return markers.contains { lowered.contains($0) }
    }

    // MARK: Memory

    /// Samples the extension's footprint (everything it runs) and kills it over the limit, or
    /// when the kernel's OOM killer ended one of its processes at its control group's limit.
    private func sampleFootprint(delegate: (any ProcessSupervisorDelegate)?) {
        guard let footprint = footprint.sample() else { return }
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
    /// footprint now, the rest as the last full sample found it when that is recent.
    func sampleFootprintNow() -> Int? {
        footprint.quickSample(maxAge: max(context.sampleInterval, .milliseconds(5)))
    }

    // MARK: Exit

    /// Hands the exit to a thread of its own: the teardown may wait (a control group's last
    /// processes leaving it) and must not hold up the reactor's other processes.
    private func tearDown(_ process: SupervisedProcess, status: TerminationStatus) {
        let thread = Thread { [self] in
            wh_set_thread_name("wh-exit.\(child.pid)")
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
            defer { buffer.deallocate() }
            finish(status: status, buffer: buffer, loop: &process.loop)
        }
        thread.stackSize = 512 * 1024
        thread.start()
    }

    private func finish(status: TerminationStatus, buffer: UnsafeMutableRawBufferPointer, loop: inout IOLoopState) {
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
        if loop.rpcOpen { readResponses(buffer, loop: &loop, reads: 64, untilEnd: true) }
        if loop.stdoutOpen { readOutput(buffer, stream: .stdout, loop: &loop, reads: 16) }
        if loop.stderrOpen { readOutput(buffer, stream: .stderr, loop: &loop, reads: 16) }
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
        record(.exit(HostEvent.Exit(status: status, cause: exit.cause, milliseconds: (.now - launchedAt).milliseconds,
                                    footprintBytes: deathFootprint, usage: exit.memoryUsage, description: exit.description)))
        recordDroppedOutput()
        loop.delegate.supervisor(self, processExited: exit)
        let waiters = state.withLock { $0.exitWaiters.takeAll() }
        for waiter in waiters { waiter.resume(returning: exit) }
        reportExit(exit)
    }
}
