import CWalletPoll
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The host's one event loop: one thread, one epoll set, one heap of timers, one queue of work.
///
/// Everything the host waits on goes through it: every supervised process's pipes, pidfd and
/// timer (``SupervisorReactor``), the daemon's listening socket and its clients, the apps
/// directory's inotify watch, and the periodic container quota scan. A descriptor is
/// ``register(_:for:_:)``ed with a handler the loop calls on its thread when the descriptor is
/// ready; ``schedule(at:_:)`` runs work once the loop's ``clock`` reaches a deadline;
/// ``execute(_:)`` posts work to run on the thread. State touched only by such work needs no
/// lock (``LoopConfined``, ``preconditionInLoop(_:file:line:)``).
///
/// Nothing run on the loop may block: a handler that must wait (a teardown, a spawn, a file
/// written) hands the wait to a thread of its own and posts its result back.
///
/// Each wake-up runs, in order: the handlers of the ready descriptors, the observers added with
/// ``afterEachWakeup(_:)`` (a reactor gives its turns there, once all of a process's ready
/// descriptors are known), the timers that are due, and the posted work, oldest first. Modelled
/// on swift-nio's `SelectableEventLoop`.
public final class HostLoop: Sendable {
    /// What a descriptor is watched for, and what it was found ready for.
    public struct Events: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        /// Readable, or the peer closed (a read then returns 0).
        public static let readable = Events(rawValue: WH_POLL_IN)
        /// Writable.
        public static let writable = Events(rawValue: WH_POLL_OUT)
        /// An error on the descriptor (always reported).
        public static let error = Events(rawValue: WH_POLL_ERR)
        /// The peer hung up (always reported).
        public static let hangUp = Events(rawValue: WH_POLL_HUP)
    }

    /// A registered descriptor's handler: called on the loop's thread with what it is ready for.
    public typealias Handler = @Sendable (Events) -> Void

    /// A scheduled timer, for ``cancel(_:)``.
    public struct Timer: Hashable, Sendable {
        let id: UInt64
    }

    struct Registration {
        let fd: Int32
        let handler: Handler
    }

    struct State {
        /// Registration token -> descriptor and handler (token 0 is the loop's own wake-up).
        var registrations: [UInt64: Registration] = [:]
        var tokens: [Int32: UInt64] = [:]
        var lastToken: UInt64 = 0
        var timers = TimerHeap()
        var pending: [@Sendable () -> Void] = []
        var wakeupObservers: [@Sendable () -> Void] = []
        /// The loop sleeps in epoll_wait (until this instant, or for ever when nil).
        var sleeping = false
        var sleepingUntil: ContinuousClock.Instant?
        /// The wake-up was signalled since the loop last went to sleep.
        var wakeSignalled = false
        /// Until when the loop polls without sleeping (``keepPolling(until:)``).
        var pollingUntil: ContinuousClock.Instant?
        var running = true
    }

    /// The clock its timers are scheduled against.
    public let clock: any HostClock
    let poll: Int32
    let wakeup: Int32
    let state = Mutex(State())
    /// `pthread_self()` of the loop's thread (0 before it starts).
    let thread = Atomic<UInt>(0)
    let finished = Mutex<[CheckedContinuation<Void, Never>]?>([])
    /// The loop's wake-ups with a descriptor ready, so far (tests count them).
    public let wakeups = Atomic<Int>(0)

    private static let sharedLoop = Mutex<HostLoop?>(nil)

    /// The process's loop on the system clock, its thread (`wh-io`) started on first use; a
    /// failed attempt is tried again by the next caller.
    /// - Throws: ``HostLoopError`` when epoll, the wake-up or the thread cannot be had.
    public static func shared() throws(HostLoopError) -> HostLoop {
        try sharedLoop.withLock { shared throws(HostLoopError) -> HostLoop in
            if let shared { return shared }
            let loop = try HostLoop(clock: SystemHostClock(), threadName: "wh-io")
            shared = loop
            return loop
        }
    }

    /// Makes a loop and starts its thread.
    /// - Parameters:
    ///   - clock: what its timers are scheduled against; a ``TestClock`` wakes it when advanced.
    ///   - threadName: the thread's name (15 characters show in `ps`).
    /// - Throws: ``HostLoopError`` when epoll, the wake-up or the thread cannot be had.
    public init(clock: any HostClock = SystemHostClock(), threadName: String = "wh-loop") throws(HostLoopError) {
        self.clock = clock
        poll = wh_poll_create()
        wakeup = wh_poll_wakeup_create()
        guard poll >= 0, wakeup >= 0, wh_loop_add(poll, wakeup, WH_POLL_IN, 0) == 0 else {
            let error = HostLoopError("cannot set up the host loop's epoll set", errno: errno)
            if poll >= 0 { SystemCall.close(poll) }
            if wakeup >= 0 { SystemCall.close(wakeup) }
            throw error
        }
        let failure = DetachedThread.start(name: threadName) { [self] in run() }
        guard failure == 0 else {
            SystemCall.close(poll)
            SystemCall.close(wakeup)
            throw HostLoopError("cannot start the host loop's thread", errno: failure)
        }
        clock.onJump { [weak self] in self?.wake(always: true) }
    }

    // MARK: The loop's thread

    /// Whether the caller runs on the loop's thread.
    public var inLoop: Bool { thread.load(ordering: .relaxed) == UInt(pthread_self()) }

    /// Stops the program unless the caller runs on the loop's thread: for state only the loop touches.
    public func preconditionInLoop(_ what: @autoclosure () -> String = "loop-confined state",
                                   file: StaticString = #fileID, line: UInt = #line) {
        precondition(inLoop, "\(what()) touched off the host loop's thread", file: file, line: line)
    }

    // MARK: Work

    /// Runs `work` on the loop's thread, after what was posted before it (never inline, even
    /// when called from the loop's thread).
    public func execute(_ work: @escaping @Sendable () -> Void) {
        let signal = state.withLock { state -> Bool in
            guard state.running else { return false }
            state.pending.append(work)
            return needsSignal(&state)
        }
        if signal { wh_poll_wakeup_signal(wakeup) }
    }

    /// Runs `body` after the handlers of each wake-up with ready descriptors (loop's thread).
    public func afterEachWakeup(_ body: @escaping @Sendable () -> Void) {
        state.withLock { $0.wakeupObservers.append(body) }
    }

    /// Polls without sleeping until `deadline` (busy polling after an answer; loop's thread).
    public func keepPolling(until deadline: ContinuousClock.Instant) {
        state.withLock { $0.pollingUntil = deadline }
    }

    // MARK: Timers

    /// Runs `work` on the loop's thread once ``clock`` reads `deadline` or later; timers run in
    /// deadline order (equal deadlines: in the order scheduled).
    @discardableResult
    public func schedule(at deadline: ContinuousClock.Instant, _ work: @escaping @Sendable () -> Void) -> Timer {
        let (timer, signal) = state.withLock { state -> (Timer, Bool) in
            let timer = Timer(id: state.timers.schedule(at: deadline, work))
            let sooner = state.sleeping && state.sleepingUntil.map { deadline < $0 } ?? state.sleeping
            return (timer, sooner && needsSignal(&state))
        }
        if signal { wh_poll_wakeup_signal(wakeup) }
        return timer
    }

    /// ``schedule(at:_:)`` `delay` from the clock's now.
    @discardableResult
    public func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> Timer {
        schedule(at: clock.now() + delay, work)
    }

    /// How many timers are scheduled and have neither run nor been cancelled (a test waits for
    /// the code under test to arm one before it advances a ``TestClock``).
    public var scheduledTimerCount: Int { state.withLock { $0.timers.count } }

    /// Cancels a timer: its work never runs (unless it already has).
    /// - Returns: false when it already ran or was cancelled.
    @discardableResult
    public func cancel(_ timer: Timer) -> Bool {
        state.withLock { $0.timers.cancel(timer.id) }
    }

    // MARK: Descriptors

    /// Watches `fd` (level-triggered) for `interest`; `handler` runs on the loop's thread each
    /// time it is ready. Any thread may register. The caller keeps the descriptor open until it
    /// ``unregister(_:)``s it.
    /// - Throws: ``HostLoopError`` when epoll does not take it (the kernel's limits).
    public func register(_ fd: Int32, for interest: Events, _ handler: @escaping Handler) throws(HostLoopError) {
        let added = state.withLock { state -> Bool in
            guard state.running else {
                errno = EBADF
                return false
            }
            state.lastToken += 1
            let token = state.lastToken
            guard wh_loop_add(poll, fd, interest.rawValue, token) == 0 else { return false }
            state.registrations[token] = Registration(fd: fd, handler: handler)
            state.tokens[fd] = token
            return true
        }
        guard added else { throw HostLoopError("cannot watch descriptor \(fd)", errno: errno) }
    }

    /// Changes what a registered `fd` is watched for (any thread; never after ``unregister(_:)``).
    /// - Returns: false when it is not registered, or epoll refused.
    @discardableResult
    public func reregister(_ fd: Int32, for interest: Events) -> Bool {
        state.withLock { state -> Bool in
            guard let token = state.tokens[fd] else { return false }
            return wh_loop_modify(poll, fd, interest.rawValue, token) == 0
        }
    }

    /// Stops watching `fd` (any thread); close it only after. Its handler is not called again,
    /// even for readiness the loop already collected in the wake-up under way.
    public func unregister(_ fd: Int32) {
        state.withLock { state in
            guard let token = state.tokens.removeValue(forKey: fd) else { return }
            state.registrations[token] = nil
            _ = wh_poll_remove(poll, fd)
        }
    }

    /// Whether `fd` is registered now.
    public func isRegistered(_ fd: Int32) -> Bool {
        state.withLock { $0.tokens[fd] != nil }
    }

    // MARK: Stopping

    /// Ends the loop's thread (a loop made for a test; the shared loop runs as long as the
    /// process) and closes its epoll set. Registered descriptors stay open (their owners close
    /// them); timers and work not run yet never run. Returns once the thread has ended (at once
    /// on the loop's own thread).
    public func shutdown() async {
        let signal = state.withLock { state -> Bool in
            guard state.running else { return false }
            state.running = false
            return true
        }
        if signal { wh_poll_wakeup_signal(wakeup) }
        guard !inLoop else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = finished.withLock { waiters -> Bool in
                guard waiters != nil else { return true }
                waiters?.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Wakes the loop if it sleeps (`always`: even when it was signalled already, as when the
    /// clock jumped and its wait must be computed again).
    func wake(always: Bool = false) {
        let signal = state.withLock { state -> Bool in
            guard state.running else { return false }
            if always {
                state.wakeSignalled = true
                return true
            }
            return needsSignal(&state)
        }
        if signal { wh_poll_wakeup_signal(wakeup) }
    }

    /// Whether a caller that just gave the loop something must signal its wake-up: only while
    /// it sleeps, once per sleep.
    private func needsSignal(_ state: inout State) -> Bool {
        guard state.sleeping, !state.wakeSignalled, !inLoop else { return false }
        state.wakeSignalled = true
        return true
    }
}

/// The host loop could not be set up, or could not watch a descriptor.
public struct HostLoopError: Error, CustomStringConvertible, Sendable {
    /// What failed.
    public var what: String
    /// The system's reason.
    public var errno: Int32

    init(_ what: String, errno: Int32) {
        self.what = what
        self.errno = errno
    }

    public var description: String { "\(what): \(String(cString: strerror(errno))) (errno \(errno))" }
}
