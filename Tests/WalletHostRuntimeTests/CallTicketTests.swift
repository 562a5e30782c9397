import Synchronization
import Testing
@testable import WalletHostRuntime

/// A call's ticket: the first of its answer and its cancel wins, and a cancel reaches the call
/// whether it comes before the call is under way or after.
@Suite struct CallTicketTests {
    @Test func aCancelBeforeTheCallIsUnderWayRunsItsTargetAsSoonAsItIsSet() {
        let ticket = CallTicket()
        ticket.cancel()
        let ran = Mutex(0)
        ticket.onCancel { ran.withLock { $0 += 1 } }
        #expect(ran.withLock { $0 } == 1)
        #expect(ticket.isCancelled)
    }

    @Test func aCancelAfterTheAnswerReachesNothing() {
        let ticket = CallTicket()
        let ran = Mutex(0)
        ticket.onCancel { ran.withLock { $0 += 1 } }
        #expect(ticket.claimAnswer())
        ticket.cancel()
        #expect(ran.withLock { $0 } == 0, "the answered call was cancelled")
        #expect(!ticket.claimAnswer(), "answered twice")
    }

    @Test func aCancelRunsItsTargetOnceAndTheAnswerAfterItIsRefused() {
        let ticket = CallTicket()
        let ran = Mutex(0)
        ticket.onCancel {
            ran.withLock { $0 += 1 }
            #expect(ticket.claimAnswer(), "the cancel answers first")
        }
        ticket.cancel()
        ticket.cancel()
        #expect(ran.withLock { $0 } == 1)
        #expect(!ticket.claimAnswer(), "the extension's answer after the cancel was let through")
    }
}
