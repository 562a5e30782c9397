import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Decides who records a call's `call` event, so that it is never on the request's way and the
/// log still shows every call before the event that closes it.
///
/// The thread that wrote the request records it after the write (``claimForWriter()``, then
/// ``recorded()``). Whoever closes the call (its response, its deadline, the process's exit)
/// first calls ``settle(recordingCall:)``: if the writer has not begun, that thread records the
/// `call` event itself; if the writer is recording it, it waits the few microseconds that takes.
final class CallEventGate: Sendable {
    private static let open: UInt8 = 0
    private static let writerRecording: UInt8 = 1
    private static let done: UInt8 = 2

    private let state: Atomic<UInt8>

    /// - Parameter recorded: the event was recorded already (a call queued behind the handshake
    ///   records it while booking).
    init(recorded: Bool = false) {
        state = Atomic(recorded ? Self.done : Self.open)
    }

    /// The writer, after writing the request: true when it is to record the `call` event now
    /// (and then say ``recorded()``); false when the call's closer did.
    func claimForWriter() -> Bool {
        state.compareExchange(expected: Self.open, desired: Self.writerRecording, ordering: .acquiringAndReleasing).exchanged
    }

    /// The writer recorded the event.
    func recorded() {
        state.store(Self.done, ordering: .releasing)
    }

    /// Before the event that closes the call: the `call` event is in the log when this returns.
    func settle(recordingCall record: () -> Void) {
        if state.compareExchange(expected: Self.open, desired: Self.done, ordering: .acquiringAndReleasing).exchanged {
            record()
            return
        }
        // The writer is between its claim and its `recorded()`: an event's encoding and one write.
        while state.load(ordering: .acquiring) == Self.writerRecording { sched_yield() }
    }
}
