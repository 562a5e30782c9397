/// A key of localized text (`LocalizedStringKey`): the text itself here.
public struct LocalizedStringKey: ExpressibleByStringInterpolation, Hashable, Sendable {
    let text: String
    public init(_ value: String) { text = value }
    public init(stringLiteral value: String) { text = value }
}

/// Text (`Text`): a label, a line of the form's message.
public struct Text: View, PrimitiveView {
    public typealias Body = Never
    let content: String

    public init(_ key: LocalizedStringKey) { content = key.text }
    public init<S: StringProtocol>(_ content: S) { self.content = String(content) }
    public init(verbatim content: String) { self.content = content }

    func render(into renderer: inout Renderer) {
        let label = UILabel()
        label.text = content
        renderer.add(label)
    }

    // Text's own modifiers return Text, as in SwiftUI.
    public func bold() -> Text { self }
    public func italic() -> Text { self }
    public func font(_ font: Font?) -> Text { self }
    public func fontWeight(_ weight: Font.Weight?) -> Text { self }
    public func foregroundColor(_ color: Color?) -> Text { self }
}

/// A one-line text field (`TextField`): a field named by its `.accessibilityIdentifier`, else
/// its title in lower case without spaces.
public struct TextField<Label: View>: View, PrimitiveView {
    public typealias Body = Never
    let title: String
    let text: Binding<String>
    let secure: Bool

    func render(into renderer: inout Renderer) {
        let field = UITextField()
        field.placeholder = title
        field.text = text.wrappedValue
        field.isSecureTextEntry = secure
        let binding = text
        field.addAction(UIAction { [weak field] _ in binding.wrappedValue = field?.text ?? "" }, for: .editingChanged)
        renderer.add(field)
    }
}

extension TextField where Label == Text {
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {
        self.init(title: titleKey.text, text: text, secure: false)
    }
    public init<S: StringProtocol>(_ title: S, text: Binding<String>) {
        self.init(title: String(title), text: text, secure: false)
    }
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>, prompt: Text?) {
        self.init(title: titleKey.text, text: text, secure: false)
    }
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>, onEditingChanged: @escaping (Bool) -> Void,
                onCommit: @escaping () -> Void = {}) {
        self.init(title: titleKey.text, text: text, secure: false)
    }
}

/// A password field (`SecureField`): a secure field of the form.
public struct SecureField<Label: View>: View, PrimitiveView {
    public typealias Body = Never
    let field: TextField<Label>
    func render(into renderer: inout Renderer) { field.render(into: &renderer) }
}

extension SecureField where Label == Text {
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {
        field = TextField(title: titleKey.text, text: text, secure: true)
    }
    public init<S: StringProtocol>(_ title: S, text: Binding<String>) {
        field = TextField(title: String(title), text: text, secure: true)
    }
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>, prompt: Text?) {
        field = TextField(title: titleKey.text, text: text, secure: true)
    }
}

/// A button's role (`ButtonRole`).
public struct ButtonRole: Hashable, Sendable {
    let name: String
    public static let cancel = ButtonRole(name: "cancel")
    public static let destructive = ButtonRole(name: "destructive")
}

/// A button (`Button`): an action of the form by its title; choosing it runs `action`.
public struct Button<Label: View>: View, PrimitiveView {
    public typealias Body = Never
    let label: Label
    let action: () -> Void

    public init(action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
        self.label = label()
        self.action = action
    }

    public init(role: ButtonRole?, action: @escaping () -> Void, @ViewBuilder label: () -> Label) {
        self.init(action: action, label: label)
    }

    func render(into renderer: inout Renderer) {
        let button = UIButton(type: .system)
        button.setTitle(renderer.text(of: label) ?? "Button", for: .normal)
        button.isEnabled = renderer.environment.isEnabled
        let action = action
        button.addAction(UIAction { _ in action() }, for: .primaryActionTriggered)
        renderer.add(button)
    }
}

extension Button where Label == Text {
    public init(_ titleKey: LocalizedStringKey, action: @escaping () -> Void) {
        self.init(action: action) { Text(titleKey) }
    }
    public init<S: StringProtocol>(_ title: S, action: @escaping () -> Void) {
        self.init(action: action) { Text(title) }
    }
    public init(_ titleKey: LocalizedStringKey, role: ButtonRole?, action: @escaping () -> Void) {
        self.init(action: action) { Text(titleKey) }
    }
}

/// An on/off switch (`Toggle`): a yes/no field of the form, named by its title.
public struct Toggle<Label: View>: View, PrimitiveView {
    public typealias Body = Never
    let isOn: Binding<Bool>
    let label: Label

    public init(isOn: Binding<Bool>, @ViewBuilder label: () -> Label) {
        self.isOn = isOn
        self.label = label()
    }

    func render(into renderer: inout Renderer) {
        let toggle = UISwitch()
        toggle.isOn = isOn.wrappedValue
        toggle.title = renderer.text(of: label)
        toggle.isEnabled = renderer.environment.isEnabled
        let binding = isOn
        toggle.addAction(UIAction { [weak toggle] _ in binding.wrappedValue = toggle?.isOn ?? false }, for: .valueChanged)
        renderer.add(toggle)
    }
}

