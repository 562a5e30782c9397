/// A key of a custom environment value (`EnvironmentKey`).
public protocol EnvironmentKey {
    associatedtype Value
    static var defaultValue: Value { get }
}

/// Values a view's ancestors set for it (`EnvironmentValues`).
public struct EnvironmentValues: @unchecked Sendable {
    // @unchecked: used on the main thread while rendering.
    private var custom: [ObjectIdentifier: Any] = [:]
    var objects: [ObjectIdentifier: AnyObject] = [:]

    public init() {}

    /// Closes the presented screen (`@Environment(\.dismiss)`).
    public var dismiss = DismissAction(action: {})
    /// Light or dark: light, as the simulated iPhone.
    public var colorScheme = ColorScheme.light
    /// False inside `.disabled(true)`.
    public var isEnabled = true
    /// The locale.
    public var locale = Locale.current

    public subscript<Key: EnvironmentKey>(key: Key.Type) -> Key.Value {
        get { (custom[ObjectIdentifier(key)] as? Key.Value) ?? Key.defaultValue }
        set { custom[ObjectIdentifier(key)] = newValue }
    }
}

/// Light or dark (`ColorScheme`).
public enum ColorScheme: Sendable, Hashable { case light, dark }

/// What `@Environment(\.dismiss)` gives (`DismissAction`): calling it dismisses the screen.
public struct DismissAction: @unchecked Sendable {
    // @unchecked: called on the main thread.
    let action: () -> Void
    public func callAsFunction() { action() }
}

/// A value from the environment (`@Environment(\.dismiss)`).
@propertyWrapper
public struct Environment<Value>: DynamicProperty, LinkedProperty {
    let keyPath: KeyPath<EnvironmentValues, Value>
    let reference = SlotReference<EnvironmentValues>(EnvironmentValues())

    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {
        self.keyPath = keyPath
    }

    public var wrappedValue: Value { reference.value[keyPath: keyPath] }

    func link(to host: HostingState, key: String, environment: EnvironmentValues) {
        reference.initial = environment
    }
}
