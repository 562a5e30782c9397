import Foundation
import Synchronization
import Testing
@testable import WalletHostRuntime

/// A call's `call` event is recorded once whoever comes first, and its `$/cancelRequest` goes
/// out after its request, whichever of the write and the deadline comes first.
@Suite("CallEventGate")
struct CallEventGateTests {
    @Test func aDeadlineBeforeTheWriteLeavesTheCancelToTheWriter() {
        let gate = CallEventGate()
        #expect(!gate.deadlineExpired(), "not written yet: the I/O thread must not send the cancel")
        #expect(gate.requestWritten(), "the writer owes the cancel, after its request")
    }

    @Test func aDeadlineAfterTheWriteSendsTheCancelAtOnce() {
        let gate = CallEventGate()
        #expect(!gate.requestWritten(), "no deadline passed: nothing owed")
        #expect(gate.deadlineExpired(), "written: the I/O thread sends the cancel")
    }

    @Test func theCallEventIsRecordedOnceWhoeverComesFirst() async {
        for _ in 0..<200 {
            let gate = CallEventGate()
            let records = RecordCount()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<2 {
                    group.addTask { gate.recordCallOnce { records.count.add(1, ordering: .relaxed) } }
                }
            }
            #expect(records.count.load(ordering: .relaxed) == 1)
        }
        let queued = CallEventGate()
        queued.markRecorded()
        var recorded = false
        queued.recordCallOnce { recorded = true }
        #expect(!recorded, "a queued call's event was recorded while booking")
    }
}

private final class RecordCount: Sendable {
    let count = Atomic<Int>(0)
}
