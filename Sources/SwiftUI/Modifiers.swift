import Dispatch

/// A view with a change applied to how it renders (`ModifiedContent`).
public struct ModifiedContent<Content: View, Modifier>: View, PrimitiveView {
    public typealias Body = Never
    let content: Content
    let apply: @MainActor (inout Renderer, (inout Renderer) -> Void) -> Void

    func render(into renderer: inout Renderer) {
        let content = content
        apply(&renderer) { renderer in renderer.render(content, as: "modified") }
    }
}

/// The modifiers that change what the form shows.
public enum FormModifier {}

extension View {
    private func modified(_ apply: @escaping @MainActor (inout Renderer, (inout Renderer) -> Void) -> Void)
        -> ModifiedContent<Self, FormModifier> {
        ModifiedContent(content: self, apply: apply)
    }

    /// Greys the controls inside out: a disabled button is not offered while the screen has no fields.
    public func disabled(_ disabled: Bool) -> ModifiedContent<Self, FormModifier> {
        modified { renderer, render in
            let saved = renderer.environment.isEnabled
            renderer.environment.isEnabled = saved && !disabled
            render(&renderer)
            renderer.environment.isEnabled = saved
        }
    }

    /// Names the field or switch inside (the key of its value in a user-agent script).
    public func accessibilityIdentifier(_ identifier: String) -> ModifiedContent<Self, FormModifier> {
        modified { renderer, render in
            let saved = renderer.accessibilityIdentifier
            renderer.accessibilityIdentifier = identifier
            render(&renderer)
            renderer.accessibilityIdentifier = saved
        }
    }

    /// Labels the control inside.
    public func accessibilityLabel(_ label: Text) -> ModifiedContent<Self, FormModifier> {
        modified { renderer, render in
            let saved = renderer.accessibilityLabel
            renderer.accessibilityLabel = label.content
            render(&renderer)
            renderer.accessibilityLabel = saved
        }
    }

    /// The screen's title: the form's title.
    public func navigationTitle(_ title: String) -> ModifiedContent<Self, FormModifier> {
        modified { renderer, render in
            renderer.host.navigationTitle = title
            render(&renderer)
        }
    }

    /// The screen's title: the form's title.
    public func navigationTitle(_ title: LocalizedStringKey) -> ModifiedContent<Self, FormModifier> {
        navigationTitle(title.text)
    }

    /// The screen's title (the pre-iOS 14 name).
    public func navigationBarTitle(_ title: String) -> ModifiedContent<Self, FormModifier> { navigationTitle(title) }

    /// Left out of the form when `hidden` (SwiftUI's `hidden()` takes no argument; see below).
    public func hidden() -> ModifiedContent<Self, FormModifier> {
        modified { renderer, render in
            let saved = renderer.isHidden
            renderer.isHidden = true
            render(&renderer)
            renderer.isHidden = saved
        }
    }

    /// Runs `action` the first time the view appears (on the next turn of the main queue).
    public func onAppear(perform action: (() -> Void)? = nil) -> ModifiedContent<Self, FormModifier> {
        modified { renderer, render in
            let key = renderer.path + "/onAppear"
            if let action, !renderer.host.appeared.contains(key) {
                renderer.host.appeared.insert(key)
                nonisolated(unsafe) let appeared = action
                DispatchQueue.main.async { appeared() }
            }
            render(&renderer)
        }
    }

    /// Starts `action` the first time the view appears.
    public func task(priority: TaskPriority = .userInitiated, _ action: @escaping @Sendable () async -> Void)
        -> ModifiedContent<Self, FormModifier> {
        modified { renderer, render in
            let key = renderer.path + "/task"
            if !renderer.host.appeared.contains(key) {
                renderer.host.appeared.insert(key)
                Task(priority: priority) { await action() }
            }
            render(&renderer)
        }
    }

    /// An alert shown while `isPresented` is true: its title, message and buttons join the form;
    /// a button dismisses it, then runs its action.
    public func alert<A: View, M: View>(_ title: String, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A,
                                        @ViewBuilder message: () -> M) -> ModifiedContent<Self, FormModifier> {
        let actions = actions()
        let message = message()
        return modified { renderer, render in
            render(&renderer)
            guard isPresented.wrappedValue else { return }
            let alert = UILabel()
            alert.text = title
            renderer.add(alert)
            renderer.render(message, as: "alert-message")
            let start = renderer.views.count
            renderer.render(actions, as: "alert-actions")
            for case let button as UIButton in renderer.views[start...].flatMap(\.viewsInside) {
                button.addAction(UIAction { _ in isPresented.wrappedValue = false }, for: .touchUpInside)
            }
        }
    }

    /// An alert with buttons and no message.
    public func alert<A: View>(_ title: String, isPresented: Binding<Bool>, @ViewBuilder actions: () -> A)
        -> ModifiedContent<Self, FormModifier> {
        alert(title, isPresented: isPresented, actions: actions) { EmptyView() }
    }

