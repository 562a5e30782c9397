import CWalletSpawn
import Foundation
import Synchronization
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// What the I/O reactor hands to a process's protocol layer, on the reactor's thread (the exit:
/// on the process's teardown thread).
protocol ProcessSupervisorDelegate: AnyObject, Sendable {
    /// One frame read from fd 4.
    func supervisor(_ supervisor: ProcessSupervisor, received frame: LineFramer.Frame)
    /// fd 4 reached its end; `partialLineBytes` were left without a newline.
    func supervisorResponseChannelClosed(_ supervisor: ProcessSupervisor, partialLineBytes: Int)
    /// The next moment the delegate needs ``supervisorTimersDue(_:now:)``, and whether calls are
    /// in flight (the footprint is sampled only then).
    func supervisorTimerPlan(_ supervisor: ProcessSupervisor) -> (wakeAt: ContinuousClock.Instant?, callsInFlight: Bool)
    /// Whether a call still waits for the extension's answer, its deadline past or not (only
    /// asked when no call is in flight, before the idle CPU quota is imposed).
    func supervisorAwaitsAnswers(_ supervisor: ProcessSupervisor) -> Bool
    /// Time passed: expire deadlines, declare hangs.
    func supervisorTimersDue(_ supervisor: ProcessSupervisor, now: ContinuousClock.Instant)
    /// A footprint sample taken while calls were in flight.
    func supervisor(_ supervisor: ProcessSupervisor, sampledFootprint bytes: Int)
    /// The process was reaped; called once, before exit waiters resume.
    func supervisor(_ supervisor: ProcessSupervisor, processExited exit: ExtensionExit)
}

/// The process half of a running extension: it spawns the executable, and in its turns on the
/// host's I/O reactor (``SupervisorReactor``) reads fd 4, stdout, stderr and the pidfd, writes
/// what the protocol layer queues on fd 3,
/// captures output into the log, samples the footprint, kills the group over the memory limit,
/// and reaps. Reaping follows the pidfd, never pipe EOF: a grandchild may hold the pipes open.
/// It knows nothing of JSON-RPC; fd 4's frames go to its ``ProcessSupervisorDelegate``.
final class ProcessSupervisor: Sendable {
    /// Fixed facts about the process.
    struct Context: Sendable {
        var bundleIdentifier: String
        var executableName: String
        var memoryLimitBytes: Int
        var sampleInterval: Duration
        /// What is logged of the process's output at most: lines, and bytes.
        var outputLimit: OutputLimit
        var events: any HostEventSink
        /// The launch's control groups (made before the spawn), if it has them.
        var controlGroup: ExtensionControlGroup?
    }

    /// Where the process is in its life.
    enum Phase: Sendable {
        case running
        /// The host began stopping it; it takes no new calls.
        case stopping(StopReason)
        case exited(ExtensionExit)
    }

    struct State {
        var phase = Phase.running
        /// Bytes the pipe did not take yet; the reactor writes them when fd 3 drains.
        var outgoing = Data()
        /// When the process's next turn comes at the latest (its timer on the loop is set for then).
        var plannedWake: ContinuousClock.Instant?
        /// Its timer on the loop's heap, set for ``plannedWake``.
        var plannedTimer: HostLoop.Timer?
        /// A deadline a writer brought the timer forward to since the reactor last planned.
        var broughtForward: ContinuousClock.Instant?
        var memoryKillFootprint: Int?
        /// What was counted when the memory limit was crossed (or the kernel killed at the group's limit).
        var memoryKillUsage: MemoryUsage?
        var lastFootprint: Int?
        var exitWaiters = TimedWaiters<ExtensionExit, Void>()
        /// When the host last wrote to fd 3 (with a `cpu` group only): the idle quota comes
        /// ``ExtensionControlGroup/idleQuotaGrace`` after it, when no call is in flight.
        var lastWrite: ContinuousClock.Instant
    }

    let child: ChildProcess
    let context: Context
    let launchedAt: ContinuousClock.Instant
    let state: Mutex<State>
    /// Set (for good) when ``State/phase`` leaves `running`: read without the lock by every warm
    /// call, which would otherwise contend with the reactor planning the process's next turn.
    let leftRunning = Atomic<Bool>(false)
    let stderrTail = Mutex(StderrTail())
    let outputLog = Mutex(OutputLog())
    let wakeup: (read: Int32, write: Int32)
    /// The reactor that watches it: its timer is on the reactor's loop, set for its next turn
    /// and brought forward by a caller whose deadline comes sooner.
    let reactor: SupervisorReactor
    /// A call's request was written since the reactor last read an answer (busy polling starts
    /// only for answers to calls).
    let callWritten = Atomic<Bool>(false)
    /// The reactor's turns for this process so far.
    let turns = Atomic<Int>(0)
    /// Everything the extension runs, counted (``ExtensionFootprint``).
    let footprint: ExtensionFootprint
    private let exitHandler: @Sendable (ExtensionExit) -> Void

