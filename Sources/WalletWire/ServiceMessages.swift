/// Parameters of `passLibrary.passes`.
public struct PassLibraryPassesParams: Codable, Sendable, Hashable {
    /// Only `secureElement` is defined.
    public var passType: String

    public init(passType: String = "secureElement") {
        self.passType = passType
    }
}

/// A pass in the simulated device's pass library, as an extension sees it.
public struct WireSecureElementPass: Codable, Sendable, Hashable {
    public var primaryAccountIdentifier: String
    public var primaryAccountNumberSuffix: String
    /// For example `iPhone` or `Apple Watch`.
    public var deviceName: String
    /// True for a pass on the paired Apple Watch.
    public var isRemotePass: Bool

    public init(primaryAccountIdentifier: String, primaryAccountNumberSuffix: String, deviceName: String,
                isRemotePass: Bool) {
        self.primaryAccountIdentifier = primaryAccountIdentifier
        self.primaryAccountNumberSuffix = primaryAccountNumberSuffix
        self.deviceName = deviceName
        self.isRemotePass = isRemotePass
    }
}

/// Parameters of `ui.prompt`: a form the user agent fills in.
public struct UIPromptParams: Codable, Sendable, Hashable {
    /// One input field of the form.
    public struct Field: Codable, Sendable, Hashable {
        /// The key under which the value comes back.
        public var name: String
        public var label: String
        /// True for passwords: the interactive agent does not echo it.
        public var secure: Bool

        public init(name: String, label: String, secure: Bool = false) {
            self.name = name
            self.label = label
            self.secure = secure
        }
    }

    public var title: String
    public var message: String?
    public var fields: [Field]
    /// Button titles, e.g. `["Log In", "Cancel"]`.
    public var actions: [String]
    /// The screen as the extension laid it out, when the SDK knows it; absent from extensions
    /// that only describe a form.
    public var screen: ScreenTree?

    public init(
        title: String, message: String? = nil, fields: [Field], actions: [String],
        screen: ScreenTree? = nil
    ) {
        self.title = title
        self.message = message
        self.fields = fields
        self.actions = actions
        self.screen = screen
    }
}

/// The result of `ui.prompt`: the button the user chose, or Wallet's dismissal of the sheet.
///
/// Leaving the sheet (swiping it down, as on a device) is an answer of its own, not a button:
/// `{"dismissed": true, "values": {}}`, with no `action`. A screen can be left whatever its
/// buttons are titled, or if it has none.
public struct UIPromptResult: Codable, Sendable, Hashable {
    /// The chosen action, one of the prompt's `actions`; empty when ``dismissed``.
    public var action: String
    /// Field name -> entered value.
    public var values: [String: String]
    /// True when the user left the sheet instead of choosing an action (Wallet's dismissal).
    public var dismissed: Bool

    /// The user chose `action` after typing `values`.
    public init(action: String, values: [String: String]) {
        self.action = action
        self.values = values
        self.dismissed = false
    }

    /// The user left the sheet (Wallet dismissed it) without choosing an action.
    /// - Parameter values: What the fields held, if the user agent says.
    public static func dismissal(values: [String: String] = [:]) -> UIPromptResult {
        var result = UIPromptResult(action: "", values: values)
        result.dismissed = true
        return result
    }

    private enum CodingKeys: String, CodingKey { case action, values, dismissed }

    /// Decodes an answer: `action` is required unless `dismissed` is true.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        dismissed = try container.decodeIfPresent(Bool.self, forKey: .dismissed) ?? false
        values = try container.decodeIfPresent([String: String].self, forKey: .values) ?? [:]
        if dismissed {
            action = try container.decodeIfPresent(String.self, forKey: .action) ?? ""
        } else {
            action = try container.decode(String.self, forKey: .action)
        }
    }

    /// Encodes `action` and `values`, or `dismissed` and `values` for a dismissal.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if dismissed {
            try container.encode(true, forKey: .dismissed)
        } else {
            try container.encode(action, forKey: .action)
        }
        try container.encode(values, forKey: .values)
    }
}

/// Parameters of `ui.biometric`.
public struct UIBiometricParams: Codable, Sendable, Hashable {
    /// Why the extension asks, shown to the user.
    public var reason: String

    public init(reason: String) {
        self.reason = reason
    }
}

/// The result of `ui.biometric`.
public struct UIBiometricResult: Codable, Sendable, Hashable {
    public var success: Bool

    public init(success: Bool) {
        self.success = success
    }
}
