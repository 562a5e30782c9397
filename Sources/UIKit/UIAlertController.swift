import Foundation
import WalletExtensionRuntime
import WalletWire

/// An alert (`UIAlertController`): presented, it becomes a form the host's user agent shows
/// (`ui.prompt`) with the alert's title, message, text fields and action titles.
///
/// As in UIKit, `present` returns at once; when the user has answered, the typed text is in
/// ``textFields`` and the chosen action's handler runs on the main thread. If the host cannot
/// show the form, the cancel action (if any) runs and the reason is logged.
@preconcurrency @MainActor
open class UIAlertController: UIViewController {
    /// How the alert is shown (`UIAlertController.Style`).
    public enum Style: Int, Sendable {
        case actionSheet = 0
        case alert = 1
    }

    /// The text under the title.
    open var message: String?
    /// How the alert is shown.
    public let preferredStyle: Style
    /// The actions, in the order added.
    open private(set) var actions: [UIAlertAction] = []
    /// The action the user agent offers first.
    open var preferredAction: UIAlertAction?
    private(set) var fields: [UITextField] = []

    /// An alert with a title, a message and a style.
    public init(title: String?, message: String?, preferredStyle: Style) {
        self.message = message
        self.preferredStyle = preferredStyle
        super.init(nibName: nil, bundle: nil)
        self.title = title
    }

    /// Storyboards do not exist here; this initializer fails.
    public required init?(coder: NSCoder) {
        return nil
    }

    /// Adds a button.
    open func addAction(_ action: UIAlertAction) {
        actions.append(action)
    }

    /// Adds a text field (alerts only); `configurationHandler` sets its placeholder,
    /// `isSecureTextEntry` and initial text.
    open func addTextField(configurationHandler: ((UITextField) -> Void)? = nil) {
        let field = UITextField()
        configurationHandler?(field)
        fields.append(field)
    }

    /// The text fields, or nil when there are none.
    open var textFields: [UITextField]? { fields.isEmpty ? nil : fields }

    /// The form the user agent shows: one field per text field, labelled by its placeholder,
    /// and one button per action (the preferred action first); with the alert drawn
    /// (UIAlertController+Screen.swift).
    ///
    /// A field's name, the key of its value in a user-agent script, is its
    /// `accessibilityIdentifier` if set, else its placeholder in lower case without spaces
    /// (`"User name"` -> `username`), else `fieldN`; a repeated name gets `2`, `3`, ... appended.
    var promptForm: UIPromptParams {
        let names = fieldNames
        let formFields = fields.enumerated().map { index, field in
            UIPromptParams.Field(name: names[index], label: field.placeholder ?? "Field \(index + 1)",
                                 secure: field.isSecureTextEntry)
        }
        var titles = actions.map { $0.title ?? "" }
        if let preferred = preferredAction?.title, let index = titles.firstIndex(of: preferred) {
            titles.insert(titles.remove(at: index), at: 0)
        }
        return UIPromptParams(title: title ?? "", message: message, fields: formFields, actions: titles, screen: drawnScreen())
    }

    /// The form's field names, one per text field; see ``promptForm``.
    var fieldNames: [String] {
        var used: [String: Int] = [:]
        return fields.enumerated().map { index, field in
            let placeholder = field.placeholder.map { $0.lowercased().filter { $0.isLetter || $0.isNumber } }
            let base = [field.accessibilityIdentifier, placeholder].compactMap { $0 }.first { !$0.isEmpty }
                ?? "field\(index + 1)"
            used[base, default: 0] += 1
            return used[base]! == 1 ? base : "\(base)\(used[base]!)"
        }
    }

    override func wasPresented(by presenter: UIViewController) {
        let form = promptForm
        // Waits without holding a thread: a form is with the user for each call in flight.
        Task { @MainActor in
            let answer: Result<UIPromptResult, HostServiceError>
            do throws(HostServiceError) {
                answer = .success(try await WalletUserInterface.prompt(form))
            } catch {
                answer = .failure(error)
            }
            self.userAnswered(answer)
        }
    }

    /// Fills the text fields, dismisses the alert and runs the chosen action's handler. Leaving
    /// the sheet takes the alert's cancel action, as tapping outside it does; an alert without
    /// one goes with the sheet under it.
    private func userAnswered(_ answer: Result<UIPromptResult, HostServiceError>) {
        let chosen: UIAlertAction?
        switch answer {
        case .success(let response) where response.dismissed:
            chosen = actions.first { $0.style == .cancel }
            if chosen == nil, let presenter = presentingViewController {
                presenter.dismiss(animated: true)
                ScreenSession.dismissSheet(holding: presenter)
                return
            }
        case .success(let response):
            for (field, name) in zip(fields, fieldNames) {
                field.text = response.values[name] ?? ""
            }
            chosen = actions.first { $0.title == response.action }
            if chosen == nil {
                print("UIAlertController: the user agent chose \"\(response.action)\", which is not an action of \"\(title ?? "")\"")
            }
        case .failure(let error):
            print("UIAlertController: \"\(title ?? "")\" could not be shown (\(error)); taking its cancel action")
            chosen = actions.first { $0.style == .cancel }
        }
        presentingViewController?.dismiss(animated: true)
        if let chosen { chosen.handler?(chosen) }
    }
}

/// A button of a ``UIAlertController`` (`UIAlertAction`).
@preconcurrency @MainActor
open class UIAlertAction: NSObject {
    /// How the button looks (`UIAlertAction.Style`).
    public enum Style: Int, Sendable {
        case `default` = 0
        case cancel = 1
        case destructive = 2
    }

    /// The button's title.
    public let title: String?
    /// The button's style.
    public let style: Style
    /// False to grey the button out.
    open var isEnabled = true
    let handler: ((UIAlertAction) -> Void)?

    /// A button; `handler` runs on the main thread when the user chooses it.
    public init(title: String?, style: Style, handler: ((UIAlertAction) -> Void)? = nil) {
        self.title = title
        self.style = style
        self.handler = handler
        super.init()
    }
}
