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
    /// The font of the text inside (`.font`); body when nil.
    public var font: Font?
    /// The colour of the text and symbols inside (`.foregroundColor`, `.foregroundStyle`).
    var foregroundColor: Color?
    /// The tint of the controls inside (`.tint`, `.accentColor`).
    var tint: Color?
    /// How multi-line text lines up (`.multilineTextAlignment`).
    public var multilineTextAlignment = TextAlignment.leading
    /// The most lines text takes (`.lineLimit`); nil for no limit.
    public var lineLimit: Int?
    /// True inside `.textFieldStyle(.roundedBorder)`.
    var hasRoundedBorderFields = false
    /// The return key of the text fields inside (`.submitLabel`).
    var returnKeyType = UIReturnKeyType.default
    /// What the return key of a text field inside runs (`.onSubmit`), outermost first.
    var submitActions: [() -> Void] = []
    /// The look of the buttons inside (`.buttonStyle`): `.borderedProminent` fills with the tint.
    var buttonLook: UIButton.Configuration.Look?
    /// The symbols' scale (`.imageScale`).
    var imageScale = Image.Scale.medium
    /// How resizable images fit (`.scaledToFit`, `.aspectRatio(contentMode:)`).
    var imageContentMode: ContentMode?
    /// What fills the shapes inside (`.fill`); the foreground colour when nil.
    var shapeFill: Color?
    /// The gradient a shape inside is filled with (`.fill(LinearGradient(...))`).
    var shapeGradient: LinearGradient?
    /// The outline of the shapes inside (`.stroke`).
    var shapeStroke: (color: Color, width: CGFloat)?

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
