import WalletWire

/// A process's I/O state, touched only by the host loop's thread, or by a thread of its own while a
/// large line or the exit has the process out of the reactor.
struct IOLoopState {
    /// The protocol layer, told of frames, timers, samples and the exit.
    let delegate: any ProcessSupervisorDelegate
    var responses = StreamState(framer: LineFramer())
    var stdout = StreamState(framer: LineFramer(maximumLineBytes: 64 * 1024))
    var stderr = StreamState(framer: LineFramer(maximumLineBytes: 64 * 1024))
    /// Set when any stderr line reads like a failed allocation (the runtime's backtrace that
    /// follows can push it out of the tail).
    var sawAllocationFailure = false
    var lastSample: ContinuousClock.Instant
    /// A sample took this long: the next waits at least ten times as long (counting hundreds of
    /// processes one by one must not keep the thread busy).
    var lastSampleCost = Duration.zero
    var lastOutOfMemoryCheck: ContinuousClock.Instant
    /// The control group's usage was at or above its watch threshold when last read (or has not
    /// been read yet): an idle extension is sampled on a timer until it is below.
    var memoryAboveWatch = true
    /// Whether calls were in flight when the last plan was made: the samples until the next
    /// plan are taken at the calls' rate, and count toward their peaks.
    var callsInFlight = false
    /// When the delegate's timers last ran.
    var lastTimers: ContinuousClock.Instant

    /// The state of a process watched from `now` on (its loop's clock).
    init(delegate: any ProcessSupervisorDelegate, now: ContinuousClock.Instant) {
        self.delegate = delegate
        lastSample = now - .seconds(1)
        lastOutOfMemoryCheck = now
        lastTimers = now
    }
}
