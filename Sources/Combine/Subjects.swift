import Synchronization

/// A publisher the code sends values into (`Subject`).
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Delivers `value` to every subscriber.
    func send(_ value: Output)
    /// Ends the subject: every subscriber receives `completion`, and nothing is sent after it.
    func send(completion: Subscribers.Completion<Failure>)
}

extension Subject where Output == Void {
    /// Delivers `()` to every subscriber.
    public func send() { send(()) }
}

/// Delivers each value sent to the subscribers of the moment (`PassthroughSubject`); a
/// subscriber that comes later receives only later values, and a completed subject delivers
/// its completion at once.
public final class PassthroughSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    // @unchecked: the subscribers and the completion are behind locks.
    private let subscribers = SubscriberList<PublisherEvent<Output, Failure>>()
    private let lock = Mutex(())
    private var completion: Subscribers.Completion<Failure>?

    public init() {}

    public func send(_ value: Output) {
        guard !isCompleted else { return }
        subscribers.send(.value(value))
    }

    public func send(completion: Subscribers.Completion<Failure>) {
        guard setCompletion(completion) else { return }
        subscribers.send(.completion(completion))
    }

    public func subscribeEvents(_ receive: @escaping (PublisherEvent<Output, Failure>) -> Void) -> AnyCancellable {
        if let finished = lock.withLock({ _ in completion }) {
            receive(.completion(finished))
            return AnyCancellable {}
        }
        return subscribers.subscribe(receive)
    }

    private var isCompleted: Bool { lock.withLock { _ in completion != nil } }

    private func setCompletion(_ new: Subscribers.Completion<Failure>) -> Bool {
        lock.withLock { _ in
            guard completion == nil else { return false }
            completion = new
            return true
        }
    }
}

/// A value that publishes each change (`CurrentValueSubject`): a subscriber receives the current
/// value at once, then every value sent.
public final class CurrentValueSubject<Output, Failure: Error>: Subject, @unchecked Sendable {
    // @unchecked: the value is behind `lock`; the subject does the rest.
    private let lock = Mutex(())
    private var current: Output
    private let subject = PassthroughSubject<Output, Failure>()

    /// A subject holding `value`.
    public init(_ value: Output) {
        current = value
    }

    /// The current value; setting it sends it.
    public var value: Output {
        get { lock.withLock { _ in current } }
        set { send(newValue) }
    }

    public func send(_ value: Output) {
        lock.withLock { _ in current = value }
        subject.send(value)
    }

    public func send(completion: Subscribers.Completion<Failure>) {
        subject.send(completion: completion)
    }

    public func subscribeEvents(_ receive: @escaping (PublisherEvent<Output, Failure>) -> Void) -> AnyCancellable {
        receive(.value(value))
        return subject.subscribeEvents(receive)
    }
}
