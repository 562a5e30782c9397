import Foundation
import Testing
@testable import WalletHostRuntime
import WalletWire

/// The session's call bookkeeping, without processes: every rule the host applies to ids, the
/// launch gate, deadlines, late, double and unknown responses, and hangs.
@Suite("CallBook: call bookkeeping without I/O")
struct CallBookTests {
    typealias Book = CallBook<String>
    let start = ContinuousClock.now

    private func line(_ id: RequestID) -> Data { Data("request \(id)\n".utf8) }

    private func admit(_ book: inout Book, _ method: String, waiter: String, deadline: Duration? = .milliseconds(100),
                       gated: Bool = true, stderrMark: Int = 0) -> Book.Admission {
        book.admit(method: method, askedAt: start, deadline: deadline.map { start + $0 }, gated: gated,
                   stderrMark: stderrMark, waiter: waiter, now: start) { line($0) }
    }

    @Test("before the handshake gated calls queue in order; ungated ones are sent at once")
    func gateQueuesUntilOpen() throws {
        var book = Book()
        let first = try #require(admit(&book, "status", waiter: "a").queuedID)
        let second = try #require(admit(&book, "passEntries", waiter: "b").queuedID)
        let (initialize, initializeLine) = try #require(admit(&book, "initialize", waiter: "i", gated: false).sent)
        #expect(initializeLine == line(initialize))
        #expect(Set([first, second, initialize]).count == 3)
        #expect(book.pending[first]?.sentAt == nil)
        #expect(book.pending[first]?.unsentLine == line(first))

        let opened = book.openGate(implemented: ["status", "passEntries"], now: start + .milliseconds(5))
        #expect(opened.send == [line(first), line(second)])
        #expect(opened.refused.isEmpty)
        #expect(book.pending[first]?.sentAt == start + .milliseconds(5))
        #expect(book.pending[first]?.unsentLine == nil)
    }

