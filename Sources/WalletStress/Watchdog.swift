import Synchronization

/// Waits for work at most `limit`: a call that has produced neither a result nor an error by
/// then is a lost call, and the run goes on without it (its task is left to finish on its own).
enum Watchdog {
    /// - Returns: The work's value, or nil when `limit` passed first.
    static func run<Value: Sendable>(limit: Duration, _ work: @escaping @Sendable () async -> Value) async -> Value? {
        await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
            let once = ResumeOnce(continuation)
            let timer = Task {
                // Cancelled when the work finished first: nothing to report.
                guard (try? await Task.sleep(for: limit)) != nil else { return }
                once.resume(nil)
            }
            Task {
                let value = await work()
                once.resume(value)
                timer.cancel()
            }
        }
    }

    /// Resumes a continuation with the first value offered; later ones are dropped.
    private final class ResumeOnce<Value: Sendable>: Sendable {
        private let continuation: Mutex<CheckedContinuation<Value?, Never>?>

        init(_ continuation: CheckedContinuation<Value?, Never>) {
            self.continuation = Mutex(continuation)
        }

        func resume(_ value: Value?) {
            continuation.withLock { pending in
                defer { pending = nil }
                return pending
            }?.resume(returning: value)
        }
    }
}
