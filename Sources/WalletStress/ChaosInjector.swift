import CWalletChaos
import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Draws faults at the plan's rate and injects them into an extension's process during a call:
/// `SIGKILL`; `SIGSTOP` held past the call's deadline, then `SIGCONT`; fd 4 closed inside the
/// process (``DescriptorCloser``).
final class ChaosInjector: Sendable {
    private let faults: [ChaosFault]
    private let rate: Double
    private let generator: Mutex<SplitMix64>
    /// Processes a `stop` fault holds: the CPU throttle must not continue them early.
    let held = HeldProcesses()

    init(faults: Set<ChaosFault>, rate: Double, seed: UInt64) {
        self.faults = faults.sorted()
        self.rate = rate
        generator = Mutex(SplitMix64(seed: seed))
    }

    /// Whether the next call gets a fault, which, and how long after the ask (0-200 us) it lands:
    /// a warm call takes tens of microseconds, so a later fault would mostly fall between calls.
    func draw() -> (fault: ChaosFault, delay: Duration)? {
        guard !faults.isEmpty, rate > 0 else { return nil }
        return generator.withLock { generator in
            guard Double.random(in: 0..<1, using: &generator) < rate else { return nil }
            let fault = faults[Int.random(in: 0..<faults.count, using: &generator)]
            return (fault, .microseconds(Int.random(in: 0...200, using: &generator)))
        }
    }

    /// Injects `fault` into process `pid` (which leads its own group). A stop returns at once:
    /// the process is continued in the background once the hold is over (``settle()`` waits for it).
    /// - Parameter deadline: The call's deadline: a stop is held this long plus 25 ms.
    /// - Returns: Whether the fault reached the process (false when it was already gone).
    func inject(_ fault: ChaosFault, into pid: Int32, deadline: Duration?) async -> Bool {
        switch fault {
        case .kill:
            return Glibc.kill(pid, SIGKILL) == 0
        case .stop:
            held.hold(pid)
            guard Glibc.kill(pid, SIGSTOP) == 0 else {
                held.release(pid)
                return false
            }
            Task { [held] in
                try? await Task.sleep(for: (deadline ?? .seconds(1)) + .milliseconds(25))
                Glibc.kill(pid, SIGCONT)
                held.release(pid)
            }
            return true
        case .closeFd4:
            return await DescriptorCloser.close(descriptor: 4, in: pid)
        }
    }

    /// Returns once every process a stop holds has been continued.
    func settle() async {
        while !held.all.isEmpty {
            try? await Task.sleep(for: .milliseconds(5))
        }
    }
}

/// Processes stopped on purpose by a chaos `stop`, which nothing else may continue.
final class HeldProcesses: Sendable {
    private let pids = Mutex<Set<Int32>>([])

    func hold(_ pid: Int32) { pids.withLock { _ = $0.insert(pid) } }
    func release(_ pid: Int32) { pids.withLock { _ = $0.remove(pid) } }
    var all: Set<Int32> { pids.withLock { $0 } }
}

/// Closes a descriptor inside another process, as if it had closed it itself: one of its threads
/// is made to run close(2) under ptrace (`wh_chaos_close_descriptor`). Descriptors are shared by
/// every thread, so the first thread found blocked in a system call will do.
enum DescriptorCloser {
    private static let queue = DispatchQueue(label: "wallet-host.stress.chaos")

    /// - Returns: Whether close(2) ran and succeeded in the process.
    static func close(descriptor: Int32, in pid: Int32) async -> Bool {
        await withCheckedContinuation { continuation in
            // All ptrace requests for one thread must come from the thread that attached:
            // each attempt runs start to end on this queue's thread.
            queue.async { continuation.resume(returning: closeNow(descriptor: descriptor, in: pid)) }
        }
    }

    private static func closeNow(descriptor: Int32, in pid: Int32) -> Bool {
        let threads = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? [])
            .compactMap { Int32($0) }.sorted()
        for thread in threads {
            var result = 0
            var error: Int32 = 0
            switch wh_chaos_close_descriptor(thread, descriptor, &result, &error) {
            case wh_chaos_closed: return result == 0
            case wh_chaos_attach_failed, wh_chaos_unsupported: return false
            default: continue
            }
        }
        return false
    }
}

/// A small seeded generator (SplitMix64), so a run's faults can be replayed with `--seed`.
struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
