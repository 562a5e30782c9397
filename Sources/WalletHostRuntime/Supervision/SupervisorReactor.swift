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
/// one turn (``ProcessSupervisor/turn(_:ready:buffer:)``): read what is there (at most 64 reads
/// of fd 4 and 16 of each output stream, so a chatty process cannot hold the thread), run its
/// timers, sample its footprint when due, and plan its next timer.
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

    /// The host's reactor; its thread starts with the first process.
    static let shared = SupervisorReactor()

    private let poll: Int32
    /// Descriptor -> its process and role. Added to by any thread (``watch(_:)``), removed from
    /// only by the reactor's thread.
    private let watches = Mutex<[Int32: Watch]>([:])
    private let started = Atomic<Bool>(false)

    init() {
        poll = wh_poll_create()
    }

    /// Starts watching a spawned process. A process whose descriptors cannot all be watched
    /// (the kernel's epoll limits) gets a reactor of its own.
    func watch(_ process: SupervisedProcess) {
        let supervisor = process.supervisor
        let child = supervisor.child
        var descriptors: [(Int32, Roles)] = [
            (supervisor.wakeup.read, .wakeup), (child.responseReader, .responses), (child.stdoutReader, .stdout),
            (child.stderrReader, .stderr), (supervisor.timer, .timer),
        ]
        if child.exitDescriptor >= 0 { descriptors.append((child.exitDescriptor, .exit)) }
        if let events = supervisor.context.controlGroup?.memoryEvents, events >= 0 { descriptors.append((events, .memoryEvents)) }
        process.reactor = self
        // The first plan before the first turn: the timer is armed, fd 3 watched if output waits.
        supervisor.plan(process)
        let added = poll >= 0 && watches.withLock { watches -> Bool in
            for (index, (fd, role)) in descriptors.enumerated() {
                guard wh_poll_add(poll, fd, WH_POLL_IN) == 0 else {
                    for (added, _) in descriptors[..<index] {
                        _ = wh_poll_remove(poll, added)
                        watches[added] = nil
                    }
                    return false
                }
                watches[fd] = Watch(process: process, role: role)
            }
            return true
        }
        guard added else {
            let own = SupervisorReactor()
            guard own.poll >= 0 else {
                fatalError("wallet-host: cannot watch extension \(child.pid)'s descriptors: epoll: \(String(cString: strerror(errno)))")
            }
            own.watch(process)
            return
        }
        if !started.exchange(true, ordering: .acquiringAndReleasing) { startThread() }
    }

    /// Watches fd 3 for room while output waits, and stops once it is written (reactor's thread).
    func watchRequests(of process: SupervisedProcess, _ wanted: Bool) {
        guard process.requestsWatched != wanted else { return }
        let fd = process.supervisor.child.requestWriter
        if wanted {
            guard watches.withLock({ watches -> Bool in
                guard wh_poll_add(poll, fd, WH_POLL_OUT) == 0 else { return false }
                watches[fd] = Watch(process: process, role: .requests)
                return true
            }) else { return }
        } else {
            unwatch(fd)
        }
        process.requestsWatched = wanted
    }

    /// Stops watching one descriptor (reactor's thread): a stream that reached its end.
    func unwatch(_ fd: Int32) {
        watches.withLock { watches in
            _ = wh_poll_remove(poll, fd)
            watches[fd] = nil
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

    private func startThread() {
        let thread = Thread { [self] in
            wh_set_thread_name("wh-io")
            run()
        }
        thread.name = "wh-io"
        thread.stackSize = 512 * 1024
        thread.start()
    }

    private func run() {
        let capacity = 256
        var readyDescriptors = [Int32](repeating: 0, count: capacity)
        var readyEvents = [UInt32](repeating: 0, count: capacity)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        defer { buffer.deallocate() }
        var due: [(SupervisedProcess, Roles)] = []
        while true {
            let count = wh_poll_wait(poll, &readyDescriptors, &readyEvents, Int32(capacity), -1)
            if count <= 0 {
                if count < 0 && errno != EINTR { usleep(1000) }
                continue
            }
            // One turn per process, with everything of it that is ready.
            watches.withLock { watches in
                for index in 0..<Int(count) {
                    guard let watch = watches[readyDescriptors[index]] else { continue }
                    if let slot = due.firstIndex(where: { $0.0 === watch.process }) {
                        due[slot].1.insert(watch.role)
                    } else {
                        due.append((watch.process, watch.role))
                    }
                }
            }
            for (process, ready) in due {
                process.supervisor.turns.add(1, ordering: .relaxed)
                process.supervisor.turn(process, ready: ready, buffer: buffer)
            }
            due.removeAll(keepingCapacity: true)
        }
    }
}

/// A supervised process as its reactor holds it: the supervisor, the delegate it reports to and
/// the state of its I/O. Once watched, only the reactor's thread touches it (until the exit
/// hands it to the teardown thread), hence unchecked.
final class SupervisedProcess: @unchecked Sendable {
    let supervisor: ProcessSupervisor
    /// The reactor that watches it (set by ``SupervisorReactor/watch(_:)``).
    var reactor = SupervisorReactor.shared
    var loop: IOLoopState
    /// Whether fd 3 is in the epoll set (output waits for room in the pipe).
    var requestsWatched = false

    init(supervisor: ProcessSupervisor, delegate: any ProcessSupervisorDelegate) {
        self.supervisor = supervisor
        loop = IOLoopState(delegate: delegate)
    }
}
