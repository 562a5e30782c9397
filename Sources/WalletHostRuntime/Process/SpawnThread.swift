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

    private struct Job: @unchecked Sendable {
        // The work runs exactly once on the spawn thread; the caller waits on `done`.
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
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        queue.withLock { $0.append(Job { result.withLock { $0 = body() }; done.signal() }) }
        wake.signal()
        done.wait()
        return result.withLock { $0! }
    }
}
