import Synchronization

/// A type that cancels a subscription (`Cancellable`).
public protocol Cancellable {
    /// Stops the subscription.
    func cancel()
}

/// A subscription that cancels itself when released (`AnyCancellable`).
public final class AnyCancellable: Cancellable, Hashable, Sendable {
    private let cancelAction: Mutex<(@Sendable () -> Void)?>

    /// A cancellable that runs `cancel` once, when cancelled or released.
    public init(_ cancel: @escaping @Sendable () -> Void) {
        cancelAction = Mutex(cancel)
    }

    deinit { cancel() }

    public func cancel() {
        let action = cancelAction.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    /// Keeps the subscription alive as long as `set` holds it.
    public func store(in set: inout Set<AnyCancellable>) {
        set.insert(self)
    }

    /// Keeps the subscription alive as long as `collection` holds it.
    public func store<C: RangeReplaceableCollection>(in collection: inout C) where C.Element == AnyCancellable {
        collection.append(self)
    }

    public static func == (lhs: AnyCancellable, rhs: AnyCancellable) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// Subscribers by token, called in the order they subscribed; the publishers below share it.
final class SubscriberList<Output>: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private let lock = Mutex(())
    private var subscribers: [(token: Int, receive: (Output) -> Void)] = []
    private var nextToken = 0

    func subscribe(_ receive: @escaping (Output) -> Void) -> AnyCancellable {
        let token = lock.withLock { _ in
            nextToken += 1
            subscribers.append((nextToken, receive))
            return nextToken
        }
        let unsubscribe = UncheckedBox(self)
        return AnyCancellable { unsubscribe.value.remove(token) }
    }

    func send(_ value: Output) {
        let current = lock.withLock { _ in subscribers.map(\.receive) }
        for receive in current { receive(value) }
    }

    private func remove(_ token: Int) {
        lock.withLock { _ in subscribers.removeAll { $0.token == token } }
    }
}

/// A reference carried across a `@Sendable` boundary; the list it holds is thread-safe.
private struct UncheckedBox<Value: AnyObject>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// The publisher of an ``ObservableObject``'s changes (`ObservableObjectPublisher`): it sends
/// before any `@Published` property changes.
public final class ObservableObjectPublisher: Sendable {
    public typealias Output = Void
    public typealias Failure = Never

    private let subscribers = SubscriberList<Void>()

    /// A publisher with no subscribers.
    public init() {}

    /// Tells every subscriber that the object is about to change.
    public func send() {
        subscribers.send(())
    }

    /// Calls `receiveValue` before each change, until the returned cancellable is released.
    public func sink(receiveValue: @escaping () -> Void) -> AnyCancellable {
        subscribers.subscribe { receiveValue() }
    }
}

/// An object whose changes can be observed (`ObservableObject`): SwiftUI renders again when
/// ``objectWillChange`` sends, which every `@Published` property does before it changes.
public protocol ObservableObject: AnyObject {
    /// The publisher's type; ``ObservableObjectPublisher`` unless the type declares its own.
    associatedtype ObjectWillChangePublisher = ObservableObjectPublisher
    /// Sends before the object changes.
    var objectWillChange: ObjectWillChangePublisher { get }
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// One publisher per object, made on first use.
    public var objectWillChange: ObservableObjectPublisher {
        ObjectWillChangePublishers.publisher(for: self)
    }
}

/// The publishers of objects that use the default ``ObservableObject/objectWillChange``, kept
/// beside each object while it lives (Swift on Linux has no associated objects).
final class ObjectWillChangePublishers: @unchecked Sendable {
    // @unchecked: every access goes through `lock`.
    private struct Entry {
        weak var object: AnyObject?
        let publisher: ObservableObjectPublisher
    }

    private static let shared = ObjectWillChangePublishers()
    private let lock = Mutex(())
    private var table: [ObjectIdentifier: Entry] = [:]

    static func publisher(for object: AnyObject) -> ObservableObjectPublisher {
        shared.publisher(for: object)
    }

    private func publisher(for object: AnyObject) -> ObservableObjectPublisher {
        lock.withLock { _ in
            let key = ObjectIdentifier(object)
            if let entry = table[key], entry.object === object { return entry.publisher }
            // A released object's identifier can be reused: drop what the dead left behind.
            if table.count > 64 { table = table.filter { $0.value.object != nil } }
            let entry = Entry(object: object, publisher: ObservableObjectPublisher())
            table[key] = entry
            return entry.publisher
        }
    }
}
