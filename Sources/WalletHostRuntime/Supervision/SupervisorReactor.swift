import CWalletPoll
import CWalletSpawn
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Every supervised process's I/O, as handlers on the host's one loop (``HostLoop``): each
/// process's fd 4, stdout, stderr, pidfd, wake-up pipe, control-group memory events and,
/// while output waits, fd 3. However many extensions a host keeps warm (a daemon keeps a hundred),
/// they cost no thread, stack or read buffer of their own; in the daemon the same thread serves
/// the clients.
///
/// **Turns.** Each wake-up of the loop gathers the ready descriptors by process (their handlers
/// only note them) and, once all are known (``HostLoop/afterEachWakeup(_:)``), gives every such
/// process one turn (``ProcessSupervisor/turn(_:ready:buffer:)``): read what is there, run its
/// timers, sample its footprint when due, and plan its next timer. A turn is bounded in time as
/// well as in bytes (``turnAllowance``): frames it has no time for wait in the process's backlog
/// for its next turn, so an extension that floods fd 4, stdout or stderr with short lines holds
/// the thread for a fraction of a millisecond at a time, and the others' turns come in between.
///
/// **Nothing blocks it.** A process's exit is seen here (its pidfd), but the teardown (killing
/// what is left of its group, removing its control groups, the last reads, the exit report)
/// runs on a thread of its own: one exiting extension must not hold up the others' deadlines.
/// Its descriptors leave the epoll set first, so the kernel cannot give their numbers to a new
/// process while the set still holds them.
final class SupervisorReactor: Sendable {
    /// What a descriptor is to its process.
    struct Roles: OptionSet, Sendable {
        let rawValue: UInt8
        static let wakeup = Roles(rawValue: 1 << 0)
        static let exit = Roles(rawValue: 1 << 1)
        static let responses = Roles(rawValue: 1 << 2)
        static let stdout = Roles(rawValue: 1 << 3)
        static let stderr = Roles(rawValue: 1 << 4)
        static let requests = Roles(rawValue: 1 << 5)
        static let memoryEvents = Roles(rawValue: 1 << 6)
        static let timer = Roles(rawValue: 1 << 7)
    }

    /// How long one process's turn may handle frames before it leaves the rest for its next turn.
    static let turnAllowance: Duration = .microseconds(500)

    /// The reactors made so far, one per loop (the shared loop's first).
    private static let reactors = Mutex<[ObjectIdentifier: SupervisorReactor]>([:])
    private static let current = Mutex<SupervisorReactor?>(nil)

    /// The reactor on `loop` (made on first use), or the host's on the shared loop when `loop`
    /// is nil (made, and its thread started, on first use); a failed attempt is tried again by
    /// the next launch.
    /// - Throws: ``SpawnError`` naming epoll's reason when the shared loop cannot be set up.
    static func on(_ loop: HostLoop?, for executablePath: String) throws(SpawnError) -> SupervisorReactor {
        if let loop {
            return reactors.withLock { reactors in
                if let reactor = reactors[ObjectIdentifier(loop)] { return reactor }
                let reactor = SupervisorReactor(loop: loop)
                reactors[ObjectIdentifier(loop)] = reactor
                return reactor
            }
        }
        do {
            return try current.withLock { current throws(HostLoopError) -> SupervisorReactor in
                if let current { return current }
                let reactor = SupervisorReactor(loop: try HostLoop.shared())
                current = reactor
                return reactor
            }
        } catch {
            errno = error.errno
            throw watchFailure(executablePath)
        }
    }

    let loop: HostLoop
    private struct Turns {
        /// Processes with something ready this wake-up, in the order first seen.
        var due: [SupervisedProcess] = []
        /// The read buffer every turn shares.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        /// The processes watched, by supervisor: whose timer rang.
        var watched: [ObjectIdentifier: SupervisedProcess] = [:]
    }
    private let turns: LoopConfined<Turns>
    /// The reactor's wake-ups with something ready so far (as tests count them).
    let wakeups = Atomic<Int>(0)

