import Combine
import Dispatch
import Foundation
import Synchronization
import Testing

/// Values collected by a subscriber, from whatever thread delivers them.
private final class Received<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    func append(_ value: Value) { values.withLock { $0.append(value) } }
    var all: [Value] { values.withLock { $0 } }
}

/// A view model as issuers write them with Combine.
private final class CardViewModel: ObservableObject {
    @Published var status = "idle"
    let events = PassthroughSubject<String, Never>()
}

@Suite("Combine subjects, sink and receive(on:)")
struct CombineSubjectTests {
    @Test("PassthroughSubject delivers each value sent to current subscribers; cancel stops delivery")
    func passthroughDeliversUntilCancelled() {
        let subject = PassthroughSubject<Int, Never>()
        let received = Received<Int>()
        subject.send(0)
        let cancellable = subject.sink { received.append($0) }
        subject.send(1)
        subject.send(2)
        cancellable.cancel()
        subject.send(3)
        #expect(received.all == [1, 2])
    }

    @Test("store(in:) keeps the subscription while the set holds it; emptying the set stops delivery")
    func storeInKeepsTheSubscription() {
        let subject = PassthroughSubject<String, Never>()
        let received = Received<String>()
        var cancellables = Set<AnyCancellable>()
        subject.map { $0.uppercased() }.sink { received.append($0) }.store(in: &cancellables)
        subject.send("a")
        cancellables.removeAll()
        subject.send("b")
        #expect(received.all == ["A"])
    }

    @Test("CurrentValueSubject gives the current value at once, then each new one; completion ends delivery")
    func currentValueSubject() {
        let subject = CurrentValueSubject<Int, Error>(1)
        let received = Received<Int>()
        let finished = Received<Bool>()
        let cancellable = subject.sink(receiveCompletion: { completion in
            if case .finished = completion { finished.append(true) }
        }, receiveValue: { received.append($0) })
        subject.value = 2
        subject.send(3)
        subject.send(completion: .finished)
        subject.send(4)
        #expect(received.all == [1, 2, 3])
        #expect(finished.all == [true])
        #expect(subject.value == 4 || subject.value == 3)
        cancellable.cancel()
    }

    @Test("receive(on:) delivers on the queue, in order; a cancel drops what is still on its way")
    func receiveOnDeliversOnTheQueue() async {
        let queue = DispatchQueue(label: "combine-test")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let subject = PassthroughSubject<Int, Never>()
        let received = Received<Int>()
        let onQueue = Received<Bool>()
        let cancellable = subject.receive(on: queue).sink { value in
            onQueue.append(DispatchQueue.getSpecific(key: key) == true)
            received.append(value)
        }
        for value in 1...5 { subject.send(value) }
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        #expect(received.all == [1, 2, 3, 4, 5])
        #expect(onQueue.all.allSatisfy { $0 })

        // Block the queue, send, cancel while the value waits: it is never delivered.
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }
        subject.send(6)
        cancellable.cancel()
        gate.signal()
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
        #expect(received.all == [1, 2, 3, 4, 5])
    }

    @Test("a @Published property's publisher works with receive(on: RunLoop.main) and removeDuplicates")
    func publishedThroughOperators() async {
        let model = CardViewModel()
        let received = Received<String>()
        let cancellable = model.$status.removeDuplicates().receive(on: RunLoop.main).sink { received.append($0) }
        model.status = "loading"
        model.status = "loading"
        model.status = "done"
        await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        #expect(received.all == ["idle", "loading", "done"])
        cancellable.cancel()
        model.events.send("ignored")
    }
}
