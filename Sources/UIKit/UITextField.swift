import Foundation

/// A text field (`UITextField`): a field of the form (an alert's or a screen's), named by its
/// `accessibilityIdentifier`, else its placeholder in lower case without spaces. The user
/// agent's answer sets ``text`` through the delegate's `textField(_:shouldChangeCharactersIn:replacementString:)`
/// and sends `editingChanged`, as typing does.
@preconcurrency @MainActor
open class UITextField: UIControl {
    /// Border styles (`UITextField.BorderStyle`), kept.
    public enum BorderStyle: Int, Sendable { case none, line, bezel, roundedRect }
    /// When an overlay view shows (`UITextField.ViewMode`), kept.
    public enum ViewMode: Int, Sendable { case never, whileEditing, unlessEditing, always }

    /// The text.
    open var text: String?
    /// The placeholder, shown as the field's label.
    open var placeholder: String?
    /// An attributed placeholder: its string is the placeholder.
    open var attributedPlaceholder: NSAttributedString? {
        get { placeholder.map { NSAttributedString(string: $0) } }
        set { placeholder = newValue?.string }
    }
    /// True for passwords: the user agent does not echo the value.
    open var isSecureTextEntry = false { didSet { screenDidChange() } }
    /// The delegate.
    open weak var delegate: UITextFieldDelegate?
    /// Kept.
    open var keyboardType = UIKeyboardType.default
    /// Kept.
    open var textContentType: UITextContentType!
    /// Kept.
    open var autocapitalizationType = UITextAutocapitalizationType.sentences
    /// Kept.
    open var autocorrectionType = UITextAutocorrectionType.default
    /// Kept.
    open var spellCheckingType = UITextSpellCheckingType.default
    /// Kept.
    open var returnKeyType = UIReturnKeyType.default
    /// Kept.
    open var borderStyle = BorderStyle.none
    /// Kept.
    open var clearButtonMode = ViewMode.never
    /// Kept.
    open var font: UIFont?
    /// Kept.
    open var textColor: UIColor?
    /// Kept.
    open var textAlignment = NSTextAlignment.natural
    /// Kept.
    open var leftView: UIView?
    /// Kept.
    open var leftViewMode = ViewMode.never
    /// Kept.
    open var rightView: UIView?
    /// Kept.
    open var rightViewMode = ViewMode.never
    /// True while the user edits the field.
    open private(set) var isEditing = false
    /// The text or placeholder on one line (``fieldContentSize()``).
    open override var intrinsicContentSize: CGSize { fieldContentSize() }

    /// Sets the field as typing does: asks the delegate, sets ``text``, sends `editingChanged`.
    package func typeAnswer(_ value: String) {
        isEditing = true
        delegate?.textFieldDidBeginEditing(self)
        sendActions(for: .editingDidBegin)
        let current = text ?? ""
        let range = NSRange(location: 0, length: (current as NSString).length)
        if current != value, delegate?.textField(self, shouldChangeCharactersIn: range, replacementString: value) ?? true {
            text = value
            sendActions(for: .editingChanged)
            delegate?.textFieldDidChangeSelection(self)
        }
        isEditing = false
        delegate?.textFieldDidEndEditing(self)
        sendActions(for: .editingDidEnd)
    }

    /// The keyboard's return key, as the user presses it in this field: the delegate's
    /// `textFieldShouldReturn(_:)`, then, when it agrees, `.editingDidEndOnExit` and
    /// `.primaryActionTriggered` (what a SwiftUI field's `onSubmit` runs on).
    package func pressReturn() {
        guard delegate?.textFieldShouldReturn(self) ?? true else { return }
        sendActions(for: [.editingDidEndOnExit, .primaryActionTriggered])
    }
}

/// What a text field tells its delegate (`UITextFieldDelegate`); every method is optional.
@preconcurrency @MainActor
public protocol UITextFieldDelegate: AnyObject {
    func textFieldShouldBeginEditing(_ textField: UITextField) -> Bool
    func textFieldDidBeginEditing(_ textField: UITextField)
    func textFieldShouldEndEditing(_ textField: UITextField) -> Bool
    func textFieldDidEndEditing(_ textField: UITextField)
    func textField(_ textField: UITextField, shouldChangeCharactersIn range: NSRange, replacementString string: String) -> Bool
    func textFieldDidChangeSelection(_ textField: UITextField)
    func textFieldShouldClear(_ textField: UITextField) -> Bool
    func textFieldShouldReturn(_ textField: UITextField) -> Bool
}

extension UITextFieldDelegate {
    public func textFieldShouldBeginEditing(_ textField: UITextField) -> Bool { true }
    public func textFieldDidBeginEditing(_ textField: UITextField) {}
    public func textFieldShouldEndEditing(_ textField: UITextField) -> Bool { true }
    public func textFieldDidEndEditing(_ textField: UITextField) {}
    public func textField(_ textField: UITextField, shouldChangeCharactersIn range: NSRange,
                          replacementString string: String) -> Bool { true }
    public func textFieldDidChangeSelection(_ textField: UITextField) {}
    public func textFieldShouldClear(_ textField: UITextField) -> Bool { true }
    public func textFieldShouldReturn(_ textField: UITextField) -> Bool { true }
}

/// Keyboards (`UIKeyboardType`), kept.
public enum UIKeyboardType: Int, Sendable {
    case `default`, asciiCapable, numbersAndPunctuation, URL, numberPad, phonePad, namePhonePad, emailAddress, decimalPad
    case twitter, webSearch, asciiCapableNumberPad
}

/// Capitalization (`UITextAutocapitalizationType`), kept.
public enum UITextAutocapitalizationType: Int, Sendable { case none, words, sentences, allCharacters }
/// Autocorrection (`UITextAutocorrectionType`), kept.
public enum UITextAutocorrectionType: Int, Sendable { case `default`, no, yes }
/// Spell checking (`UITextSpellCheckingType`), kept.
public enum UITextSpellCheckingType: Int, Sendable { case `default`, no, yes }
/// The return key (`UIReturnKeyType`), kept.
public enum UIReturnKeyType: Int, Sendable {
    case `default`, go, google, join, next, route, search, send, yahoo, done, emergencyCall, `continue`

    /// The key's title on the keyboard, as the action a screen with no button offers.
    package var title: String {
        switch self {
        case .default: "Return"
        case .go: "Go"
        case .google, .yahoo, .search: "Search"
        case .join: "Join"
        case .next: "Next"
        case .route: "Route"
        case .send: "Send"
        case .done: "Done"
        case .emergencyCall: "Emergency Call"
        case .continue: "Continue"
        }
    }
}

/// What a field holds, for autofill (`UITextContentType`), kept.
public struct UITextContentType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let username = UITextContentType(rawValue: "username")
    public static let password = UITextContentType(rawValue: "password")
    public static let newPassword = UITextContentType(rawValue: "new-password")
    public static let oneTimeCode = UITextContentType(rawValue: "one-time-code")
    public static let emailAddress = UITextContentType(rawValue: "email")
    public static let name = UITextContentType(rawValue: "name")
    public static let telephoneNumber = UITextContentType(rawValue: "tel")
    public static let creditCardNumber = UITextContentType(rawValue: "cc-number")
    public static let postalCode = UITextContentType(rawValue: "postal-code")
}
