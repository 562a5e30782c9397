import Dispatch

/// A property SwiftUI keeps up to date before it renders a view (`DynamicProperty`).
public protocol DynamicProperty {}

/// What the renderer links each dynamic property to: its storage in the hosting controller,
/// kept by the view's place in the tree, and the environment.
@MainActor
protocol LinkedProperty {
    func link(to host: HostingState, key: String, environment: EnvironmentValues)
}

/// Storage a `@State` or `@StateObject` keeps across renders.
final class StateSlot: @unchecked Sendable {
    // @unchecked: read and written on the main thread, as SwiftUI's state is.
    var value: Any
    let changed: @Sendable () -> Void

    init(value: Any, changed: @escaping @Sendable () -> Void) {
        self.value = value
        self.changed = changed
    }
}

/// A state property's link to its slot; each copy of the view shares it.
final class SlotReference<Value>: @unchecked Sendable {
    // @unchecked: set on the main thread while rendering.
    var initial: Value
    var slot: StateSlot?

    init(_ initial: Value) {
        self.initial = initial
    }

    var value: Value {
        get { (slot?.value as? Value) ?? initial }
        set {
            guard let slot else {
                initial = newValue
                return
            }
            slot.value = newValue
            slot.changed()
        }
    }
}

/// A value a view owns (`@State`): kept across renders; setting it renders the next form.
@propertyWrapper
public struct State<Value>: DynamicProperty, LinkedProperty {
    let reference: SlotReference<Value>

    public init(wrappedValue value: Value) {
        reference = SlotReference(value)
    }

    public init(initialValue value: Value) {
        reference = SlotReference(value)
    }

    public var wrappedValue: Value {
        get { reference.value }
        nonmutating set { reference.value = newValue }
    }

    /// A binding to the value (`$name`).
    public var projectedValue: Binding<Value> {
        let reference = reference
        return Binding(get: { reference.value }, set: { reference.value = $0 })
    }

    func link(to host: HostingState, key: String, environment: EnvironmentValues) {
        reference.slot = host.slot(for: key) { reference.initial }
    }
}

extension State where Value: ExpressibleByNilLiteral {
    public init() { self.init(wrappedValue: nil) }
}

/// A reference to a value owned elsewhere (`@Binding`).
@propertyWrapper
@dynamicMemberLookup
public struct Binding<Value>: DynamicProperty {
    private let get: () -> Value
    private let set: (Value) -> Void

    /// A binding that reads with `get` and writes with `set`.
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
    }

    /// A binding to a value that never changes.
    public static func constant(_ value: Value) -> Binding<Value> {
        Binding(get: { value }, set: { _ in })
    }

    public init(projectedValue: Binding<Value>) {
        self = projectedValue
    }

    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }

    public var projectedValue: Binding<Value> { self }

    /// A binding to a property of the value.
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        Binding<Subject>(get: { self.wrappedValue[keyPath: keyPath] },
                         set: { var value = self.wrappedValue; value[keyPath: keyPath] = $0; self.wrappedValue = value })
    }
}

/// An observable object a view creates and owns (`@StateObject`): made once, kept across renders;
/// its `objectWillChange` renders the next form.
@propertyWrapper
public struct StateObject<ObjectType: ObservableObject>: DynamicProperty, LinkedProperty
where ObjectType.ObjectWillChangePublisher == ObservableObjectPublisher {
    let make: () -> ObjectType
    let reference: SlotReference<ObjectType?>

    public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) {
        make = thunk
        reference = SlotReference(nil)
    }

    public var wrappedValue: ObjectType {
        if let object = reference.value { return object }
        let object = make()
        reference.initial = object
        return object
    }

    public var projectedValue: ObservedObject<ObjectType>.Wrapper { ObservedObject.Wrapper(object: wrappedValue) }

    func link(to host: HostingState, key: String, environment: EnvironmentValues) {
        let make = make
        let slot = host.slot(for: key) { Optional(make()) as Any }
        reference.slot = slot
        if let object = slot.value as? ObjectType { host.observe(object, key: key) }
    }
}

/// An observable object a view is given (`@ObservedObject`): its `objectWillChange` renders
/// the next form.
@propertyWrapper
public struct ObservedObject<ObjectType: ObservableObject>: DynamicProperty, LinkedProperty
where ObjectType.ObjectWillChangePublisher == ObservableObjectPublisher {
    public let wrappedValue: ObjectType

    public init(wrappedValue: ObjectType) {
        self.wrappedValue = wrappedValue
    }

    public init(initialValue: ObjectType) {
        wrappedValue = initialValue
    }

    /// Bindings to the object's properties (`$model.name`).
    @dynamicMemberLookup
    public struct Wrapper {
        let object: ObjectType

        public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>) -> Binding<Subject> {
            let object = object
            return Binding(get: { object[keyPath: keyPath] }, set: { object[keyPath: keyPath] = $0 })
        }
    }

    public var projectedValue: Wrapper { Wrapper(object: wrappedValue) }

    func link(to host: HostingState, key: String, environment: EnvironmentValues) {
        host.observe(wrappedValue, key: key)
    }
}

/// An observable object an ancestor put in the environment with `.environmentObject(_:)`
/// (`@EnvironmentObject`).
@propertyWrapper
public struct EnvironmentObject<ObjectType: ObservableObject>: DynamicProperty, LinkedProperty
where ObjectType.ObjectWillChangePublisher == ObservableObjectPublisher {
    let reference = SlotReference<ObjectType?>(nil)

    public init() {}

    public var wrappedValue: ObjectType {
        guard let object = reference.value else {
            fatalError("No ObservableObject of type \(ObjectType.self) found: a View.environmentObject(_:) for it is missing")
        }
        return object
    }

    public var projectedValue: ObservedObject<ObjectType>.Wrapper { ObservedObject.Wrapper(object: wrappedValue) }

    func link(to host: HostingState, key: String, environment: EnvironmentValues) {
        guard let object = environment.objects[ObjectIdentifier(ObjectType.self)] as? ObjectType else { return }
        reference.initial = object
        host.observe(object, key: key)
    }
}
