/// When the client loop gives free memory back to the system (`malloc_trim`), just before it
/// waits: once many clients have left since the last time (their buffers are free), or once it
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

    /// The timeout of the loop's next wait, in milliseconds, given the one it needs for its own
    /// deadlines (-1: none, 0: do not wait): at most until a quiet trim is due.
    func timeout(_ loopTimeout: Int32, now: ContinuousClock.Instant) -> Int32 {
        guard let lastBusy, loopTimeout != 0 else { return loopTimeout }
        let untilQuiet = (lastBusy + quiet).pollTimeout(from: now)
        return loopTimeout < 0 ? untilQuiet : min(loopTimeout, untilQuiet)
    }

    /// Whether to trim now, with nothing left to do this turn; a trim starts both counts again.
    mutating func isDue(now: ContinuousClock.Instant) -> Bool {
        let quietLongEnough = lastBusy.map { now - $0 >= quiet } ?? false
        guard quietLongEnough || releasedSinceTrim >= releasesBeforeTrim else { return false }
        lastBusy = nil
        releasedSinceTrim = 0
        return true
    }
}

extension ContinuousClock.Instant {
    /// A poll's timeout from `now` until this instant: whole milliseconds rounded up, 0 when it
    /// has passed, at most a minute.
    func pollTimeout(from now: ContinuousClock.Instant) -> Int32 {
        let milliseconds = (self - now).milliseconds
        return milliseconds <= 0 ? 0 : Int32(min(milliseconds.rounded(.up), 60_000))
    }
}
