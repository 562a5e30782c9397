// The style protocols and the built-in styles (`.roundedBorder`, `.bordered`, `.borderedProminent`,
// `.insetGrouped`, `.switch`, ...), so that `.textFieldStyle(.roundedBorder)` and an issuer's own
// `ButtonStyle` compile. A style changes how a control looks, never what the form offers: the
// modifiers accept it and leave the view as it is.

/// How a text field looks (`TextFieldStyle`).
public protocol TextFieldStyle {}

/// A text field with a rounded border (`RoundedBorderTextFieldStyle`).
public struct RoundedBorderTextFieldStyle: TextFieldStyle, Sendable { public init() {} }
/// A text field without decoration (`PlainTextFieldStyle`).
public struct PlainTextFieldStyle: TextFieldStyle, Sendable { public init() {} }
/// The platform's text field (`DefaultTextFieldStyle`).
public struct DefaultTextFieldStyle: TextFieldStyle, Sendable { public init() {} }

extension TextFieldStyle where Self == RoundedBorderTextFieldStyle {
    /// A rounded border.
    public static var roundedBorder: RoundedBorderTextFieldStyle { RoundedBorderTextFieldStyle() }
}
extension TextFieldStyle where Self == PlainTextFieldStyle {
    /// No decoration.
    public static var plain: PlainTextFieldStyle { PlainTextFieldStyle() }
}
extension TextFieldStyle where Self == DefaultTextFieldStyle {
    /// The platform's.
    public static var automatic: DefaultTextFieldStyle { DefaultTextFieldStyle() }
}

/// What a ``ButtonStyle`` draws from (`ButtonStyleConfiguration`).
public struct ButtonStyleConfiguration {
    /// The button's label, as a view (`ButtonStyleConfiguration.Label`).
    public struct Label: View, PrimitiveView {
        public typealias Body = Never
        func render(into renderer: inout Renderer) {}
    }
    /// The button's label.
    public let label = Label()
    /// The button's role.
    public let role: ButtonRole? = nil
    /// True while the user presses the button: never here, the user agent taps at once.
    public let isPressed = false
}

/// A button's look, drawn around its label (`ButtonStyle`); an issuer's own styles compile.
@preconcurrency @MainActor
public protocol ButtonStyle {
    /// The view the style makes.
    associatedtype Body: View
    /// The button as the style shows it.
    @ViewBuilder func makeBody(configuration: Configuration) -> Body
    /// What the style draws from.
    typealias Configuration = ButtonStyleConfiguration
}

/// What a ``PrimitiveButtonStyle`` draws from (`PrimitiveButtonStyleConfiguration`).
public struct PrimitiveButtonStyleConfiguration {
    /// The button's label, as a view.
    public typealias Label = ButtonStyleConfiguration.Label
    /// The button's label.
    public let label = Label()
    /// The button's role.
    public let role: ButtonRole? = nil
    /// Runs the button's action (the user agent does, by the button's title).
    public func trigger() {}
}

/// A button's look and interaction (`PrimitiveButtonStyle`): the built-in styles.
@preconcurrency @MainActor
public protocol PrimitiveButtonStyle {
    /// The view the style makes.
    associatedtype Body: View
    /// The button as the style shows it.
    @ViewBuilder func makeBody(configuration: Configuration) -> Body
    /// What the style draws from.
    typealias Configuration = PrimitiveButtonStyleConfiguration
}

/// A bordered button (`BorderedButtonStyle`).
public struct BorderedButtonStyle: PrimitiveButtonStyle, Sendable {
    public init() {}
    public func makeBody(configuration: Configuration) -> Configuration.Label { configuration.label }
}
/// A filled, prominent button (`BorderedProminentButtonStyle`).
public struct BorderedProminentButtonStyle: PrimitiveButtonStyle, Sendable {
    public init() {}
    public func makeBody(configuration: Configuration) -> Configuration.Label { configuration.label }
}
/// A button without a border (`BorderlessButtonStyle`).
public struct BorderlessButtonStyle: PrimitiveButtonStyle, Sendable {
    public init() {}
    public func makeBody(configuration: Configuration) -> Configuration.Label { configuration.label }
}
/// A button shown as its label (`PlainButtonStyle`).
public struct PlainButtonStyle: PrimitiveButtonStyle, Sendable {
    public init() {}
    public func makeBody(configuration: Configuration) -> Configuration.Label { configuration.label }
}
/// The platform's button (`DefaultButtonStyle`).
public struct DefaultButtonStyle: PrimitiveButtonStyle, Sendable {
    public init() {}
    public func makeBody(configuration: Configuration) -> Configuration.Label { configuration.label }
}

