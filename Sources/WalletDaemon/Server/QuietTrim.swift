/// When the client loop gives free memory back to the system (`malloc_trim`): once it has had
/// nothing to do for ``quiet`` after it last served something. A burst of work (a discovery's
/// 100 calls at once) leaves free memory in glibc's arenas that stays resident until trimmed;
/// an idle daemon is not woken for it, and a busy one is not slowed by it.
struct QuietTrim {
    let quiet: Duration
    /// When the loop last had something to do, if it had since the last trim.
    private(set) var lastBusy: ContinuousClock.Instant?

    init(quiet: Duration) {
        self.quiet = quiet
    }

    /// The loop had something to do.
    mutating func noteBusy(at now: ContinuousClock.Instant) {
        lastBusy = now
    }

    /// The timeout of the loop's next wait, in milliseconds, given the one it needs for its own
    /// deadlines (-1: none, 0: do not wait): at most until a trim is due.
    func timeout(_ loopTimeout: Int32, now: ContinuousClock.Instant) -> Int32 {
        guard let lastBusy, loopTimeout != 0 else { return loopTimeout }
        let untilQuiet = Self.milliseconds(from: now, until: lastBusy + quiet)
        return loopTimeout < 0 ? untilQuiet : min(loopTimeout, untilQuiet)
    }

    /// Whether to trim now, after a wait that found nothing to do; once per busy spell.
    mutating func isDue(now: ContinuousClock.Instant) -> Bool {
        guard let lastBusy, now - lastBusy >= quiet else { return false }
        self.lastBusy = nil
        return true
    }

    /// A wait's timeout from `now` until `instant`: whole milliseconds rounded up, 0 when it has
    /// passed, at most a minute.
    static func milliseconds(from now: ContinuousClock.Instant, until instant: ContinuousClock.Instant) -> Int32 {
        let milliseconds = (instant - now).milliseconds
        return milliseconds <= 0 ? 0 : Int32(min(milliseconds.rounded(.up), 60_000))
    }
}