    @Test("a queued call to a method initialize did not list is refused, never sent; later ones fail at once")
    func unlistedMethodsAreRefused() {
        var book = Book()
        _ = admit(&book, "status", waiter: "a")
        _ = admit(&book, "remotePassEntries", waiter: "b")
        let opened = book.openGate(implemented: ["status"], now: start)
        #expect(opened.send.count == 1)
        #expect(opened.refused.map(\.call.waiter) == ["b"])
        #expect(book.pending.count == 1)
        #expect(admit(&book, "remotePassEntries", waiter: "c").isNotImplemented,
                "an unlisted method must be refused after the handshake")
        // Opening twice changes nothing.
        #expect(book.openGate(implemented: ["remotePassEntries"], now: start).send.isEmpty)
    }

    @Test("a response resolves its call once; a second is a double completion; an unknown id is reported as such")
    func responsesResolveOnce() throws {
        var book = Book()
        _ = book.openGate(implemented: ["status"], now: start)
        let id = try #require(admit(&book, "status", waiter: "a").sent?.id)
        let call = try #require(book.resolve(id, cancelAcknowledgement: false).liveCall, "the first response must resolve the call")
        #expect(call.waiter == "a")
        #expect(!book.hasCallsInFlight)
        #expect(book.resolve(id, cancelAcknowledgement: false).isDouble, "a second response must be a double completion")
        #expect(book.resolve(.number(999), cancelAcknowledgement: false).isUnknown, "an id never sent must be unknown")
    }

    @Test("a repeated answer is a double completion however many calls came since; an answer to a hung or unsent call answers nothing")
    func repeatsAreKnownWithoutRememberingAnswers() throws {
        var book = Book()
        _ = book.openGate(implemented: ["status"], now: start)
        let first = try #require(admit(&book, "status", waiter: "a").sent?.id)
        _ = book.resolve(first, cancelAcknowledgement: false)
        // More answered calls than any window of remembered ids would hold.
        for _ in 0..<3000 {
            let id = try #require(admit(&book, "status", waiter: "n").sent?.id)
            _ = book.resolve(id, cancelAcknowledgement: false)
        }
        #expect(book.resolve(first, cancelAcknowledgement: false).isDouble, "the first call's answer, 3,000 calls later")
        #expect(book.resolve(.string("1"), cancelAcknowledgement: false).isUnknown, "the host gives out numbers only")
        #expect(book.resolve(.number(0), cancelAcknowledgement: false).isUnknown)

        // Hung: its deadline and the hang grace passed with no word.
        let hung = try #require(admit(&book, "status", waiter: "h").sent?.id)
        _ = book.expire(now: start + .milliseconds(100), hangGrace: .milliseconds(500))
        #expect(book.expire(now: start + .milliseconds(600), hangGrace: .milliseconds(500)).hung.map(\.id) == [hung])
        #expect(book.resolve(hung, cancelAcknowledgement: false).isUnknown, "a hung call's answer answers nothing the host still asks")

        // Missed before it was written (queued behind a handshake that never completed).
        var gated = Book()
        let unsent = try #require(admit(&gated, "status", waiter: "u").queuedID)
        #expect(gated.expire(now: start + .milliseconds(150), hangGrace: .seconds(1)).missed.map(\.id) == [unsent])
        #expect(gated.resolve(unsent, cancelAcknowledgement: false).isUnknown, "the extension was never asked")
    }

    @Test("ids are never reused, even when encoding a request fails")
    func idsAreNeverReused() throws {
        struct EncodeFailure: Error {}
        var book = Book()
        _ = book.openGate(implemented: ["status"], now: start)
        let first = try #require(admit(&book, "status", waiter: "a").sent?.id)
        #expect(throws: EncodeFailure.self) {
            _ = try book.admit(method: "status", askedAt: start, deadline: nil, gated: true, stderrMark: 0, waiter: "x",
                               now: start) { _ in throw EncodeFailure() }
        }
        let second = try #require(admit(&book, "status", waiter: "b").sent?.id)
        #expect(first != second)
        #expect(book.pending.count == 2)
    }

    @Test("a call past its deadline still awaits an answer until it is acknowledged or hung (the CPU stays unthrottled)")
    func missedCallAwaitsAnswerUntilHung() throws {
        var book = Book()
        _ = book.openGate(implemented: ["status"], now: start)
        #expect(!book.hasCallsAwaitingAnswer)
        let missed = try #require(admit(&book, "status", waiter: "a").sent?.id)
        _ = book.expire(now: start + .milliseconds(100), hangGrace: .milliseconds(500))
        #expect(!book.hasCallsInFlight)
        #expect(book.hasCallsAwaitingAnswer, "the extension may still be working on it")
        _ = book.expire(now: start + .milliseconds(600), hangGrace: .milliseconds(500))
        #expect(!book.hasCallsAwaitingAnswer, "hung: nothing is awaited")

        let acknowledged = try #require(admit(&book, "status", waiter: "b").sent?.id)
        #expect(acknowledged != missed)
        _ = book.expire(now: start + .milliseconds(800), hangGrace: .milliseconds(500))
        _ = book.resolve(acknowledged, cancelAcknowledgement: true)
        #expect(!book.hasCallsAwaitingAnswer, "it said it stopped: its idle time may be throttled")
    }

    @Test("at its deadline a sent call is missed and cancelled; its late answer is recognised and dropped")
    func deadlineThenLateCompletion() throws {
        var book = Book()
        _ = book.openGate(implemented: ["status"], now: start)
        let id = try #require(admit(&book, "status", waiter: "a").sent?.id)
        #expect(book.nextTimer == start + .milliseconds(100))
        #expect(book.expire(now: start + .milliseconds(99), hangGrace: .seconds(1)).missed.isEmpty)

        let expiry = book.expire(now: start + .milliseconds(100), hangGrace: .seconds(1))
        #expect(expiry.missed.map(\.id) == [id])
        #expect(expiry.cancels == [id])
        #expect(expiry.hung.isEmpty)
        #expect(!book.hasCallsInFlight)
        #expect(book.nextTimer == start + .milliseconds(1100))

        let (expired, acknowledgement) = try #require(book.resolve(id, cancelAcknowledgement: false).late,
                                                      "a response after the deadline must be late")
        #expect(expired.method == "status")
        #expect(!acknowledgement)
        #expect(book.nextTimer == nil)
        #expect(book.resolve(id, cancelAcknowledgement: false).isDouble, "a second late response is a double completion")
    }

    @Test("a call whose deadline passes during the handshake is missed but never sent or cancelled")
    func deadlineBeforeSend() throws {
        var book = Book()
        let id = try #require(admit(&book, "status", waiter: "a").queuedID)
        let expiry = book.expire(now: start + .milliseconds(150), hangGrace: .seconds(1))
        #expect(expiry.missed.map(\.id) == [id])
        #expect(expiry.missed.first?.call.sentAt == nil)
        #expect(expiry.cancels.isEmpty)
        #expect(book.expired.isEmpty)
        // The gate no longer holds it: opening sends nothing.
        #expect(book.openGate(implemented: ["status"], now: start).send.isEmpty)
    }

    @Test("silence past the hang grace is a hang; an acknowledged cancel is not")
    func hangTracking() throws {
        var book = Book()
        _ = book.openGate(implemented: ["status", "passEntries"], now: start)
        let silent = try #require(admit(&book, "status", waiter: "a").sent?.id)
        let acknowledging = try #require(admit(&book, "passEntries", waiter: "b").sent?.id)
        _ = book.expire(now: start + .milliseconds(100), hangGrace: .milliseconds(500))
        let answer = try #require(book.resolve(acknowledging, cancelAcknowledgement: true).late,
                                  "the -32002 answer is matched to the expired call")
        #expect(answer.acknowledgement)
        #expect(book.expire(now: start + .milliseconds(599), hangGrace: .milliseconds(500)).hung.isEmpty)
        let expiry = book.expire(now: start + .milliseconds(600), hangGrace: .milliseconds(500))
        #expect(expiry.hung.map(\.id) == [silent])
        #expect(Array(book.expired.keys) == [acknowledging], "the acknowledged call stays, waiting for its result")
    }

    @Test("an acknowledged call still takes its real result as a late completion")
    func acknowledgedThenResult() throws {
        var book = Book()
        _ = book.openGate(implemented: ["status"], now: start)
        let id = try #require(admit(&book, "status", waiter: "a").sent?.id)
        _ = book.expire(now: start + .milliseconds(100), hangGrace: .seconds(1))
        _ = book.resolve(id, cancelAcknowledgement: true)
        let result = try #require(book.resolve(id, cancelAcknowledgement: false).late,
                                  "the result after the acknowledgement is a late completion")
        #expect(!result.acknowledgement, "the result is not itself an acknowledgement")
        #expect(result.call.acknowledged)
    }

    @Test("an acknowledged call's result is late however long it takes, and it sets no timer")
    func acknowledgedPastTheHangGrace() throws {
        var book = Book()
        _ = book.openGate(implemented: ["status"], now: start)
        let id = try #require(admit(&book, "status", waiter: "a").sent?.id)
        _ = book.expire(now: start + .milliseconds(100), hangGrace: .milliseconds(500))
        _ = book.resolve(id, cancelAcknowledgement: true)
        #expect(book.nextTimer == nil)
        #expect(book.expire(now: start + .seconds(60), hangGrace: .milliseconds(500)).hung.isEmpty)
        let result = try #require(book.resolve(id, cancelAcknowledgement: false).late,
                                  "a result a minute after an acknowledged cancel is still a late completion")
        #expect(!result.acknowledgement)
    }

    @Test("footprint samples raise the peak of every call in flight; violations are kept per call, capped")
    func footprintAndViolations() throws {
        var book = Book()
        _ = book.openGate(implemented: ["status"], now: start)
        let id = try #require(admit(&book, "status", waiter: "a", stderrMark: 7).sent?.id)
        book.recordFootprint(3_000_000)
        book.recordFootprint(2_000_000)
        #expect(book.pending[id]?.peakFootprintBytes == 3_000_000)
        #expect(book.pending[id]?.stderrMark == 7)
        for index in 0..<10 {
            book.noteViolation(ProtocolViolation(.notJSON, detail: "line \(index)"))
        }
        #expect(book.pending[id]?.violations.map(\.detail) == (0..<Book.violationsKeptPerCall).map { "line \($0)" })
    }

    @Test("take and takeAll remove calls so that a later response counts as a repeat, not a result")
    func takeAndTakeAll() throws {
        var book = Book()
        _ = book.openGate(implemented: ["status"], now: start)
        let first = try #require(admit(&book, "status", waiter: "a").sent?.id)
        try #require(admit(&book, "status", waiter: "b").sent != nil)
        #expect(book.take(first)?.waiter == "a")
        #expect(book.take(first) == nil)
        #expect(book.resolve(first, cancelAcknowledgement: false).isDouble, "a response to a call failed at once is a repeat")
        #expect(book.takeAll().map(\.call.waiter) == ["b"])
        #expect(!book.hasCallsInFlight)
        #expect(book.nextTimer == nil)
    }

    @Test("the remembered ids are bounded: the oldest are forgotten first")
    func recentSetIsBounded() {
        var set = RecentSet<Int>(capacity: 3)
        for value in 1...5 { set.insert(value) }
        #expect(!set.contains(1) && !set.contains(2))
        #expect(set.contains(3) && set.contains(4) && set.contains(5))
    }
}

/// The cases the tests expect, as optionals and flags, so that `#require` stops a test whose
/// call took another path instead of letting it skip its assertions.
extension CallBook.Admission {
    /// The id and line of a call sent at once; nil when it was queued or refused.
    var sent: (id: RequestID, line: Data)? {
        guard case .send(let id, let line) = self else { return nil }
        return (id, line)
    }

    /// The id of a call held at the launch gate; nil when it was sent or refused.
    var queuedID: RequestID? {
        guard case .queued(let id) = self else { return nil }
        return id
    }

    var isNotImplemented: Bool {
        guard case .notImplemented = self else { return false }
        return true
    }
}

extension CallBook.Resolution {
    /// The call a response resolved in time; nil for any other resolution.
    var liveCall: CallBook.Pending? {
        guard case .live(let call) = self else { return nil }
        return call
    }

    /// The expired call a late response matched, and whether it was the cancel's acknowledgement.
    var late: (call: CallBook.Expired, acknowledgement: Bool)? {
        guard case .late(let call, let acknowledgement) = self else { return nil }
        return (call, acknowledgement)
    }

    var isDouble: Bool {
        guard case .double = self else { return false }
        return true
    }

    var isUnknown: Bool {
        guard case .unknown = self else { return false }
        return true
    }
}