extension Toggle where Label == Text {
    public init(_ titleKey: LocalizedStringKey, isOn: Binding<Bool>) {
        self.init(isOn: isOn) { Text(titleKey) }
    }
    public init<S: StringProtocol>(_ title: S, isOn: Binding<Bool>) {
        self.init(isOn: isOn) { Text(title) }
    }
}

/// An image (`Image`): kept, not part of the form.
public struct Image: View, PrimitiveView {
    public typealias Body = Never
    let image: UIImage?

    public init(_ name: String) { image = UIImage(named: name) }
    public init(_ name: String, bundle: Bundle?) { image = UIImage(named: name, in: bundle, compatibleWith: nil) }
    public init(systemName: String) { image = UIImage(systemName: systemName) }
    public init(uiImage: UIImage) { image = uiImage }
    public init(decorative name: String) { image = UIImage(named: name) }

    public func resizable() -> Image { self }
    public func renderingMode(_ mode: TemplateRenderingMode?) -> Image { self }

    /// How an image is tinted (`Image.TemplateRenderingMode`).
    public enum TemplateRenderingMode: Sendable { case template, original }

    func render(into renderer: inout Renderer) {
        renderer.add(UIImageView(image: image))
    }
}

/// A spinner (`ProgressView`): while one is shown the screen is busy and is not sent.
public struct ProgressView<Label: View>: View, PrimitiveView {
    public typealias Body = Never
    let label: Label?

    func render(into renderer: inout Renderer) {
        if let label { renderer.render(label, as: "label") }
        let spinner = UIActivityIndicatorView(style: .medium)
        spinner.startAnimating()
        renderer.add(spinner)
    }
}

extension ProgressView where Label == EmptyView {
    public init() { label = nil }
}

extension ProgressView where Label == Text {
    public init(_ titleKey: LocalizedStringKey) { label = Text(titleKey) }
    public init<S: StringProtocol>(_ title: S) { label = Text(title) }
}

/// A label with an icon (`Label`): its title is text of the form.
public struct Label<Title: View, Icon: View>: View, PrimitiveView {
    public typealias Body = Never
    let title: Title

    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) { self.title = title() }
    func render(into renderer: inout Renderer) { renderer.render(title, as: "title") }
}

extension Label where Title == Text, Icon == Image {
    public init(_ titleKey: LocalizedStringKey, systemImage name: String) {
        title = Text(titleKey)
    }
    public init<S: StringProtocol>(_ title: S, systemImage name: String) {
        self.title = Text(title)
    }
}

/// Space between views (`Spacer`): nothing on the form.
public struct Spacer: View, PrimitiveView {
    public typealias Body = Never
    public init(minLength: CGFloat? = nil) {}
    func render(into renderer: inout Renderer) {}
}

/// A line between views (`Divider`): nothing on the form.
public struct Divider: View, PrimitiveView {
    public typealias Body = Never
    public init() {}
    func render(into renderer: inout Renderer) {}
}

/// A color (`Color`); as a view, nothing on the form.
public struct Color: View, PrimitiveView, Hashable, Sendable {
    public typealias Body = Never
    let name: String
    public init(_ name: String) { self.name = name }
    public init(_ color: UIColor) { name = "\(color.red),\(color.green),\(color.blue),\(color.alpha)" }
    public init(red: Double, green: Double, blue: Double, opacity: Double = 1) { name = "\(red),\(green),\(blue),\(opacity)" }
    public static let accentColor = Color("accent"), primary = Color("primary"), secondary = Color("secondary")
    public static let red = Color("red"), green = Color("green"), blue = Color("blue"), orange = Color("orange")
    public static let yellow = Color("yellow"), gray = Color("gray"), white = Color("white"), black = Color("black")
    public static let clear = Color("clear"), indigo = Color("indigo"), purple = Color("purple"), pink = Color("pink")
    public func opacity(_ opacity: Double) -> Color { self }
    func render(into renderer: inout Renderer) {}
}

/// A font (`Font`), kept.
public struct Font: Hashable, Sendable {
    let name: String
    /// A weight (`Font.Weight`).
    public struct Weight: Hashable, Sendable {
        let value: Double
        public static let regular = Weight(value: 0), medium = Weight(value: 0.23), semibold = Weight(value: 0.3)
        public static let bold = Weight(value: 0.4), heavy = Weight(value: 0.56), light = Weight(value: -0.4)
    }
    public static let largeTitle = Font(name: "largeTitle"), title = Font(name: "title"), title2 = Font(name: "title2")
    public static let title3 = Font(name: "title3"), headline = Font(name: "headline"), subheadline = Font(name: "subheadline")
    public static let body = Font(name: "body"), callout = Font(name: "callout"), footnote = Font(name: "footnote")
    public static let caption = Font(name: "caption"), caption2 = Font(name: "caption2")
    public static func system(size: CGFloat, weight: Weight = .regular) -> Font { Font(name: "system \(size)") }
    public func bold() -> Font { self }
    public func weight(_ weight: Weight) -> Font { self }
}
