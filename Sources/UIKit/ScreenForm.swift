import Foundation
import WalletWire

/// What a screen shows, read from a controller's view hierarchy as the form the host's user
/// agent shows (`ui.prompt`): "the screen is the form".
///
/// Depth first, in subview order, leaving out hidden views, views at alpha 0 and what is under them:
/// - each label's text is a line of the message (so an error label the code shows is seen);
/// - each text field is a field, named by its `accessibilityIdentifier`, else its placeholder in
///   lower case without spaces (`"User name"` -> `username`), else `fieldN`; secure or not;
/// - each switch is a yes/no field, named by its `accessibilityIdentifier`, else its label
///   (`accessibilityLabel`, `title`, else the text of the label just before it) the same way;
/// - each enabled button is an action, by its title (a button showing only an image by its
///   accessibility label, else its SF Symbol or asset name); then the navigation bar's buttons. A
///   disabled button is offered too when the screen has fields, since filling them is what
///   enables a login button; if it is still disabled once the answer's values are in, the tap
///   does nothing, as on a device, and the screen is sent again.
/// - a screen with fields and no button at all (a code screen that goes on by itself, a field
///   whose return key submits) offers its last text field's return key as the action, titled
///   as the keyboard titles it (`returnKeyType`: "Return", "Done", "Go", ...): choosing it
///   presses that key once the values are in.
///
/// A screen is busy while an activity indicator in it animates, and there is nothing to ask
/// while it has neither an enabled button nor a field: neither is sent.
@MainActor
struct ScreenForm {
    private(set) var title = ""
    private(set) var lines: [String] = []
    private(set) var fields: [UIPromptParams.Field] = []
    private(set) var actions: [String] = []
    private(set) var isBusy = false
    /// The controls behind each field and action, by name and title.
    private(set) var textFields: [String: UITextField] = [:]
    private(set) var switches: [String: UISwitch] = [:]
    private(set) var buttons: [String: (isEnabled: Bool, tap: @MainActor () -> Void)] = [:]
    private var allButtons: [(title: String, isEnabled: Bool, view: ObjectIdentifier?, tap: @MainActor () -> Void)] = []
    /// The field name of each text field and switch read, and the action of each button offered,
    /// by the view's identity: what the drawn screen (``ScreenTreeReader``) names its views by.
    private(set) var namesByView: (fields: [ObjectIdentifier: String], actions: [ObjectIdentifier: String]) = ([:], [:])
    private var lastLabelText: String?
    private var usedNames: [String: Int] = [:]

    /// The form of `controller`'s screen.
    init(controller: UIViewController) {
        let shown = Self.shownController(controller)
        title = Self.title(of: shown) ?? controller.title ?? ""
        if let view = shown.viewIfLoaded { read(view) }
        for item in [shown.navigationItem.leftBarButtonItem, shown.navigationItem.rightBarButtonItem].compactMap({ $0 })
        where item.isEnabled {
            guard let action = item.primaryAction else { continue }
            let names = [item.title, action.title, item.accessibilityLabel, item.image?.sourceName, action.image?.sourceName]
            let name = names.lazy.compactMap { $0 }.first { !$0.isEmpty } ?? "Button \(allButtons.count + 1)"
            allButtons.append((name, true, ObjectIdentifier(item), { action.perform(sender: item) }))
        }
        for button in allButtons where button.isEnabled || !fields.isEmpty {
            let action = addAction(titled: button.title, isEnabled: button.isEnabled, button.tap)
            if let view = button.view { namesByView.actions[view] = action }
        }
        if allButtons.isEmpty, let field = lastTextField {
            returnKey = addAction(titled: field.returnKeyType.title, isEnabled: true) { field.pressReturn() }
        }
    }

    /// The action that presses the keyboard's return key, on a screen with fields and no button.
    private(set) var returnKey: String?
    private var lastTextField: UITextField?

    /// Ready to send: not busy, and an enabled button or a field to answer.
    var isReady: Bool { !isBusy && !actions.isEmpty && (!fields.isEmpty || buttons.values.contains { $0.isEnabled }) }

    /// The `ui.prompt` parameters.
    var prompt: UIPromptParams {
        UIPromptParams(title: title, message: lines.isEmpty ? nil : lines.joined(separator: "\n"), fields: fields, actions: actions)
    }

    /// The `ui.prompt` parameters with the screen drawn as `controller` laid it out (the
    /// controller this form was read from).
    func prompt(drawing controller: UIViewController) -> UIPromptParams {
        var prompt = prompt
        var reader = ScreenTreeReader(form: self)
        prompt.screen = reader.tree(of: Self.shownController(controller))
        return prompt
    }

