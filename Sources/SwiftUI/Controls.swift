/// A key of localized text (`LocalizedStringKey`): the text itself here.
public struct LocalizedStringKey: ExpressibleByStringInterpolation, Hashable, Sendable {
    let text: String
    public init(_ value: String) { text = value }
    public init(stringLiteral value: String) { text = value }
}

/// Text (`Text`): a label, a line of the form's message; drawn in its font (body, 17 pt, unless
/// set) and colour, wrapped at the width it is offered.
public struct Text: View, PrimitiveView {
    public typealias Body = Never
    let content: String
    private var font: Font?
    private var weight: Font.Weight?
    private var color: Color?

    public init(_ key: LocalizedStringKey) { content = key.text }
    public init<S: StringProtocol>(_ content: S) { self.content = String(content) }
    public init(verbatim content: String) { self.content = content }

    func render(into renderer: inout Renderer) {
        let label = UILabel()
        label.text = content
        var font = self.font ?? renderer.environment.font ?? .body
        if let weight { font = font.weight(weight) }
        label.font = font.uiFont
        label.textColor = (color ?? renderer.environment.foregroundColor)?.uiColor ?? .label
        label.numberOfLines = renderer.environment.lineLimit ?? 0
        switch renderer.environment.multilineTextAlignment {
        case .leading: label.textAlignment = .natural
        case .center: label.textAlignment = .center
        case .trailing: label.textAlignment = .right
        }
        renderer.add(label)
    }

    // Text's own modifiers return Text, as in SwiftUI.
    public func bold() -> Text { fontWeight(.bold) }
    public func italic() -> Text { self }
    public func font(_ font: Font?) -> Text {
        var text = self
        text.font = font
        return text
    }
    public func fontWeight(_ weight: Font.Weight?) -> Text {
        var text = self
        text.weight = weight
        return text
    }
    public func foregroundColor(_ color: Color?) -> Text {
        var text = self
        text.color = color
        return text
    }
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
        field.font = (renderer.environment.font ?? .body).uiFont
        field.textColor = renderer.environment.foregroundColor?.uiColor
        if renderer.environment.hasRoundedBorderFields { field.borderStyle = .roundedRect }
        let binding = text
        field.addAction(UIAction { [weak field] _ in binding.wrappedValue = field?.text ?? "" }, for: .editingChanged)
        field.returnKeyType = renderer.environment.returnKeyType
        let submitActions = renderer.environment.submitActions
        if !submitActions.isEmpty {
            // The field's own onSubmit first, then the ones around it.
            field.addAction(UIAction { _ in for action in submitActions.reversed() { action() } }, for: .primaryActionTriggered)
        }
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
        let button = SwiftUIButton(type: .system)
        let labelViews = renderer.labelViews(of: label)
        button.style(as: renderer.environment, labelViews: labelViews)
        if labelViews.count == 1, labelViews[0] is LayoutView { button.labelLayout = labelViews[0] }
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
        toggle.onTintColor = renderer.environment.tint?.uiColor
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

/// An image (`Image`): drawn at its size (resizable: the size offered), not part of the form.
public struct Image: View, PrimitiveView {
    public typealias Body = Never
    let image: UIImage?
    private var isResizable = false

    public init(_ name: String) { image = UIImage(named: name) }
    public init(_ name: String, bundle: Bundle?) { image = UIImage(named: name, in: bundle, compatibleWith: nil) }
    public init(systemName: String) { image = UIImage(systemName: systemName) }
    public init(uiImage: UIImage) { image = uiImage }
    public init(decorative name: String) { image = UIImage(named: name) }

    public func resizable() -> Image {
        var resizable = self
        resizable.isResizable = true
        return resizable
    }
    public func resizable(capInsets: EdgeInsets = EdgeInsets(), resizingMode: ResizingMode = .stretch) -> Image { resizable() }

    /// How a resizable image fills (`Image.ResizingMode`).
    public enum ResizingMode: Sendable { case tile, stretch }
    public func renderingMode(_ mode: TemplateRenderingMode?) -> Image { self }

    /// How an image is tinted (`Image.TemplateRenderingMode`).
    public enum TemplateRenderingMode: Sendable { case template, original }

    func render(into renderer: inout Renderer) {
        let view = SwiftUIImageView(image: image)
        let textSize = (renderer.environment.font ?? .body).size * 1.2
        let scale: CGFloat = renderer.environment.imageScale == .large ? 1.3 : renderer.environment.imageScale == .small ? 0.8 : 1
        view.style = ImageStyle(isResizable: isResizable, aspect: renderer.environment.imageContentMode, symbolSide: textSize * scale)
        view.tintColor = (renderer.environment.foregroundColor ?? renderer.environment.tint)?.uiColor ?? .systemBlue
        renderer.add(view)
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
    let icon: Icon

    public init(@ViewBuilder title: () -> Title, @ViewBuilder icon: () -> Icon) {
        self.title = title()
        self.icon = icon()
    }

    func render(into renderer: inout Renderer) {
        let row = StackLayoutView(axis: .horizontal, spacing: nil, alignment: (0.5, 0.5))
        renderer.renderChildren(icon, as: "icon").forEach(row.addSubview)
        renderer.renderChildren(title, as: "title").forEach(row.addSubview)
        renderer.add(row)
    }
}

extension Label where Title == Text, Icon == Image {
    public init(_ titleKey: LocalizedStringKey, systemImage name: String) {
        title = Text(titleKey)
        icon = Image(systemName: name)
    }
    public init<S: StringProtocol>(_ title: S, systemImage name: String) {
        self.title = Text(title)
        icon = Image(systemName: name)
    }
}

/// Space between views (`Spacer`): grows along its stack's axis; nothing on the form.
public struct Spacer: View, PrimitiveView {
    public typealias Body = Never
    let minLength: CGFloat?
    public init(minLength: CGFloat? = nil) { self.minLength = minLength }
    func render(into renderer: inout Renderer) { renderer.add(SpacerView(minLength: minLength)) }
}

/// A line between views (`Divider`): a 1 pixel (1/3 pt) separator across its stack; nothing on the form.
public struct Divider: View, PrimitiveView {
    public typealias Body = Never
    public init() {}
    func render(into renderer: inout Renderer) {
        let line = FrameLayoutView(wrapping: FillView(), width: .init(), height: .init(fixed: 1.0 / 3), alignment: .center)
        line.content?.backgroundColor = .separator
        renderer.add(line)
    }
}

