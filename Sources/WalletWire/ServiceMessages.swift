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

    public init(title: String, message: String? = nil, fields: [Field], actions: [String]) {
        self.title = title
        self.message = message
        self.fields = fields
        self.actions = actions
    }
}

/// The result of `ui.prompt`.
public struct UIPromptResult: Codable, Sendable, Hashable {
    /// The chosen action, one of the prompt's `actions`.
    public var action: String
    /// Field name -> entered value.
    public var values: [String: String]

    public init(action: String, values: [String: String]) {
        self.action = action
        self.values = values
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