    /// The host's reactor, if one was made (tests read its ``wakeups``).
    static var existing: SupervisorReactor? { current.withLock { $0 } }

    init(loop: HostLoop) {
        self.loop = loop
        turns = LoopConfined(Turns(), to: loop)
        loop.afterEachWakeup { [self] in giveTurns() }
    }

    private static func watchFailure(_ executablePath: String) -> SpawnError {
        let code = errno
        var error = SpawnError(executablePath: executablePath, errno: code, stage: .pipe)
        error.explanation = "the host cannot watch the process's descriptors (its epoll set or thread): "
            + "\(String(cString: strerror(code))) (errno \(code)); the kernel's limits (fs.epoll.max_user_watches, "
            + "open files, threads) may be reached"
        return error
    }

    /// Starts watching a spawned process (made for this reactor), from the launching thread. Its
    /// first plan is made here, before any of its descriptors is registered; its handlers and
    /// its timer take no turn until the loop has armed it (after every registration succeeded).
    /// - Throws: ``SpawnError`` when a descriptor cannot join the epoll set (the kernel's epoll
    ///   limits): the launch fails, and the process is the caller's to end.
    func watch(_ process: SupervisedProcess) throws(SpawnError) {
        let supervisor = process.supervisor
        let child = supervisor.child
        var descriptors: [(Int32, Roles)] = [
            (supervisor.wakeup.read, .wakeup), (child.responseReader, .responses), (child.stdoutReader, .stdout),
            (child.stderrReader, .stderr),
        ]
        if child.exitDescriptor >= 0 { descriptors.append((child.exitDescriptor, .exit)) }
        if let events = supervisor.context.controlGroup?.memoryEvents, events >= 0 { descriptors.append((events, .memoryEvents)) }
        if supervisor.plan(process) { descriptors.append((child.requestWriter, .requests)) }
        guard register(descriptors, of: process) else { throw Self.watchFailure(supervisor.context.executableName) }
        loop.execute { [self] in
            process.armed = true
            turns.value.watched[ObjectIdentifier(supervisor)] = process
            // Its timer rang before it was armed: the turn it asked for.
            if supervisor.timerRangUnheard { timerRang(supervisor) }
        }
    }

    /// A process's timer rang (loop's thread): it takes a turn after this wake-up's other
    /// timers, all in one batch (idle processes on the shared grid ring together).
    func timerRang(_ supervisor: ProcessSupervisor) {
        guard let process = turns.value.watched[ObjectIdentifier(supervisor)], process.armed else { return }
        let first = turns.value.due.isEmpty
        noteReady(process, .timer)
        if first { loop.execute { [self] in giveTurns() } }
    }

    /// Registers `descriptors` of `process` (all or none).
    /// - Returns: false (errno set) when one could not be: none is registered then.
    private func register(_ descriptors: [(Int32, Roles)], of process: SupervisedProcess) -> Bool {
        for (index, (fd, role)) in descriptors.enumerated() {
            do {
                try loop.register(fd, for: role == .requests ? .writable : .readable) { [self] _ in noteReady(process, role) }
            } catch {
                for (added, _) in descriptors[..<index] { loop.unregister(added) }
                errno = error.errno
                return false
            }
        }
        process.watching = descriptors
        process.requestsWatched = descriptors.contains { $0.1 == .requests }
        return true
    }

    /// A descriptor's handler: the process takes a turn once this wake-up's handlers have run.
    private func noteReady(_ process: SupervisedProcess, _ role: Roles) {
        guard process.armed else { return }
        if process.ready.isEmpty { turns.value.due.append(process) }
        process.ready.insert(role)
    }

    /// Watches fd 3 for room while output waits, and stops once it is written (loop's thread).
    func watchRequests(of process: SupervisedProcess, _ wanted: Bool) {
        guard process.requestsWatched != wanted else { return }
        let fd = process.supervisor.child.requestWriter
        if wanted {
            guard (try? loop.register(fd, for: .writable, { [self] _ in noteReady(process, .requests) })) != nil else { return }
            process.watching.append((fd, .requests))
        } else {
            unwatch(fd, of: process)
        }
        process.requestsWatched = wanted
    }

