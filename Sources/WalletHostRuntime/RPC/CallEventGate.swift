import Synchronization

/// One call's progress that two threads share without the session's lock: whether its `call`
/// event is in the log, and whether its request was written (so that a `$/cancelRequest` never
/// reaches the extension before the request it cancels).
///
/// The `call` event is recorded by the thread that wrote the request, after the write (off the
/// request's way), unless whoever closes the call (its response, its deadline, the process's
/// exit) comes first: ``recordCallOnce(_:)`` records it once, under this call's own lock, so the
/// closing event that follows always comes after it. The lock is this call's alone; the two
/// threads meet on it only when a response beats the writer's record.
final class CallEventGate: Sendable {
    private let callRecorded = Mutex(false)
    private let write = Atomic<UInt8>(WriteState.unwritten)

    private enum WriteState {
        static let unwritten: UInt8 = 0
        static let written: UInt8 = 1
        /// The deadline passed before the write: the writer sends the cancel after it.
        static let cancelOwed: UInt8 = 2
    }

    /// Records the `call` event with `record` unless it was recorded; it is in the log when this returns.
    func recordCallOnce(_ record: () -> Void) {
        callRecorded.withLock { recorded in
            guard !recorded else { return }
            record()
            recorded = true
        }
    }

    /// The event was recorded (while booking a queued call).
    func markRecorded() {
        callRecorded.withLock { $0 = true }
    }

    /// The writer wrote the request. - Returns: true when the call's deadline expired before
    /// that: the writer sends its `$/cancelRequest` now, after the request.
    func requestWritten() -> Bool {
        !write.compareExchange(expected: WriteState.unwritten, desired: WriteState.written, ordering: .acquiringAndReleasing).exchanged
    }

    /// The call's deadline expired. - Returns: true when its request is written: send the cancel
    /// now; false when the writer has yet to write it (and then sends the cancel itself).
    func deadlineExpired() -> Bool {
        !write.compareExchange(expected: WriteState.unwritten, desired: WriteState.cancelOwed, ordering: .acquiringAndReleasing).exchanged
    }
}
