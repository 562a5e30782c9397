import WalletWire

/// A form shown to the user: a title, an optional message, input fields and buttons.
public struct PromptForm: Sendable, Hashable {
    /// One input field.
    public struct Field: Sendable, Hashable {
        /// The key of the field's value in ``PromptResponse/values``.
        public var name: String
        /// What the user sees next to the field.
        public var label: String
        /// True for passwords: the value is not echoed.
        public var isSecure: Bool

        public init(name: String, label: String, isSecure: Bool = false) {
            self.name = name
            self.label = label
            self.isSecure = isSecure
        }
    }

    public var title: String
    public var message: String?
    public var fields: [Field]
    /// Button titles, e.g. `["Log In", "Cancel"]`.
    public var actions: [String]

    public init(title: String, message: String? = nil, fields: [Field], actions: [String]) {
        self.title = title
        self.message = message
        self.fields = fields
        self.actions = actions
    }

    package var wireValue: UIPromptParams {
        UIPromptParams(title: title, message: message,
                       fields: fields.map { UIPromptParams.Field(name: $0.name, label: $0.label, secure: $0.isSecure) },
                       actions: actions)
    }
}

/// What the user did with a ``PromptForm``.
public struct PromptResponse: Sendable, Hashable {
    /// The button chosen, one of the form's actions.
    public var action: String
    /// Field name -> the text entered.
    public var values: [String: String]

    public init(action: String, values: [String: String]) {
        self.action = action
        self.values = values
    }

    /// The text entered in the field called `name`, or an empty string.
    public subscript(field name: String) -> String { values[name] ?? "" }
}

/// The user interface of a UI extension, provided by the host's user agent (scripted answers
/// in CI, terminal prompts interactively): forms with `ui.prompt` and Face ID / Touch ID with
/// `ui.biometric`. Only the UI extension point may use it; the host refuses a non-UI
/// extension with "method not found".
///
/// Each function blocks until the user answers; the async forms do not block a thread.
public enum WalletUserInterface {
    /// Shows `form` and waits for the user.
    /// - Throws: ``HostServiceError`` when the host refuses or cannot ask.
    public static func prompt(_ form: PromptForm) throws(HostServiceError) -> PromptResponse {
        let answer = try HostServiceCall.send(WireMethod.uiPrompt, params: form.wireValue, expecting: UIPromptResult.self)
        return PromptResponse(action: answer.action, values: answer.values)
    }

    /// The async form of ``prompt(_:)``.
    public static func prompt(_ form: PromptForm) async throws(HostServiceError) -> PromptResponse {
        let answer = try await HostServiceCall.send(WireMethod.uiPrompt, params: form.wireValue,
                                                    expecting: UIPromptResult.self)
        return PromptResponse(action: answer.action, values: answer.values)
    }

    /// Asks for a biometric check (Face ID or Touch ID) and waits for the result.
    /// - Parameter reason: Why the extension asks, shown to the user.
    /// - Returns: True when the user passed the check.
    /// - Throws: ``HostServiceError`` when the host refuses or cannot ask.
    public static func authenticateWithBiometrics(reason: String) throws(HostServiceError) -> Bool {
        try HostServiceCall.send(WireMethod.uiBiometric, params: UIBiometricParams(reason: reason),
                                 expecting: UIBiometricResult.self).success
    }

    /// The async form of ``authenticateWithBiometrics(reason:)``.
    public static func authenticateWithBiometrics(reason: String) async throws(HostServiceError) -> Bool {
        try await HostServiceCall.send(WireMethod.uiBiometric, params: UIBiometricParams(reason: reason),
                                       expecting: UIBiometricResult.self).success
    }
}
