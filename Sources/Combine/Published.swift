/// A property that announces its changes (`@Published`): in an ``ObservableObject`` it makes
/// the object's `objectWillChange` send before each new value, and `$property` publishes the
/// new values.
@propertyWrapper
public struct Published<Value> {
    private var value: Value
    private let subscribers = SubscriberList<Value>()

    /// A property starting at `initialValue`.
    public init(initialValue: Value) {
        value = initialValue
    }

    /// A property starting at `wrappedValue`.
    public init(wrappedValue: Value) {
        value = wrappedValue
    }

    /// Only on class properties, as with Combine: the value is reached through the object.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("@Published is only available on properties of classes") }
        set { fatalError("@Published is only available on properties of classes") }
    }

    /// The values the property takes from now on (`$property`).
    public var projectedValue: Publisher {
        Publisher(subscribers: subscribers, current: value)
    }

    /// The publisher of a `@Published` property (`Published.Publisher`).
    public struct Publisher {
        public typealias Output = Value
        public typealias Failure = Never
        fileprivate let subscribers: SubscriberList<Value>
        fileprivate let current: Value

        /// Calls `receiveValue` with the current value, then with each new one.
        public func sink(receiveValue: @escaping (Value) -> Void) -> AnyCancellable {
            receiveValue(current)
            return subscribers.subscribe(receiveValue)
        }
    }

    /// The value of the property of `object` at `storageKeyPath`; setting it announces the change.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { object[keyPath: storageKeyPath].value }
        set {
            if let observable = object as? any ObservableObject { announceChange(of: observable) }
            object[keyPath: storageKeyPath].value = newValue
            object[keyPath: storageKeyPath].subscribers.send(newValue)
        }
    }
}

/// Sends `object`'s `objectWillChange` when it is an ``ObservableObjectPublisher``.
private func announceChange<Object: ObservableObject>(of object: Object) {
    (object.objectWillChange as? ObservableObjectPublisher)?.send()
}

extension Published.Publisher: Combine.Publisher {
    /// Delivers the current value, then each new one (`$property.receive(on:)`, `.map`, ...).
    public func subscribeEvents(_ receive: @escaping (PublisherEvent<Value, Never>) -> Void) -> AnyCancellable {
        receive(.value(current))
        return subscribers.subscribe { receive(.value($0)) }
    }
}
