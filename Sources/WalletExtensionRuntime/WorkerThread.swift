#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts detached POSIX threads with an explicit stack size.
///
/// Every call runs on its own thread rather than on Swift's cooperative pool (two threads
/// on a two-core machine) or libdispatch's global queues (which add threads slowly when
/// workers block): a handler that sleeps or waits on a host service synchronously must not
/// hold up any other call, nor the reader that delivers `$/cancelRequest` and service
/// responses.
package enum WorkerThread {
    /// The stack of every SDK thread: 512 KiB, what iOS gives secondary threads.
    ///
    /// `RLIMIT_DATA` counts thread stacks, so this is also what each concurrent call costs
    /// against the memory limit (address space, not footprint: only touched pages are
    /// resident). glibc keeps the stacks of finished threads cached for the next ones, so
    /// after a burst of N concurrent calls about N x 512 KiB stays counted.
    package static let stackSize = 512 << 10

    /// Starts `body` on a new detached thread.
    /// - Returns: `false` when the system refused to create the thread (limits reached).
    @discardableResult
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let context = Unmanaged.passRetained(ThreadBody(name: name, body: body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { rawContext in
            let threadBody = Unmanaged<ThreadBody>.fromOpaque(rawContext!).takeRetainedValue()
            threadBody.body()
            return nil
        }, context)
        if result != 0 {
            Unmanaged<ThreadBody>.fromOpaque(context).release()
            Diagnostics.log("could not start thread \(name): \(String(cString: strerror(result)))")
            return false
        }
        return true
    }
}

private final class ThreadBody {
    package let name: String
    package let body: @Sendable () -> Void

    package init(name: String, body: @escaping @Sendable () -> Void) {
        self.name = name
        self.body = body
    }
}
