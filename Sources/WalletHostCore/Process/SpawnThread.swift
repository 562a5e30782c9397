import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One long-lived thread that performs every fork.
///
/// `PR_SET_PDEATHSIG` fires when the *thread* that forked the child exits, not the process.
/// Forking from a pooled thread that the runtime later retires would kill healthy extensions,
/// so every fork happens here, on a thread that lives as long as the host.
final class SpawnThread: Sendable {
    static let shared = SpawnThread()

    /// How long a caller stays on its core waiting for a spawn before it goes to sleep.
    ///
    /// A spawn (clone, the child's set-up, exec) takes 0.1-0.3 ms. A caller that sleeps through
    /// it must then be woken on a core that went idle, which on a virtual machine costs from
    /// tens of microseconds to half a millisecond (measured on the 2-core bench machine: the
    /// hand-back took 27 us quiet and 470 us in a fresh `wallet-host call`; yielding instead of
    /// sleeping, 5 and 50 us). Past this limit the caller sleeps, so a slow spawn burns no core.
    static let busyWaitLimit: Duration = .milliseconds(1)

    private struct Job: @unchecked Sendable {
        // The work runs exactly once on the spawn thread; the caller waits on its completion.
        let work: () -> Void
    }

    private let queue = Mutex<[Job]>([])
    private let wake = DispatchSemaphore(value: 0)

    private init() {
        // Writing to an extension that just died must be an EPIPE error, not this process's
        // death: like SwiftNIO, the host ignores SIGPIPE process-wide once it spawns anything.
        signal(SIGPIPE, SIG_IGN)
        let thread = Thread { [self] in
            while true {
                wake.wait()
                let jobs = queue.withLock { jobs in
                    defer { jobs.removeAll() }
                    return jobs
                }
                jobs.forEach { $0.work() }
            }
        }
        thread.name = "wallet-host.spawn"
        thread.start()
    }

    /// Runs `body` on the spawn thread and returns its result, blocking the caller meanwhile.
    func run<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let completion = Completion<T>()
        queue.withLock { $0.append(Job { completion.finish(body()) }) }
        wake.signal()
        return completion.wait(busyFor: Self.busyWaitLimit)
    }
}

/// One job's result, handed from the spawn thread to the caller that waits for it.
private final class Completion<Value: Sendable>: Sendable {
    private let value = Mutex<Value?>(nil)
    private let finished = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    /// Stores the result and releases the waiting caller (spinning or asleep).
    func finish(_ result: Value) {
        value.withLock { $0 = result }
        finished.store(true, ordering: .releasing)
        done.signal()
    }

    /// Yields the core until the result is there, for at most `limit`; then sleeps until it is.
    func wait(busyFor limit: Duration) -> Value {
        let giveUp = ContinuousClock.now + limit
        while !finished.load(ordering: .acquiring) {
            if ContinuousClock.now >= giveUp {
                done.wait()
                break
            }
            sched_yield()
        }
        return value.withLock { $0! }
    }
}