    var pid: Int32 { child.pid }
    /// Whether the process runs in the sandbox.
    var sandboxed: Bool { child.sandboxed }
    /// Why a process meant for the sandbox runs without it.
    var unsandboxedReason: String? { child.unsandboxedReason }

    /// Spawns the process; the I/O reactor on `loop` (nil: the host's shared loop) watches it
    /// from ``start(delegate:)`` on, and its times are on that loop's clock.
    /// - Parameter onExit: called once, on the process's teardown thread, after it was reaped.
    /// - Throws: ``SpawnError`` when the executable could not be started.
    init(spawning configuration: SpawnConfiguration, context: Context, loop: HostLoop? = nil,
         onExit: @escaping @Sendable (ExtensionExit) -> Void) throws {
        let wakeup: (read: Int32, write: Int32)
        do {
            reactor = try SupervisorReactor.on(loop, for: context.executableName)
            wakeup = try SystemCall.pipe(nonBlockingRead: true, nonBlockingWrite: true)
        } catch {
            context.controlGroup?.remove()
            throw error
        }
        let launchedAt = reactor.loop.clock.now()
        do {
            child = try ChildProcess.spawn(configuration)
        } catch {
            SystemCall.close(wakeup.read)
            SystemCall.close(wakeup.write)
            context.controlGroup?.remove()
            throw error
        }
        state = Mutex(State(lastWrite: launchedAt))
        // The child is in its groups (it moved itself before exec).
        context.controlGroup?.closeProcsDescriptors()
        self.wakeup = wakeup
        self.context = context
        self.launchedAt = launchedAt
        footprint = ExtensionFootprint(pid: child.pid, root: child.groupLeader, sandboxed: child.sandboxed,
                                       controlGroup: context.controlGroup, rootDescriptor: child.exitDescriptor,
                                       clock: reactor.loop.clock)
        exitHandler = onExit
    }

    deinit {
        SystemCall.close(wakeup.read)
        SystemCall.close(wakeup.write)
        child.closeDescriptors()
    }

    /// The clock its times are on: its reactor's loop's.
    var clock: any HostClock { reactor.loop.clock }

    /// Hands the process to the host's I/O reactor (``SupervisorReactor``), which reports to
    /// `delegate` until the process is reaped. The reactor holds the delegate until then, and no
    /// one else does: reading it takes no lock on the hot path, and the reference is gone with
    /// the process.
    /// - Throws: ``SpawnError`` when the reactor cannot watch it (the kernel's epoll limits):
    ///   the process is then killed and reaped, and its control groups removed.
    func start(delegate: any ProcessSupervisorDelegate) throws(SpawnError) {
        do {
            try reactor.watch(SupervisedProcess(supervisor: self, delegate: delegate, reactor: reactor))
        } catch {
            abandonUnwatched()
            throw error
        }
        // Off the launch's way; the turn it brings reads usage against the threshold.
        context.controlGroup?.watchUsage { [weak self] in self?.wake() }
    }

    /// Ends a process no reactor watches: killed with its group, reaped (SIGKILL is quick; at
    /// most a second), its descriptors closed and its control groups removed.
    private func abandonUnwatched() {
        leftRunning.store(true, ordering: .releasing)
        _ = killAndReap(within: .seconds(1))
        child.closeDescriptors()
        context.controlGroup?.remove()
    }

    /// Kills the process's group and everything in its control group, and reaps it, waiting at
    /// most `timeout` (nil: until it is gone; SIGKILL is quick) on the calling thread.
    /// - Returns: how it ended, or nil when it was not reaped in time.
    func killAndReap(within timeout: Duration?) -> TerminationStatus? {
        child.signalGroup(SIGKILL)
        context.controlGroup?.killEveryProcess(timeout: .zero)
        // On the real clock (``KernelWait``): it bounds a wait on the kernel.
        return KernelWait.poll(within: timeout) { child.reapIfExited() }
    }

    var phase: Phase { state.withLock { $0.phase } }

    /// How the process ended, once it was reaped.
    var exit: ExtensionExit? {
        if case .exited(let exit) = phase { return exit }
        return nil
    }

    /// True once the host began stopping the process (or it exited): it takes no new calls.
    var isStoppingOrExited: Bool {
        leftRunning.load(ordering: .acquiring)
    }

    // MARK: Writing

