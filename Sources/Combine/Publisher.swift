import Synchronization

/// How a publisher finished (`Subscribers.Completion`), and the namespace of subscribers.
public enum Subscribers {
    /// A publisher's end: finished, or failed with an error.
    public enum Completion<Failure: Error> {
        case finished
        case failure(Failure)
    }
}

/// What a publisher delivers to one subscriber: a value, or its completion.
public enum PublisherEvent<Output, Failure: Error> {
    case value(Output)
    case completion(Subscribers.Completion<Failure>)
}

/// Values over time (`Publisher`): subjects, `@Published` properties and the operators on them.
///
/// Combine's subscriber and demand protocols are not here: a subscription receives every value
/// (unlimited demand, which is what `sink` and `assign` ask for), delivered through
/// ``subscribeEvents(_:)``. Publishers of the issuer's own that implement
/// `receive(subscriber:)` do not compile (docs/SDK.md).
public protocol Publisher<Output, Failure> {
    /// The values published.
    associatedtype Output
    /// The error a failed publisher ends with.
    associatedtype Failure: Error
    /// Delivers this publisher's events to `receive` until the returned cancellable is
    /// cancelled or released; after that nothing more is delivered.
    func subscribeEvents(_ receive: @escaping (PublisherEvent<Output, Failure>) -> Void) -> AnyCancellable
}

extension Publisher {
    /// Calls `receiveValue` with each value and `receiveCompletion` at the end, until the
    /// returned cancellable is cancelled or released.
    public func sink(receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
                     receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        subscribeEvents { event in
            switch event {
            case .value(let value): receiveValue(value)
            case .completion(let completion): receiveCompletion(completion)
            }
        }
    }

    /// Publishes `transform` of each value.
    public func map<T>(_ transform: @escaping (Output) -> T) -> AnyPublisher<T, Failure> {
        AnyPublisher { receive in
            self.subscribeEvents { event in
                switch event {
                case .value(let value): receive(.value(transform(value)))
                case .completion(let completion): receive(.completion(completion))
                }
            }
        }
    }

    /// Publishes the values `isIncluded` accepts.
    public func filter(_ isIncluded: @escaping (Output) -> Bool) -> AnyPublisher<Output, Failure> {
        AnyPublisher { receive in
            self.subscribeEvents { event in
                if case .value(let value) = event, !isIncluded(value) { return }
                receive(event)
            }
        }
    }

    /// The publisher with its type erased (`AnyPublisher`).
    public func eraseToAnyPublisher() -> AnyPublisher<Output, Failure> {
        AnyPublisher { receive in self.subscribeEvents(receive) }
    }
}

extension Publisher where Output: Equatable {
    /// Leaves out a value equal to the one before it.
    public func removeDuplicates() -> AnyPublisher<Output, Failure> {
        AnyPublisher { receive in
            let last = LastValue<Output>()
            return self.subscribeEvents { event in
                if case .value(let value) = event, !last.replace(with: value) { return }
                receive(event)
            }
        }
    }
}

extension Publisher where Failure == Never {
    /// Calls `receiveValue` with each value until the returned cancellable is cancelled or released.
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }

    /// Sets `object`'s property at `keyPath` to each value.
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
        sink { object[keyPath: keyPath] = $0 }
    }
}

/// A publisher with its type erased (`AnyPublisher`).
public struct AnyPublisher<Output, Failure: Error>: Publisher {
    private let subscribe: (@escaping (PublisherEvent<Output, Failure>) -> Void) -> AnyCancellable

    /// A publisher that delivers what `subscribe` delivers.
    init(_ subscribe: @escaping (@escaping (PublisherEvent<Output, Failure>) -> Void) -> AnyCancellable) {
        self.subscribe = subscribe
    }

    /// The publisher `publisher`, its type erased.
    public init<P: Publisher>(_ publisher: P) where P.Output == Output, P.Failure == Failure {
        subscribe = { publisher.subscribeEvents($0) }
    }

    public func subscribeEvents(_ receive: @escaping (PublisherEvent<Output, Failure>) -> Void) -> AnyCancellable {
        subscribe(receive)
    }
}

/// The previous value of a `removeDuplicates` subscription.
private final class LastValue<Value: Equatable>: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = Mutex(())
    private var value: Value?

    /// Stores `new`; false when it equals the value before.
    func replace(with new: Value) -> Bool {
        lock.withLock { _ in
            defer { value = new }
            return value != new
        }
    }
}