    /// Puts `object` in the environment for `@EnvironmentObject`.
    public func environmentObject<T: ObservableObject>(_ object: T) -> ModifiedContent<Self, FormModifier> {
        modified { renderer, render in
            let saved = renderer.environment
            renderer.environment.objects[ObjectIdentifier(T.self)] = object
            render(&renderer)
            renderer.environment = saved
        }
    }

    /// Sets an environment value for the views inside.
    public func environment<V>(_ keyPath: WritableKeyPath<EnvironmentValues, V>, _ value: V) -> ModifiedContent<Self, FormModifier> {
        modified { renderer, render in
            let saved = renderer.environment
            renderer.environment[keyPath: keyPath] = value
            render(&renderer)
            renderer.environment = saved
        }
    }
}

/// Modifiers that change only how the screen looks: accepted, and the view is unchanged.
extension View {
    public func keyboardType(_ type: UIKeyboardType) -> Self { self }
    public func textContentType(_ textContentType: UITextContentType?) -> Self { self }
    public func autocapitalization(_ style: UITextAutocapitalizationType) -> Self { self }
    public func textInputAutocapitalization(_ autocapitalization: TextInputAutocapitalization?) -> Self { self }
    public func autocorrectionDisabled(_ disable: Bool = true) -> Self { self }
    public func disableAutocorrection(_ disable: Bool?) -> Self { self }
    public func navigationBarTitleDisplayMode(_ displayMode: NavigationBarItem.TitleDisplayMode) -> Self { self }
    public func navigationBarBackButtonHidden(_ hidesBackButton: Bool = true) -> Self { self }
    public func controlSize(_ controlSize: ControlSize) -> Self { self }
    public func interactiveDismissDisabled(_ isDisabled: Bool = true) -> Self { self }
}

/// Edges (`Edge`).
public enum Edge: Sendable {
    case top, leading, bottom, trailing
    /// A set of edges (`Edge.Set`).
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        public static let top = Set(rawValue: 1), leading = Set(rawValue: 2), bottom = Set(rawValue: 4), trailing = Set(rawValue: 8)
        public static let horizontal: Set = [.leading, .trailing], vertical: Set = [.top, .bottom], all: Set = [.top, .leading, .bottom, .trailing]
    }
}

/// Text alignment (`TextAlignment`), kept.
public enum TextAlignment: Sendable { case leading, center, trailing }
/// Capitalization (`TextInputAutocapitalization`), kept.
public struct TextInputAutocapitalization: Sendable {
    public static let never = TextInputAutocapitalization(), words = TextInputAutocapitalization()
    public static let sentences = TextInputAutocapitalization(), characters = TextInputAutocapitalization()
}
/// The return key's label (`SubmitLabel`), kept.
public struct SubmitLabel: Sendable {
    /// The return key it puts on the keyboard.
    let returnKeyType: UIReturnKeyType
    public static let done = SubmitLabel(returnKeyType: .done), go = SubmitLabel(returnKeyType: .go)
    public static let send = SubmitLabel(returnKeyType: .send), next = SubmitLabel(returnKeyType: .next)
    public static let `continue` = SubmitLabel(returnKeyType: .continue), search = SubmitLabel(returnKeyType: .search)
    public static let join = SubmitLabel(returnKeyType: .join), route = SubmitLabel(returnKeyType: .route)
    public static let `return` = SubmitLabel(returnKeyType: .default)
}

/// What submitting a field triggers (`SubmitTriggers`): text fields only, here.
public struct SubmitTriggers: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The return key of a text or secure field.
    public static let text = SubmitTriggers(rawValue: 1 << 0)
    /// Search fields (none here).
    public static let search = SubmitTriggers(rawValue: 1 << 1)
}

extension View {
    /// Titles the return key of the text fields inside (on a screen with no button, the action
    /// offered is titled so: "Done", "Go", ...).
    public func submitLabel(_ submitLabel: SubmitLabel) -> ModifiedContent<Self, FormModifier> {
        withEnvironment { $0.returnKeyType = submitLabel.returnKeyType }
    }

    /// Runs `action` when the user presses the return key in a text field inside, after any
    /// `onSubmit` nearer the field.
    public func onSubmit(of triggers: SubmitTriggers = .text, _ action: @escaping () -> Void) -> ModifiedContent<Self, FormModifier> {
        withEnvironment { environment in
            if triggers.contains(.text) { environment.submitActions.append(action) }
        }
    }
}
/// Navigation bar items (`NavigationBarItem`).
public enum NavigationBarItem {
    /// Title sizes (`NavigationBarItem.TitleDisplayMode`), kept.
    public enum TitleDisplayMode: Sendable { case automatic, inline, large }
}
/// Control sizes (`ControlSize`), kept.
public enum ControlSize: Sendable { case mini, small, regular, large, extraLarge }
/// How content fits (`ContentMode`), kept.
public enum ContentMode: Sendable { case fit, fill }
extension Image {
    /// Image scales (`Image.Scale`), kept.
    public enum Scale: Sendable { case small, medium, large }
}