    /// Writes `line` on fd 3 now, as far as the pipe takes it; the reactor writes the rest.
    /// - Parameter deadline: the deadline of the call the line asks for, if any. When it comes
    ///   before the process's planned turn, its timer is brought forward; the reactor is woken
    ///   only when output is left to flush. A warm round trip stays at one context switch each way.
    /// - Returns: false when the process has exited (nothing was written).
    @discardableResult
    func write(_ line: Data, deadline: ContinuousClock.Instant? = nil) -> Bool {
        let (written, needsWake) = state.withLock { state -> (Bool, Bool) in
            if case .exited = state.phase { return (false, false) }
            // Before the extension can read the request: it runs unthrottled from then on.
            if let group = context.controlGroup, group.cpuPath != nil {
                group.liftIdleQuota()
                state.lastWrite = clock.now()
            }
            if state.outgoing.isEmpty {
                let count = (try? line.withUnsafeBytes { try SystemCall.write(child.requestWriter, $0) }) ?? line.count
                if count < line.count { state.outgoing.append(line[(line.startIndex + count)...]) }
            } else {
                state.outgoing.append(line)
            }
            if let deadline {
                // Noted whatever the planned wake: the reactor may be planning from a timer
                // plan read before this call was booked.
                state.broughtForward = min(state.broughtForward ?? deadline, deadline)
                if state.plannedWake.map({ deadline < $0 }) ?? true {
                    // Due before the planned turn: bring the timer forward.
                    setTimer(&state, for: deadline)
                }
            }
            return (true, !state.outgoing.isEmpty)
        }
        if written && deadline != nil { callWritten.store(true, ordering: .relaxed) }
        if needsWake { wake() }
        return written
    }

    /// Sets the process's timer on the loop for `deadline`, in place of the one set before
    /// (under the state's lock).
    func setTimer(_ state: inout State, for deadline: ContinuousClock.Instant) {
        state.plannedWake = deadline
        if let previous = state.plannedTimer { reactor.loop.cancel(previous) }
        state.plannedTimer = reactor.loop.schedule(at: deadline) { [weak self] in
            guard let self else { return }
            reactor.timerRang(self)
        }
    }

    /// Cancels the process's timer (it exited: nothing to plan).
    func cancelTimer() {
        state.withLock { state in
            if let timer = state.plannedTimer { reactor.loop.cancel(timer) }
            state.plannedTimer = nil
            state.plannedWake = nil
        }
    }

    /// Whether its timer's moment has passed (it rang before the reactor armed the process).
    var timerRangUnheard: Bool {
        let now = clock.now()
        return state.withLock { $0.plannedWake.map { $0 <= now } ?? false }
    }

    /// Asks the reactor for a turn of this process: to plan its timer again, flush output, or
    /// handle frames a turn left.
    func wake() {
        // The pipe does not block: full (EAGAIN, written 0) means a wake-up is pending already.
        _ = withUnsafeBytes(of: UInt8(1)) { try? SystemCall.write(wakeup.write, $0) }
    }

    // MARK: Stopping

    /// Marks the process as stopping for `reason`, so its exit is reported as the host's doing.
    /// - Returns: false when it was already stopping or had exited.
    @discardableResult
    func beginStop(_ reason: StopReason) -> Bool {
        let began = state.withLock { state -> Bool in
            guard case .running = state.phase else { return false }
            state.phase = .stopping(reason)
            leftRunning.store(true, ordering: .releasing)
            return true
        }
        if began { record(.stop(HostEvent.Stop(reason: reason))) }
        return began
    }

    /// Sends `signal` to the process group (grandchildren included), with a `kill` event; a
    /// `SIGKILL` also goes to every other process in the extension's control group (one that
    /// left the group with `setsid`).
    func signalGroup(_ signal: Int32) {
        guard exit == nil else { return }
        record(.kill(HostEvent.Kill(signal: SignalName.name(signal), processGroup: child.groupLeader)))
        // A throttled extension could not even act on SIGTERM in its grace.
        context.controlGroup?.liftIdleQuota()
        child.signalGroup(signal)
        if signal == SIGKILL { context.controlGroup?.killEveryProcess(timeout: .zero) }
    }

    /// Waits until the process has been reaped, at most `timeout`.
    /// - Returns: how it ended, or nil when it still runs after `timeout`.
    func exit(within timeout: Duration) async -> ExtensionExit? {
        let id = state.withLock { $0.exitWaiters.makeID() }
        return await TimedWaiters<ExtensionExit, Void>.wait(id: id, within: timeout, begin: { continuation in
            let ready = state.withLock { state -> ExtensionExit?? in
                if case .exited(let exit) = state.phase { return .some(exit) }
                return state.exitWaiters.add(id, condition: (), continuation: continuation) ? .none : .some(nil)
            }
            if let ready { continuation.resume(returning: ready) }
        }, abandon: { [self] id in
            state.withLock { $0.exitWaiters.abandon(id) }?.resume(returning: nil)
        })
    }

    /// The exit handler, run once by the teardown thread after the waiters resumed.
    func reportExit(_ exit: ExtensionExit) {
        exitHandler(exit)
    }

    func record(_ payload: HostEvent.Payload) {
        context.events.record(HostEvent(payload, bundleIdentifier: context.bundleIdentifier, pid: child.pid))
    }
}