    /// The controller's title, its navigation item's, else the first a child controller has
    /// (a SwiftUI screen's `.navigationTitle` sets its hosting controller's).
    static func title(of controller: UIViewController) -> String? {
        if let title = controller.title ?? controller.navigationItem.title, !title.isEmpty { return title }
        return controller.children.lazy.compactMap { title(of: $0) }.first
    }

    /// The controller whose view is on screen: the top of a navigation stack.
    static func shownController(_ controller: UIViewController) -> UIViewController {
        if let navigation = controller as? UINavigationController, let top = navigation.topViewController {
            return shownController(top)
        }
        return controller
    }

    private mutating func read(_ view: UIView) {
        guard !view.isHidden, view.alpha > 0 else { return }
        switch view {
        case let label as UILabel:
            if let text = label.text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty {
                lines.append(text)
                lastLabelText = text
            }
        case let field as UITextField:
            let name = uniqueName(field.accessibilityIdentifier, field.placeholder, fallback: "field")
            let label = field.placeholder ?? field.accessibilityLabel ?? lastLabelText ?? name
            fields.append(UIPromptParams.Field(name: name, label: label, secure: field.isSecureTextEntry))
            textFields[name] = field
            lastTextField = field
            namesByView.fields[ObjectIdentifier(field)] = name
        case let toggle as UISwitch:
            let label = toggle.accessibilityLabel ?? toggle.title ?? lastLabelText
            let name = uniqueName(toggle.accessibilityIdentifier, label, fallback: "switch")
            fields.append(UIPromptParams.Field(name: name, label: "\(label ?? name) (yes/no)", secure: false))
            switches[name] = toggle
            namesByView.fields[ObjectIdentifier(toggle)] = name
        case let button as UIButton:
            let title = Self.name(of: button) ?? "Button \(allButtons.count + 1)"
            allButtons.append((title, button.isEnabled, ObjectIdentifier(button), { button.tap() }))
        case let spinner as UIActivityIndicatorView:
            if spinner.isAnimating { isBusy = true }
        default:
            break
        }
        guard view.isUserInteractionEnabled || view is UILabel else { return }
        for subview in view.subviews { read(subview) }
    }

    /// What names a button: its title, else its accessibility label, else the SF Symbol or
    /// asset its image was made from ("xmark"), else "Close" for a close button; empty text
    /// does not count. Nil when nothing does.
    static func name(of button: UIButton) -> String? {
        let candidates = [button.currentTitle, button.accessibilityLabel, button.currentImage?.sourceName,
                          button.buttonType == .close ? "Close" : nil]
        return candidates.lazy.compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }.first { !$0.isEmpty }
    }

    private mutating func addAction(titled title: String, isEnabled: Bool, _ tap: @escaping @MainActor () -> Void) -> String {
        var unique = title
        var number = 1
        while buttons[unique] != nil {
            number += 1
            unique = "\(title) (\(number))"
        }
        actions.append(unique)
        buttons[unique] = (isEnabled, tap)
        return unique
    }

    /// The field name for `identifier`, else `label` in lower case with letters and digits only,
    /// else `fallbackN`; a repeated name gets 2, 3, ... appended.
    private mutating func uniqueName(_ identifier: String?, _ label: String?, fallback: String) -> String {
        let simplified = label.map { $0.lowercased().filter { $0.isLetter || $0.isNumber } }
        let base = [identifier, simplified].compactMap { $0 }.first { !$0.isEmpty } ?? "\(fallback)\(fields.count + 1)"
        usedNames[base, default: 0] += 1
        return usedNames[base]! == 1 ? base : "\(base)\(usedNames[base]!)"
    }

    /// Fills the fields and switches from `answer`, as the user would.
    func fill(from answer: UIPromptResult) {
        for (name, field) in textFields {
            if let value = answer.values[name] { field.typeAnswer(value) }
        }
        for (name, toggle) in switches {
            // No value (a script that leaves the switch out gets "") leaves the switch as it is.
            guard let value = answer.values[name], !value.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let on = ["yes", "y", "true", "on", "1"].contains(value.lowercased().trimmingCharacters(in: .whitespaces))
            if toggle.isOn != on {
                toggle.isOn = on
                toggle.sendActions(for: .valueChanged)
            }
        }
    }

    /// Taps the action titled `title` if it is enabled; says why not otherwise.
    func tap(_ title: String) -> String? {
        guard let button = buttons[title] else {
            return "the user agent chose \"\(title)\", which is not a button of \"\(self.title)\"; asking again"
        }
        guard button.isEnabled else {
            return "\"\(title)\" is still disabled once the answer's values are in; the tap does nothing, as on a device"
        }
        button.tap()
        return nil
    }
}
