import CWalletSpawn
import Foundation

/// Threads started with `pthread_create`, which says when the system will not start one:
/// Foundation's `Thread` drops its work silently then (its `start()` ignores the error), and a
/// host of hostile extensions may well be at its limit of threads. A thread started from
/// another one gets its name here, on the thread itself (Foundation's `Thread.name`, set before
/// `start()`, leaves a Linux thread with its creator's name, such as a Dispatch worker's).
package enum DetachedThread {
    /// Runs `work` on a new detached thread named `name` (15 characters show in `ps`).
    /// - Returns: 0, or `pthread_create`'s error (EAGAIN: at the limit of threads) when no thread
    ///   could be started: `work` has not run then and never will.
    @discardableResult
    package static func start(name: String, stackBytes: Int = 512 << 10, _ work: @escaping @Sendable () -> Void) -> Int32 {
        let context = Unmanaged.passRetained(Job(name: name, work: work)).toOpaque()
        let failure = wh_thread_start_detached({ context in
            let job = Unmanaged<Job>.fromOpaque(context!).takeRetainedValue()
            wh_set_thread_name(job.name)
            job.work()
            return nil
        }, context, stackBytes)
        if failure != 0 { Unmanaged<Job>.fromOpaque(context).release() }
        return failure
    }

    private final class Job: Sendable {
        let name: String
        let work: @Sendable () -> Void

        init(name: String, work: @escaping @Sendable () -> Void) {
            self.name = name
            self.work = work
        }
    }
}
