import CWalletSpawn
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Network namespaces made ahead for a root host's launches, each holding only `lo` (up).
///
/// Making a network namespace costs a launch about a third of a millisecond when clone makes it
/// (CLONE_NEWNET); entering one made ahead (setns) costs a few microseconds. So a root host keeps
/// ``depth`` of them ready, made on a thread of the pool's own, and each launch takes one (an
/// extension's namespace is never reused: the next one is new). When the pool is empty a launch
/// makes its own at clone, as a non-root host always does (its namespaces belong to the
/// extension's user namespace, which the host cannot enter).
public final class NetworkNamespacePool: Sendable {
    /// How many namespaces wait ready.
    public static let depth = 2

    /// The root host's pool; nil for a non-root host.
    public static let shared: NetworkNamespacePool? = geteuid() == 0 ? NetworkNamespacePool() : nil

    private struct State {
        var ready: [Int32] = []
        var refilling = false
        /// The maker's thread could not return to the host's namespace, or the kernel refused: stop making.
        var broken = false
    }
    private let state = Mutex(State())
    /// A pipe: ``take()`` writes a byte (never blocking), the maker's thread waits to read one.
    private let wakeup: (read: Int32, write: Int32)

    private init() {
        guard let pipe = try? SystemCall.pipe(nonBlockingWrite: true) else {
            wakeup = (-1, -1)
            state.withLock { $0.broken = true }
            return
        }
        wakeup = pipe
        let reader = pipe.read
        let started = DetachedThread.start(name: "netns-pool", stackBytes: 128 << 10) { [self] in
            // Refilling never competes with the launch that took a namespace (nor with anything else).
            _ = wh_thread_idle_priority()
            while true {
                var bytes: (UInt64, UInt64) = (0, 0)
                while true {
                    let needed = state.withLock { $0.broken ? 0 : Self.depth - $0.ready.count }
                    guard needed > 0 else { break }
                    let made = wh_network_namespace_make()
                    state.withLock { state in
                        if made >= 0 { state.ready.append(made) } else { state.broken = true }
                    }
                    // -2: this thread is stuck in the new namespace: it must make nothing more.
                    if made == -2 { return }
                }
                _ = withUnsafeMutableBytes(of: &bytes) { try? SystemCall.read(reader, into: $0) }
            }
        }
        if started != 0 { state.withLock { $0.broken = true } }
    }

    /// A namespace for one launch (the caller closes it once the child has entered it), or -1
    /// when none is ready: the launch then makes its own (CLONE_NEWNET).
    public func take() -> Int32 {
        let taken = state.withLock { state -> Int32 in
            state.ready.isEmpty ? -1 : state.ready.removeFirst()
        }
        var one: UInt8 = 1
        if wakeup.write >= 0 { _ = withUnsafeBytes(of: &one) { try? SystemCall.write(wakeup.write, $0) } }
        return taken
    }
}
