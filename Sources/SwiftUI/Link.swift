/// A link to a URL (`Link`): an action of the form named by its label; choosing it opens the URL
/// (``OpenURLAction``), which here writes the URL to the extension's log: there is no browser.
public struct Link<Label: View>: View, PrimitiveView {
    public typealias Body = Never
    let destination: URL
    let label: Label

    /// A link to `destination` shown as `label`.
    public init(destination: URL, @ViewBuilder label: () -> Label) {
        self.destination = destination
        self.label = label()
    }

    func render(into renderer: inout Renderer) {
        let button = UIButton(type: .system)
        button.setTitle(renderer.text(of: label) ?? destination.absoluteString, for: .normal)
        button.isEnabled = renderer.environment.isEnabled
        let destination = destination
        let openURL = renderer.environment.openURL
        button.addAction(UIAction { _ in openURL(destination) }, for: .primaryActionTriggered)
        renderer.add(button)
    }
}

extension Link where Label == Text {
    /// A link to `destination` titled `titleKey`.
    public init(_ titleKey: LocalizedStringKey, destination: URL) {
        self.init(destination: destination) { Text(titleKey) }
    }
    /// A link to `destination` titled `title`.
    public init<S: StringProtocol>(_ title: S, destination: URL) {
        self.init(destination: destination) { Text(title) }
    }
}

/// Opens a URL (`OpenURLAction`, `@Environment(\.openURL)`): there is no browser or other app
/// here, so by default it writes the URL to the extension's standard error (its log).
public struct OpenURLAction: @unchecked Sendable {
    // @unchecked: called on the main thread.
    let handler: (URL) -> Void

    /// An action that calls `handler` with each URL.
    public init(handler: @escaping (URL) -> Void) { self.handler = handler }

    /// Opens `url`.
    public func callAsFunction(_ url: URL) { handler(url) }

    /// What the environment gives when no view sets its own: logs the URL.
    static let system = OpenURLAction { url in
        FileHandle.standardError.write(Data("Link: would open \(url.absoluteString) (no browser here)\n".utf8))
    }
}

extension EnvironmentValues {
    /// Opens URLs (`@Environment(\.openURL)`), for `Link` too.
    public var openURL: OpenURLAction {
        get { self[OpenURLKey.self] }
        set { self[OpenURLKey.self] = newValue }
    }
}

private enum OpenURLKey: EnvironmentKey {
    static var defaultValue: OpenURLAction { .system }
}