extension PrimitiveButtonStyle where Self == BorderedButtonStyle {
    /// A border.
    public static var bordered: BorderedButtonStyle { BorderedButtonStyle() }
}
extension PrimitiveButtonStyle where Self == BorderedProminentButtonStyle {
    /// Filled and prominent.
    public static var borderedProminent: BorderedProminentButtonStyle { BorderedProminentButtonStyle() }
}
extension PrimitiveButtonStyle where Self == BorderlessButtonStyle {
    /// No border.
    public static var borderless: BorderlessButtonStyle { BorderlessButtonStyle() }
}
extension PrimitiveButtonStyle where Self == PlainButtonStyle {
    /// The label alone.
    public static var plain: PlainButtonStyle { PlainButtonStyle() }
}
extension PrimitiveButtonStyle where Self == DefaultButtonStyle {
    /// The platform's.
    public static var automatic: DefaultButtonStyle { DefaultButtonStyle() }
}

/// How a list looks (`ListStyle`).
public protocol ListStyle {}
/// Inset, grouped sections (`InsetGroupedListStyle`).
public struct InsetGroupedListStyle: ListStyle, Sendable { public init() {} }
/// Grouped sections (`GroupedListStyle`).
public struct GroupedListStyle: ListStyle, Sendable { public init() {} }
/// Inset rows (`InsetListStyle`).
public struct InsetListStyle: ListStyle, Sendable { public init() {} }
/// Plain rows (`PlainListStyle`).
public struct PlainListStyle: ListStyle, Sendable { public init() {} }
/// The platform's list (`DefaultListStyle`).
public struct DefaultListStyle: ListStyle, Sendable { public init() {} }

extension ListStyle where Self == InsetGroupedListStyle {
    public static var insetGrouped: InsetGroupedListStyle { InsetGroupedListStyle() }
}
extension ListStyle where Self == GroupedListStyle {
    public static var grouped: GroupedListStyle { GroupedListStyle() }
}
extension ListStyle where Self == InsetListStyle {
    public static var inset: InsetListStyle { InsetListStyle() }
}
extension ListStyle where Self == PlainListStyle {
    public static var plain: PlainListStyle { PlainListStyle() }
}
extension ListStyle where Self == DefaultListStyle {
    public static var automatic: DefaultListStyle { DefaultListStyle() }
}

/// What a ``ToggleStyle`` draws from (`ToggleStyleConfiguration`).
public struct ToggleStyleConfiguration {
    /// The toggle's label, as a view.
    public typealias Label = ButtonStyleConfiguration.Label
    /// The toggle's label.
    public let label = Label()
    /// The toggle's value.
    @Binding public var isOn: Bool
}

/// How a toggle looks (`ToggleStyle`); an issuer's own styles compile.
@preconcurrency @MainActor
public protocol ToggleStyle {
    /// The view the style makes.
    associatedtype Body: View
    /// The toggle as the style shows it.
    @ViewBuilder func makeBody(configuration: Configuration) -> Body
    /// What the style draws from.
    typealias Configuration = ToggleStyleConfiguration
}

/// A switch (`SwitchToggleStyle`).
public struct SwitchToggleStyle: ToggleStyle, Sendable {
    public init() {}
    public func makeBody(configuration: Configuration) -> Configuration.Label { configuration.label }
}
/// A button that stays pressed while on (`ButtonToggleStyle`).
public struct ButtonToggleStyle: ToggleStyle, Sendable {
    public init() {}
    public func makeBody(configuration: Configuration) -> Configuration.Label { configuration.label }
}
/// The platform's toggle (`DefaultToggleStyle`).
public struct DefaultToggleStyle: ToggleStyle, Sendable {
    public init() {}
    public func makeBody(configuration: Configuration) -> Configuration.Label { configuration.label }
}

extension ToggleStyle where Self == SwitchToggleStyle {
    public static var `switch`: SwitchToggleStyle { SwitchToggleStyle() }
}
extension ToggleStyle where Self == ButtonToggleStyle {
    public static var button: ButtonToggleStyle { ButtonToggleStyle() }
}
extension ToggleStyle where Self == DefaultToggleStyle {
    public static var automatic: DefaultToggleStyle { DefaultToggleStyle() }
}

extension View {
    /// Sets how the text fields inside look (`.roundedBorder` draws a border); the form is unchanged.
    public func textFieldStyle<S: TextFieldStyle>(_ style: S) -> ModifiedContent<Self, FormModifier> {
        withEnvironment { $0.hasRoundedBorderFields = style is RoundedBorderTextFieldStyle }
    }
    /// Sets how the buttons inside look (an issuer's own style is drawn as a plain button).
    public func buttonStyle<S: ButtonStyle>(_ style: S) -> Self { self }
    /// Sets how the buttons inside look: `.borderedProminent` filled with the tint, `.bordered`
    /// grey, the others plain; the form is unchanged.
    public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> ModifiedContent<Self, FormModifier> {
        withEnvironment {
            $0.buttonLook = style is BorderedProminentButtonStyle ? .filled : style is BorderedButtonStyle ? .gray : .plain
        }
    }
    /// Sets how the lists inside look; the form is unchanged.
    public func listStyle<S: ListStyle>(_ style: S) -> Self { self }
    /// Sets how the toggles inside look; the form is unchanged.
    public func toggleStyle<S: ToggleStyle>(_ style: S) -> Self { self }
}
