import CWalletPoll
import CWalletSpawn
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The one thread that does every supervised process's I/O, through one epoll set: each
/// process's fd 4, stdout, stderr, pidfd, wake-up pipe, timer, control-group memory events and,
/// while output waits, fd 3. However many extensions a host keeps warm (a daemon keeps a hundred),
/// it costs one thread, one stack and one read buffer instead of one of each per process.
///
/// **Turns.** Each wake-up gathers the ready descriptors by process and gives every such process
/// one turn (``ProcessSupervisor/turn(_:ready:buffer:)``): read what is there, run its timers,
/// sample its footprint when due, and plan its next timer. A turn is bounded in time as well as in
/// bytes (``turnAllowance``): frames it has no time for wait in the process's backlog for its
/// next turn, so an extension that floods fd 4, stdout or stderr with short lines holds the
/// thread for a fraction of a millisecond at a time, and the others' turns come in between.
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

    private struct Watch {
        let process: SupervisedProcess
        let role: Roles
    }

    /// How long one process's turn may handle frames before it leaves the rest for its next turn.
    static let turnAllowance: Duration = .microseconds(500)

    private static let current = Mutex<SupervisorReactor?>(nil)

    /// The host's reactor, made (and its thread started) on first use; a failed attempt is tried
    /// again by the next launch.
    /// - Throws: ``SpawnError`` naming epoll's reason when it cannot be set up.
    static func shared(for executablePath: String) throws(SpawnError) -> SupervisorReactor {
        let made = current.withLock { current -> SupervisorReactor? in
            if let current { return current }
            let poll = wh_poll_create()
            guard poll >= 0 else { return nil }
            let reactor = SupervisorReactor(poll: poll)
            let failure = DetachedThread.start(name: "wh-io") { reactor.run() }
            guard failure == 0 else {
                close(poll)
                errno = failure
                return nil
            }
            current = reactor
            return reactor
        }
        guard let made else { throw watchFailure(executablePath) }
        return made
    }

    private let poll: Int32
    /// Descriptor -> its process and role. Changed under its lock by ``watch(_:)`` (from the
    /// launching thread) and by the reactor's thread.
    private let watches = Mutex<[Int32: Watch]>([:])
    private let reportedWaitFailure = Atomic<Bool>(false)
    /// The reactor's wake-ups with something ready so far (as tests count them).
    let wakeups = Atomic<Int>(0)

    /// The host's reactor, if one was made (tests read its ``wakeups``).
    static var existing: SupervisorReactor? { current.withLock { $0 } }

    private init(poll: Int32) {
        self.poll = poll
    }

    private static func watchFailure(_ executablePath: String) -> SpawnError {
        let code = errno
        var error = SpawnError(executablePath: executablePath, errno: code, stage: .pipe)
        error.explanation = "the host cannot watch the process's descriptors (its epoll set or thread): "
            + "\(String(cString: strerror(code))) (errno \(code)); the kernel's limits (fs.epoll.max_user_watches, "
            + "open files, threads) may be reached"
        return error
    }

    /// Starts watching a spawned process (made for this reactor).
    /// - Throws: ``SpawnError`` when a descriptor cannot join the epoll set (the kernel's epoll
    ///   limits): the launch fails, and the process is the caller's to end.
    func watch(_ process: SupervisedProcess) throws(SpawnError) {
        let supervisor = process.supervisor
        let child = supervisor.child
        var descriptors: [(Int32, Roles)] = [
            (supervisor.wakeup.read, .wakeup), (child.responseReader, .responses), (child.stdoutReader, .stdout),
            (child.stderrReader, .stderr), (supervisor.timer, .timer),
        ]
        if child.exitDescriptor >= 0 { descriptors.append((child.exitDescriptor, .exit)) }
        if let events = supervisor.context.controlGroup?.memoryEvents, events >= 0 { descriptors.append((events, .memoryEvents)) }
        let added = watches.withLock { watches -> Bool in
            for (index, (fd, role)) in descriptors.enumerated() {
                guard wh_poll_add(poll, fd, WH_POLL_IN) == 0 else {
                    let code = errno
                    for (added, _) in descriptors[..<index] {
                        _ = wh_poll_remove(poll, added)
                        watches[added] = nil
                    }
                    errno = code
                    return false
                }
                watches[fd] = Watch(process: process, role: role)
            }
            // The first plan, before the reactor's first turn for it (which this lock holds
            // off): the timer is armed, fd 3 watched if output waits already.
            watchRequests(of: process, supervisor.plan(process), locked: &watches)
            return true
        }
        guard added else { throw Self.watchFailure(supervisor.context.executableName) }
    }

    /// Watches fd 3 for room while output waits, and stops once it is written (reactor's thread,
    /// or the first plan under ``watch(_:)``'s lock).
    private func watchRequests(of process: SupervisedProcess, _ wanted: Bool, locked watches: inout [Int32: Watch]) {
        guard process.requestsWatched != wanted else { return }
        let fd = process.supervisor.child.requestWriter
        if wanted {
            guard wh_poll_add(poll, fd, WH_POLL_OUT) == 0 else { return }
            watches[fd] = Watch(process: process, role: .requests)
        } else {
            _ = wh_poll_remove(poll, fd)
            watches[fd] = nil
        }
        process.requestsWatched = wanted
    }

    /// ``watchRequests(of:_:locked:)``, taking the lock (reactor's thread).
    func watchRequests(of process: SupervisedProcess, _ wanted: Bool) {
        guard process.requestsWatched != wanted else { return }
        watches.withLock { watchRequests(of: process, wanted, locked: &$0) }
    }

    /// Stops watching one descriptor (reactor's thread): a stream that reached its end.
    func unwatch(_ fd: Int32) {
        watches.withLock { watches in
            _ = wh_poll_remove(poll, fd)
            watches[fd] = nil
        }
    }

    /// Takes a process's descriptors out of the epoll set for a while (reactor's thread): a
    /// thread of its own handles one of its frames. ``resume(_:)`` puts them back.
    func suspend(_ process: SupervisedProcess) {
        watches.withLock { watches in
            for (fd, watch) in watches where watch.process === process {
                _ = wh_poll_remove(poll, fd)
                watches[fd] = nil
                process.suspended.append((fd, watch.role))
            }
        }
    }

    /// Puts back what ``suspend(_:)`` took out (any thread); what became ready meanwhile is
    /// reported at once (level-triggered).
    /// - Returns: false when a descriptor could not go back (the kernel's epoll limits): none is
    ///   watched then, and the caller ends the process (it would never be heard again).
    func resume(_ process: SupervisedProcess) -> Bool {
        watches.withLock { watches in
            defer { process.suspended.removeAll() }
            for (index, (fd, role)) in process.suspended.enumerated() {
                guard wh_poll_add(poll, fd, role == .requests ? WH_POLL_OUT : WH_POLL_IN) == 0 else {
                    for (added, _) in process.suspended[..<index] {
                        _ = wh_poll_remove(poll, added)
                        watches[added] = nil
                    }
                    process.requestsWatched = false
                    return false
                }
                watches[fd] = Watch(process: process, role: role)
            }
            return true
        }
    }

    /// Stops watching every descriptor of a process (reactor's thread): it exited.
    func unwatchAll(of process: SupervisedProcess) {
        watches.withLock { watches in
            for (fd, watch) in watches where watch.process === process {
                _ = wh_poll_remove(poll, fd)
                watches[fd] = nil
            }
        }
    }

    private func run() {
        let capacity = 256
        var readyDescriptors = [Int32](repeating: 0, count: capacity)
        var readyEvents = [UInt32](repeating: 0, count: capacity)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var due: [SupervisedProcess] = []
        /// When the last answer to a call was read, for busy polling.
        var lastAnswer: ContinuousClock.Instant?
        while true {
            // Busy polling (off by default): no sleep for a while after an answer.
            let window = ReactorBusyPolling.window
            let polls = if let window, let lastAnswer { ContinuousClock.now - lastAnswer < window } else { false }
            let count = wh_poll_wait(poll, &readyDescriptors, &readyEvents, Int32(capacity), polls ? 0 : -1)
            if count < 0 && errno != EINTR { reportWaitFailure() }
            if count <= 0 { continue }
            wakeups.add(1, ordering: .relaxed)
            // One turn per process, with everything of it that is ready.
            watches.withLock { watches in
                for fd in readyDescriptors[..<Int(count)] {
                    guard let watch = watches[fd] else { continue }
                    if watch.process.ready.isEmpty { due.append(watch.process) }
                    watch.process.ready.insert(watch.role)
                }
            }
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
            due.removeAll(keepingCapacity: true)
            if answered && window != nil { lastAnswer = .now }
        }
    }

    /// epoll_wait failing for good (its set closed by a stray `close`) stalls every extension:
    /// said once on stderr, then retried every millisecond.
    private func reportWaitFailure() {
        let code = errno
        if !reportedWaitFailure.exchange(true, ordering: .relaxed) {
            FileHandle.standardError.write(Data(
                "wallet-host: the I/O reactor cannot wait on its epoll set: \(String(cString: strerror(code))) (errno \(code)); extensions' I/O stalls\n".utf8))
        }
        usleep(1000)
    }
}

/// A supervised process as its reactor holds it: the supervisor, the delegate it reports to and
/// the state of its I/O. Once watched, only the reactor's thread touches it (published to it
/// through the reactor's lock), except while a large line or the exit has it on a thread of its
/// own (published through the thread's start; its descriptors are out of the reactor then),
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
    /// Its descriptors and their roles while they are out of the epoll set (``SupervisorReactor/suspend(_:)``).
    var suspended: [(Int32, SupervisorReactor.Roles)] = []

    init(supervisor: ProcessSupervisor, delegate: any ProcessSupervisorDelegate, reactor: SupervisorReactor) {
        self.supervisor = supervisor
        self.reactor = reactor
        loop = IOLoopState(delegate: delegate)
    }
}
