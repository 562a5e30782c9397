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

/// The I/O thread's own mutable state (never shared, so no lock).
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
}

extension ProcessSupervisor {
    /// The I/O thread's body: returns after the process was reaped and its exit reported.
    func runLoop(delegate: any ProcessSupervisorDelegate) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var loop = IOLoopState(delegate: delegate)
        let memoryEvents = context.controlGroup?.memoryEvents ?? -1
        while true {
            let now = ContinuousClock.now
            // Idle and below the watch threshold, with the kernel watching: nothing to sample.
            let watched = memoryEvents >= 0 && !loop.memoryAboveWatch
            let (timeout, wantsWrite, callsInFlight) = pollPlan(now: now, delegate: delegate, watched: watched)
            var fds = [
                pollfd(fd: wakeup.read, events: Int16(POLLIN), revents: 0),
                pollfd(fd: child.exitDescriptor, events: Int16(POLLIN), revents: 0),
                pollfd(fd: loop.rpcOpen ? child.responseReader : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: loop.stdoutOpen ? child.stdoutReader : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: loop.stderrOpen ? child.stderrReader : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wantsWrite ? child.requestWriter : -1, events: Int16(POLLOUT), revents: 0),
                pollfd(fd: memoryEvents, events: Int16(POLLIN), revents: 0),
                pollfd(fd: timer, events: Int16(POLLIN), revents: 0),
            ]
            // Without a pidfd, look for the exit every 20 ms.
            let effectiveTimeout = child.exitDescriptor < 0 ? min(timeout < 0 ? 20 : timeout, 20) : timeout
            _ = SystemCall.poll(&fds, timeoutMilliseconds: effectiveTimeout)
            let ready = { (index: Int) in fds[index].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 }

            if ready(0) { drainWakeup(buffer) }
            if ready(7) { _ = wh_eventfd_drain(timer) }
            if ready(2) { readResponses(buffer, loop: &loop) }
            if ready(3) { readOutput(buffer, stream: .stdout, loop: &loop) }
            if ready(4) { readOutput(buffer, stream: .stderr, loop: &loop) }
            if fds[5].revents != 0 { flushOutgoing() }

            if ready(1) || child.exitDescriptor < 0, let status = child.reapIfExited() {
                finish(status: status, buffer: buffer, loop: &loop)
                return
            }
            let after = ContinuousClock.now
            delegate.supervisorTimersDue(self, now: after)
            let interval = callsInFlight ? context.sampleInterval : max(idleSampleInterval, context.sampleInterval)
            if ready(6) {
                // Usage crossed the watch threshold, or the OOM killer acted: sample on the
                // timer again (the next sample reads which side of the threshold usage is on).
                context.controlGroup?.drainMemoryEvents()
                loop.memoryAboveWatch = true
            }
            let sampling = callsInFlight || memoryEvents < 0 || loop.memoryAboveWatch
            if sampling && after - loop.lastSample >= max(interval, loop.lastSampleCost * 10) {
                loop.lastSample = after
                loop.lastOutOfMemoryCheck = after
                // Only samples taken during calls count toward their peaks.
                sampleFootprint(delegate: callsInFlight ? delegate : nil)
                loop.lastSampleCost = .now - after
                if memoryEvents >= 0, let group = context.controlGroup {
                    loop.memoryAboveWatch = (group.usageBytes() ?? .max) >= group.memoryWatchThresholdBytes
                }
            } else if context.controlGroup != nil, memoryEvents < 0, after - loop.lastOutOfMemoryCheck >= outOfMemoryCheckInterval {
                loop.lastOutOfMemoryCheck = after
                if context.controlGroup?.outOfMemoryKills() ?? 0 > 0 { sampleFootprint(delegate: nil) }
            }
        }
    }

    /// The poll timeout in milliseconds, whether output is waiting, whether calls are in flight.
    /// - Parameter watched: idle sampling is off (the control group's memory events watch).
    private func pollPlan(now: ContinuousClock.Instant, delegate: any ProcessSupervisorDelegate,
                          watched: Bool) -> (Int32, Bool, Bool) {
        let plan = delegate.supervisorTimerPlan(self)
        var nearest = plan.wakeAt
        if plan.callsInFlight {
            let nextSample = now + context.sampleInterval
            if nearest.map({ nextSample < $0 }) ?? true { nearest = nextSample }
        }
        let longest = watched && !plan.callsInFlight ? watchedIdlePollInterval : idlePollInterval
        var wakeAt = min(nearest ?? now + longest, now + longest)
        let wantsWrite = state.withLock { state -> Bool in
            // A deadline a writer brought the timer forward to (its call booked after the plan was read).
            if let forward = state.broughtForward, forward < wakeAt { wakeAt = forward }
            state.broughtForward = nil
            state.plannedWake = wakeAt
            // Under the lock, so that a writer bringing the timer forward is never overridden.
            wh_timer_arm(timer, Self.nanoseconds(until: wakeAt))
            return !state.outgoing.isEmpty
        }
        let milliseconds = max(0, Int32(clamping: Int64(((wakeAt - now) / .milliseconds(1)).rounded(.up))))
        return (milliseconds, wantsWrite, plan.callsInFlight)
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

    private func readResponses(_ buffer: UnsafeMutableRawBufferPointer, loop: inout IOLoopState) {
        // Bounded, so one chatty extension cannot starve this thread's other duties.
        for _ in 0..<64 {
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
        }
    }

    enum OutputStream: String {
        case stdout, stderr
    }

    private func readOutput(_ buffer: UnsafeMutableRawBufferPointer, stream: OutputStream, loop: inout IOLoopState) {
        let fd = stream == .stdout ? child.stdoutReader : child.stderrReader
        for _ in 0..<16 {
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
        if loop.rpcOpen { readResponses(buffer, loop: &loop) }
        if loop.stdoutOpen { readOutput(buffer, stream: .stdout, loop: &loop) }
        if loop.stderrOpen { readOutput(buffer, stream: .stderr, loop: &loop) }
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
