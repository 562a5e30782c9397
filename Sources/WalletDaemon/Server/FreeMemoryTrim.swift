/// When the client loop gives free memory back to the system (`malloc_trim`): at the end of a
/// round with nothing left to do, once many clients have left since the last time (their buffers are free), or once it
/// has had nothing to do for ``quiet`` after it last had work (a discovery's 100 calls at once
/// leave free memory in glibc's arenas that stays resident until trimmed). An idle daemon is not
/// woken for it, and a busy one trims only for clients that left.
struct FreeMemoryTrim {
    let quiet: Duration
    let releasesBeforeTrim: Int
    /// When the loop last had something to do, if it had since the last trim.
    private(set) var lastBusy: ContinuousClock.Instant?
    private(set) var releasedSinceTrim = 0

    init(quiet: Duration, releasesBeforeTrim: Int) {
        self.quiet = quiet
        self.releasesBeforeTrim = releasesBeforeTrim
    }

    /// The loop had something to do.
    mutating func noteBusy(at now: ContinuousClock.Instant) {
        lastBusy = now
    }

    /// A client's socket was released.
    mutating func noteReleased() {
        releasedSinceTrim += 1
    }

    /// When a trim comes due if the loop stays quiet (nil: it was not busy since the last trim).
    var quietTrimDue: ContinuousClock.Instant? { lastBusy.map { $0 + quiet } }

    /// Whether to trim now, with nothing left to do this turn; a trim starts both counts again.
    mutating func isDue(now: ContinuousClock.Instant) -> Bool {
        let quietLongEnough = lastBusy.map { now - $0 >= quiet } ?? false
        guard quietLongEnough || releasedSinceTrim >= releasesBeforeTrim else { return false }
        lastBusy = nil
        releasedSinceTrim = 0
        return true
    }
}