    /// Stops watching one descriptor (loop's thread): a stream that reached its end.
    func unwatch(_ fd: Int32, of process: SupervisedProcess) {
        loop.unregister(fd)
        process.watching.removeAll { $0.0 == fd }
    }

    /// Takes a process's descriptors out of the loop for a while (loop's thread): a thread of its
    /// own handles one of its frames. ``resume(_:)`` puts them back.
    func suspend(_ process: SupervisedProcess) {
        for (fd, _) in process.watching { loop.unregister(fd) }
        process.ready = []
        process.armed = false
    }

    /// Puts back what ``suspend(_:)`` took out (loop's thread); what became ready meanwhile is
    /// reported at once (level-triggered).
    /// - Returns: false when a descriptor could not go back (the kernel's epoll limits): none is
    ///   watched then, and the caller ends the process (it would never be heard again).
    func resume(_ process: SupervisedProcess) -> Bool {
        guard register(process.watching, of: process) else {
            process.watching = []
            process.requestsWatched = false
            return false
        }
        process.armed = true
        return true
    }

    /// Stops watching every descriptor of a process (loop's thread): it exited.
    func unwatchAll(of process: SupervisedProcess) {
        for (fd, _) in process.watching { loop.unregister(fd) }
        process.watching = []
        process.requestsWatched = false
        process.armed = false
        turns.value.watched[ObjectIdentifier(process.supervisor)] = nil
        process.supervisor.cancelTimer()
    }

    /// One turn for each process with something ready, after the wake-up's handlers noted them.
    private func giveTurns() {
        guard !turns.value.due.isEmpty else { return }
        wakeups.add(1, ordering: .relaxed)
        let due = turns.value.due
        let buffer = turns.value.buffer
        turns.value.due.removeAll(keepingCapacity: true)
        // Busy polling (off by default): no sleep for a while after an answer.
        let window = ReactorBusyPolling.window
        var answered = false
        for process in due {
            let ready = process.ready
            // An answer to a call (not a log line, nor a byte a process trickles while idle)
            // is what starts a busy poll: a call was written since the last answer.
            if ready.contains(.responses), process.supervisor.callWritten.exchange(false, ordering: .relaxed) {
                answered = true
            }
            process.ready = []
            process.supervisor.turns.add(1, ordering: .relaxed)
            process.supervisor.turn(process, ready: ready, buffer: buffer)
        }
        if answered, let window { loop.keepPolling(until: loop.clock.now() + window) }
    }
}

/// A supervised process as its reactor holds it: the supervisor, the delegate it reports to and
/// the state of its I/O. Once watched, only the loop's thread touches it (published to it
/// through the loop's lock), except while a large line or the exit has it on a thread of its
/// own (published through the thread's start; its descriptors are out of the loop then),
/// hence unchecked.
final class SupervisedProcess: @unchecked Sendable {
    let supervisor: ProcessSupervisor
    /// The reactor that watches it.
    let reactor: SupervisorReactor
    var loop: IOLoopState
    /// Whether fd 3 is in the epoll set (output waits for room in the pipe).
    var requestsWatched = false
    /// What is ready for its next turn (the reactor gathers it).
    var ready: SupervisorReactor.Roles = []
    /// Its descriptors in the loop and their roles (kept while ``SupervisorReactor/suspend(_:)``
    /// has them out).
    var watching: [(Int32, SupervisorReactor.Roles)] = []
    /// Set on the loop's thread once every descriptor was registered: its handlers take turns from then on.
    var armed = false

    init(supervisor: ProcessSupervisor, delegate: any ProcessSupervisorDelegate, reactor: SupervisorReactor) {
        self.supervisor = supervisor
        self.reactor = reactor
        loop = IOLoopState(delegate: delegate, now: supervisor.clock.now())
    }
}
