import Synchronization
import Testing
@testable import CoreGraphics
@testable import PassKit
@testable import UIKit
@testable import WalletExtensionKit
@testable import WalletExtensionRuntime
import WalletWire

/// Records what a responder sends, in order.
final class RecordingChannel: ResponseChannel, Sendable {
    enum Event: Equatable {
        case result(RequestID)
        case error(RequestID, Int)
        case finished(RequestID)
    }

    let events = Mutex<[Event]>([])

    func deliver(id: RequestID, outcome: CallOutcome) {
        switch outcome {
        case .result: events.withLock { $0.append(.result(id)) }
        case .failure(let error): events.withLock { $0.append(.error(id, error.code)) }
        }
    }

    func requestFinished(id: RequestID) {
        events.withLock { $0.append(.finished(id)) }
    }
}

/// PassKit completion handlers are single-shot; so is every answer on the wire.
struct RequestResponderTests {
    let channel = RecordingChannel()

    func responder(_ id: Int = 1) -> RequestResponder {
        RequestResponder(id: .number(id), method: "status", channel: channel)
    }

    @Test func theFirstCompletionIsSentAndTheSecondDropped() {
        let responder = responder()
        #expect(responder.complete(.result(true)))
        #expect(!responder.complete(.result(false)))
        #expect(channel.events.withLock { $0 } == [.result(.number(1)), .finished(.number(1))])
    }

    @Test func cancellingRunsTheHandlersAndTheLateCompletionIsStillSentOnce() {
        let responder = responder()
        let cancelHandlerRan = Atomic<Bool>(false)
        responder.onCancel { cancelHandlerRan.store(true, ordering: .relaxed) }
        responder.cancel()
        #expect(responder.isCancelled)
        let handlerRan = cancelHandlerRan.load(ordering: .relaxed)
        #expect(handlerRan)
        #expect(channel.events.withLock { $0 }.isEmpty, "a cancel alone sends nothing")
        #expect(responder.complete(.result(true)))
        #expect(!responder.complete(.result(false)))
        #expect(channel.events.withLock { $0 } == [.result(.number(1)), .finished(.number(1))])
    }

    @Test func cancellingAnAnsweredCallDoesNothing() {
        let responder = responder()
        responder.complete(.result(true))
        responder.cancel()
        #expect(!responder.isCancelled)
        #expect(channel.events.withLock { $0 }.count == 2)
    }

    @Test func aCancelHandlerAddedAfterCancellationRunsAtOnce() {
        let responder = responder()
        responder.cancel()
        let ran = Atomic<Bool>(false)
        responder.onCancel { ran.store(true, ordering: .relaxed) }
        let ranAtOnce = ran.load(ordering: .relaxed)
        #expect(ranAtOnce)
    }

    @Test func concurrentCompletionsSendExactlyOneAnswer() async {
        let responder = responder()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<32 {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        responder.complete(.result(index))
                    } else {
                        responder.cancel()
                    }
                }
            }
        }
        let answers = channel.events.withLock { $0 }.filter { $0 != .finished(.number(1)) }
        #expect(answers.count == 1)
    }

    @Test func theTestingSwitchLetsEveryCompletionThrough() {
        let responder = responder()
        responder.singleShotGuardDisabled.store(true, ordering: .relaxed)
        responder.cancel()
        #expect(responder.complete(.result(1)))
        #expect(responder.complete(.result(2)))
        let results = channel.events.withLock { $0 }.filter { $0 == .result(.number(1)) }
        #expect(results.count == 2)
    }
}
