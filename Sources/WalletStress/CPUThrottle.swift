import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Emulates a slower device the way `cpulimit` does: every extension process the host started
/// (each leads its own process group) runs for `share` of each period and is stopped
/// (`SIGSTOP` to the group) for the rest, then continued (`SIGCONT`). A process launched during
/// the run is caught within one period. Processes a chaos `stop` holds are left alone.
final class CPUThrottle: Sendable {
    private let share: Double
    private let period: Duration
    private let held: HeldProcesses?
    private let running = Atomic<Bool>(true)
    private let finishedSignal = DispatchSemaphore(value: 0)

    /// Starts throttling at once on a thread of its own.
    /// - Parameters:
    ///   - sharePercent: 1...100: the part of each period the extensions may run.
    ///   - period: The duty cycle (20 ms by default: short enough that a 100 ms deadline sees
    ///     several cycles, long enough that signalling costs little).
    ///   - held: Processes not to continue (stopped on purpose by chaos).
    init(sharePercent: Double, period: Duration, held: HeldProcesses?) {
        share = min(1, max(0.01, sharePercent / 100))
        self.period = period
        self.held = held
        let thread = Thread { [self] in loop() }
        thread.name = "wallet-host stress cpu-share"
        thread.start()
    }

    /// Stops throttling and continues every process; returns once the thread is done.
    func finish() {
        running.store(false, ordering: .sequentiallyConsistent)
        finishedSignal.wait()
    }

    private func loop() {
        let periodMicroseconds = Double(period.components.seconds) * 1_000_000
            + Double(period.components.attoseconds) / 1_000_000_000_000
        let onMicroseconds = UInt32(periodMicroseconds * share)
        let offMicroseconds = UInt32(periodMicroseconds - Double(onMicroseconds))
        while running.load(ordering: .relaxed) {
            signal(throttledGroups(), SIGCONT)
            usleep(onMicroseconds)
            guard offMicroseconds > 0 else { continue }
            // A process launched while the others are stopped is stopped within a millisecond,
            // so a cold launch cannot run a whole off phase at full speed.
            var stopped: Set<Int32> = []
            var remaining = Int(offMicroseconds)
            while remaining > 0 {
                let groups = throttledGroups().filter { !stopped.contains($0) }
                signal(groups, SIGSTOP)
                stopped.formUnion(groups)
                let slice = min(remaining, 1_000)
                usleep(UInt32(slice))
                remaining -= slice
            }
        }
        signal(throttledGroups(), SIGCONT)
        finishedSignal.signal()
    }

    private func throttledGroups() -> [Int32] {
        let heldNow = held?.all ?? []
        return ChildProcesses.list().filter { !$0.isZombie && !heldNow.contains($0.pid) }.map(\.pid)
    }

    private func signal(_ groups: [Int32], _ signal: Int32) {
        for group in groups { _ = Glibc.kill(-group, signal) }
    }
}
