import Testing
@testable import WalletDaemon

/// When the client loop gives free memory back: after a quiet spell that followed work, or after
/// many clients left; never for an idle loop.
struct FreeMemoryTrimTests {
    let start = ContinuousClock.now

    @Test func anIdleLoopIsNeverWokenForATrim() {
        var trim = FreeMemoryTrim(quiet: .milliseconds(500), releasesBeforeTrim: 3)
        #expect(trim.quietTrimDue == nil, "no timer for a trim")
        let due = trim.isDue(now: start + .seconds(10))
        #expect(!due)
    }

    @Test func aTrimComesOnceAfterTheQuietSpellThatFollowsWork() {
        var trim = FreeMemoryTrim(quiet: .milliseconds(500), releasesBeforeTrim: 3)
        trim.noteBusy(at: start)
        #expect(trim.quietTrimDue == start + .milliseconds(500), "the loop's timer is set for the quiet trim")
        let early = trim.isDue(now: start + .milliseconds(499))
        #expect(!early)
        // More work pushes the trim back.
        trim.noteBusy(at: start + .milliseconds(300))
        let pushedBack = trim.isDue(now: start + .milliseconds(700))
        #expect(!pushedBack)
        let due = trim.isDue(now: start + .milliseconds(800))
        #expect(due)
        let again = trim.isDue(now: start + .seconds(5))
        #expect(!again, "once per busy spell")
        #expect(trim.quietTrimDue == nil, "and the loop sets no timer again")
    }

    @Test func manyClientsLeavingTrimAtOnceEvenWhileBusy() {
        var trim = FreeMemoryTrim(quiet: .milliseconds(500), releasesBeforeTrim: 3)
        trim.noteBusy(at: start)
        trim.noteReleased()
        trim.noteReleased()
        let early = trim.isDue(now: start)
        #expect(!early)
        trim.noteReleased()
        let due = trim.isDue(now: start)
        #expect(due, "the third client left")
        let again = trim.isDue(now: start)
        #expect(!again, "the count starts again")
    }
}
