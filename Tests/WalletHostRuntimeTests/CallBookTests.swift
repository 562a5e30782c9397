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
    func gateQueuesUntilOpen() {
        var book = Book()
        guard case .queued(let first) = admit(&book, "status", waiter: "a"),
              case .queued(let second) = admit(&book, "passEntries", waiter: "b"),
              case .send(let initialize, let initializeLine) = admit(&book, "initialize", waiter: "i", gated: false) else {
            Issue.record("expected two queued calls and one sent")
            return
        }
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
        guard case .notImplemented = admit(&book, "remotePassEntries", waiter: "c") else {
            Issue.record("an unlisted method must be refused after the handshake")
            return
        }
        // Opening twice changes nothing.
        #expect(book.openGate(implemented: ["remotePassEntries"], now: start).send.isEmpty)
    }

    @Test("a response resolves its call once; a second is a double completion; an unknown id is reported as such")
    func responsesResolveOnce() {
        var book = Book()
        _ = book.openGate(implemented: ["status"], now: start)
        guard case .send(let id, _) = admit(&book, "status", waiter: "a") else {
            Issue.record("expected the call to be sent")
            return
        }
        guard case .live(let call) = book.resolve(id, cancelAcknowledgement: false) else {
            Issue.record("the first response must resolve the call")
            return
        }
        #expect(call.waiter == "a")
        #expect(!book.hasCallsInFlight)
        guard case .double = book.resolve(id, cancelAcknowledgement: false) else {
            Issue.record("a second response must be a double completion")
            return
        }
        guard case .unknown = book.resolve(.number(999), cancelAcknowledgement: false) else {
            Issue.record("an id never sent must be unknown")
            return
        }
    }

    @Test("ids are never reused, even when encoding a request fails")
    func idsAreNeverReused() throws {
        struct EncodeFailure: Error {}
        var book = Book()
        _ = book.openGate(implemented: ["status"], now: start)
        guard case .send(let first, _) = admit(&book, "status", waiter: "a") else { throw EncodeFailure() }
        #expect(throws: EncodeFailure.self) {
            _ = try book.admit(method: "status", askedAt: start, deadline: nil, gated: true, stderrMark: 0, waiter: "x",
                               now: start) { _ in throw EncodeFailure() }
        }
        guard case .send(let second, _) = admit(&book, "status", waiter: "b") else { throw EncodeFailure() }
        #expect(first != second)
        #expect(book.pending.count == 2)
    }

    @Test("at its deadline a sent call is missed and cancelled; its late answer is recognised and dropped")
    func deadlineThenLateCompletion() {
        var book = Book()
        _ = book.openGate(implemented: ["status"], now: start)
        guard case .send(let id, _) = admit(&book, "status", waiter: "a") else { return }
        #expect(book.nextTimer == start + .milliseconds(100))
        #expect(book.expire(now: start + .milliseconds(99), hangGrace: .seconds(1)).missed.isEmpty)

        let expiry = book.expire(now: start + .milliseconds(100), hangGrace: .seconds(1))
        #expect(expiry.missed.map(\.id) == [id])
        #expect(expiry.cancels == [id])
        #expect(expiry.hung.isEmpty)
        #expect(!book.hasCallsInFlight)
        #expect(book.nextTimer == start + .milliseconds(1100))

        guard case .late(let expired, let acknowledgement) = book.resolve(id, cancelAcknowledgement: false) else {
            Issue.record("a response after the deadline must be late")
            return
        }
        #expect(expired.method == "status")
        #expect(!acknowledgement)
        #expect(book.nextTimer == nil)
        guard case .double = book.resolve(id, cancelAcknowledgement: false) else {
            Issue.record("a second late response is a double completion")
            return
        }
    }

    @Test("a call whose deadline passes during the handshake is missed but never sent or cancelled")
    func deadlineBeforeSend() {
        var book = Book()
        guard case .queued(let id) = admit(&book, "status", waiter: "a") else { return }
        let expiry = book.expire(now: start + .milliseconds(150), hangGrace: .seconds(1))
        #expect(expiry.missed.map(\.id) == [id])
        #expect(expiry.missed.first?.call.sentAt == nil)
        #expect(expiry.cancels.isEmpty)
        #expect(book.expired.isEmpty)
        // The gate no longer holds it: opening sends nothing.
        #expect(book.openGate(implemented: ["status"], now: start).send.isEmpty)
    }

    @Test("silence past the hang grace is a hang; an acknowledged cancel is not")
    func hangTracking() {
        var book = Book()
        _ = book.openGate(implemented: ["status", "passEntries"], now: start)
        guard case .send(let silent, _) = admit(&book, "status", waiter: "a"),
              case .send(let acknowledging, _) = admit(&book, "passEntries", waiter: "b") else { return }
        _ = book.expire(now: start + .milliseconds(100), hangGrace: .milliseconds(500))
        guard case .late(_, let acknowledgement) = book.resolve(acknowledging, cancelAcknowledgement: true) else {
            Issue.record("the -32002 answer is matched to the expired call")
            return
        }
        #expect(acknowledgement)
        #expect(book.expire(now: start + .milliseconds(599), hangGrace: .milliseconds(500)).hung.isEmpty)
        let expiry = book.expire(now: start + .milliseconds(600), hangGrace: .milliseconds(500))
        #expect(expiry.hung.map(\.id) == [silent])
        #expect(Array(book.expired.keys) == [acknowledging], "the acknowledged call stays, waiting for its result")
    }

    @Test("an acknowledged call still takes its real result as a late completion")
    func acknowledgedThenResult() {
        var book = Book()
        _ = book.openGate(implemented: ["status"], now: start)
        guard case .send(let id, _) = admit(&book, "status", waiter: "a") else { return }
        _ = book.expire(now: start + .milliseconds(100), hangGrace: .seconds(1))
        _ = book.resolve(id, cancelAcknowledgement: true)
        guard case .late(let call, false) = book.resolve(id, cancelAcknowledgement: false) else {
            Issue.record("the result after the acknowledgement is a late completion")
            return
        }
        #expect(call.acknowledged)
    }

    @Test("an acknowledged call's result is late however long it takes, and it sets no timer")
    func acknowledgedPastTheHangGrace() {
        var book = Book()
        _ = book.openGate(implemented: ["status"], now: start)
        guard case .send(let id, _) = admit(&book, "status", waiter: "a") else { return }
        _ = book.expire(now: start + .milliseconds(100), hangGrace: .milliseconds(500))
        _ = book.resolve(id, cancelAcknowledgement: true)
        #expect(book.nextTimer == nil)
        #expect(book.expire(now: start + .seconds(60), hangGrace: .milliseconds(500)).hung.isEmpty)
        guard case .late(_, false) = book.resolve(id, cancelAcknowledgement: false) else {
            Issue.record("a result a minute after an acknowledged cancel is still a late completion")
            return
        }
    }

    @Test("footprint samples raise the peak of every call in flight; violations are kept per call, capped")
    func footprintAndViolations() {
        var book = Book()
        _ = book.openGate(implemented: ["status"], now: start)
        guard case .send(let id, _) = admit(&book, "status", waiter: "a", stderrMark: 7) else { return }
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
    func takeAndTakeAll() {
        var book = Book()
        _ = book.openGate(implemented: ["status"], now: start)
        guard case .send(let first, _) = admit(&book, "status", waiter: "a"),
              case .send(_, _) = admit(&book, "status", waiter: "b") else { return }
        #expect(book.take(first)?.waiter == "a")
        #expect(book.take(first) == nil)
        guard case .double = book.resolve(first, cancelAcknowledgement: false) else {
            Issue.record("a response to a call failed at once is a repeat")
            return
        }
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
