import Dispatch
import Synchronization

/// Runs each call on a thread of its own, reusing parked threads.
///
/// Creating a thread per call cost more than the rest of a warm `status` round trip; a
/// finished worker now parks for a while and takes the next call. A blocked handler still
/// holds only its own thread: when no worker is parked, a new one starts.
package final class WorkerPool: Sendable {
    package static let shared = WorkerPool()

    /// Parked workers kept at most; more finish when their call does.
    private let maximumParked = 8
    /// A parked worker with nothing to do for this long ends.
    private let parkTimeout: DispatchTimeInterval = .seconds(30)
    private let parked = Mutex<[Worker]>([])

    /// Runs `body` on a parked worker, or on a new thread.
    /// - Returns: `false` when no worker was parked and the system refused a new thread.
    package func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        if let worker = parked.withLock({ $0.popLast() }) {
            worker.hand(body)
            return true
        }
        let worker = Worker()
        worker.job.withLock { $0 = body }
        return WorkerThread.start(name: name) { [self] in run(worker) }
    }

    private func run(_ worker: Worker) {
        while let body = worker.job.withLock({ job in defer { job = nil }; return job }) {
            body()
            guard park(worker) else { return }
            if worker.wake.wait(timeout: .now() + parkTimeout) == .timedOut {
                // Still parked: nobody will hand it a job, so it may end. Otherwise a job is
                // on its way: wait for the signal that follows.
                let stillParked = parked.withLock { workers -> Bool in
                    guard let index = workers.firstIndex(where: { $0 === worker }) else { return false }
                    workers.remove(at: index)
                    return true
                }
                if stillParked { return }
                worker.wake.wait()
            }
        }
    }

    private func park(_ worker: Worker) -> Bool {
        parked.withLock { workers in
            guard workers.count < maximumParked else { return false }
            workers.append(worker)
            return true
        }
    }

    private final class Worker: Sendable {
        let wake = DispatchSemaphore(value: 0)
        let job = Mutex<(@Sendable () -> Void)?>(nil)

        func hand(_ body: @escaping @Sendable () -> Void) {
            job.withLock { $0 = body }
            wake.signal()
        }
    }
}
