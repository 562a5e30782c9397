import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A run's child (``ProcessRun``) watched on the host loop until it is reaped: its stdout and
/// stderr read as they become readable, its pidfd telling its exit, and its timeout and its
/// bounds' checks (``RunBoundsWatch``) on the loop's timers, so on the loop's clock: a test on a
/// ``TestClock`` advances past a timeout instead of waiting for it. The caller's thread waits.
final class ProcessRunWatch: Sendable {
    /// How the run ended, and what it said.
    struct Outcome: Sendable {
        var status: TerminationStatus
        var stdoutLines: [String]
        var stderrLines: [String]
        var timedOut: Bool
    }

    /// How often the exit is looked for (and the pipes read) where the loop cannot watch them: a
    /// kernel without pidfds, or an epoll set at its limits.
    static let pollInterval: Duration = .milliseconds(20)
    /// Reads of one pipe in one turn at most: a program that floods its output does not hold
    /// the loop (which serves other processes too); the pipe stays readable for the next turn.
    static let readsPerTurn = 16

    private struct State {
        var stdout = OutputLines()
        var stderr = OutputLines()
        var timedOut = false
        var finished = false
        var timeout: HostLoop.Timer?
        var check: HostLoop.Timer?
        var poll: HostLoop.Timer?
    }

    private let child: ChildProcess
    private let bounds: RunBoundsWatch?
    private let loop: HostLoop
    private let state: LoopConfined<State>
    private let outcome = Mutex<Outcome?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(child: ChildProcess, bounds: RunBoundsWatch?, loop: HostLoop) {
        self.child = child
        self.bounds = bounds
        self.loop = loop
        state = LoopConfined(State(), to: loop)
    }

    /// Watches the child until it is reaped, killing its group at `deadline` on the loop's clock.
    /// Blocks the calling thread, which must not be the loop's.
    func wait(until deadline: ContinuousClock.Instant) -> Outcome {
        precondition(!loop.inLoop, "a process run waits for its program: not on the host loop's thread")
        loop.execute { [self] in start(deadline: deadline) }
        done.wait()
        return outcome.withLock { $0! }
    }

    // MARK: On the loop

    private var watchedDescriptors: [Int32] {
        [child.stdoutReader, child.stderrReader] + (child.exitDescriptor >= 0 ? [child.exitDescriptor] : [])
    }

    private func start(deadline: ContinuousClock.Instant) {
        var watched = true
        do {
            for fd in [child.stdoutReader, child.stderrReader] {
                try loop.register(fd, for: .readable) { [self] _ in read(fd, reads: Self.readsPerTurn) }
            }
            if child.exitDescriptor >= 0 {
                try loop.register(child.exitDescriptor, for: .readable) { [self] _ in reapIfExited() }
            }
        } catch {
            watchedDescriptors.forEach(loop.unregister)
            watched = false
        }
        state.value.timeout = loop.schedule(at: deadline) { [self] in timeOut() }
        if let bounds { scheduleCheck(after: bounds.sampleInterval) }
        if !watched || child.exitDescriptor < 0 { schedulePoll() }
    }

    private func read(_ fd: Int32, reads: Int) {
        withUnsafeTemporaryAllocation(byteCount: 16 * 1024, alignment: 16) { buffer in
            if fd == child.stdoutReader {
                state.value.stdout.drain(fd, buffer, reads: reads)
            } else {
                state.value.stderr.drain(fd, buffer, reads: reads)
            }
        }
        let ended = fd == child.stdoutReader ? state.value.stdout.ended : state.value.stderr.ended
        if ended { loop.unregister(fd) }
    }

    private func reapIfExited() {
        guard !state.value.finished, let status = child.reapIfExited() else { return }
        finish(status)
    }

    /// Past the timeout: the group is killed; the run ends when it is reaped.
    private func timeOut() {
        state.value.timeout = nil
        guard !state.value.finished else { return }
        state.value.timedOut = true
        child.signalGroup(SIGKILL)
    }

    private func scheduleCheck(after interval: Duration) {
        state.value.check = loop.schedule(after: interval) { [self] in
            state.value.check = nil
            guard !state.value.finished, let bounds else { return }
            _ = bounds.check(child)
            scheduleCheck(after: bounds.sampleInterval)
        }
    }

    private func schedulePoll() {
        state.value.poll = loop.schedule(after: Self.pollInterval) { [self] in
            state.value.poll = nil
            guard !state.value.finished else { return }
            read(child.stdoutReader, reads: Self.readsPerTurn)
            read(child.stderrReader, reads: Self.readsPerTurn)
            reapIfExited()
            if !state.value.finished { schedulePoll() }
        }
    }

    /// Reaped: the group is killed (whatever it left), the pipes read to their end, and the
    /// caller woken with the outcome.
    private func finish(_ status: TerminationStatus) {
        state.value.finished = true
        child.signalGroup(SIGKILL)
        watchedDescriptors.forEach(loop.unregister)
        for timer in [state.value.timeout, state.value.check, state.value.poll].compactMap({ $0 }) { loop.cancel(timer) }
        read(child.stdoutReader, reads: .max)
        read(child.stderrReader, reads: .max)
        let result = Outcome(status: status, stdoutLines: state.value.stdout.finish(), stderrLines: state.value.stderr.finish(),
                             timedOut: state.value.timedOut)
        outcome.withLock { $0 = result }
        done.signal()
    }
}
