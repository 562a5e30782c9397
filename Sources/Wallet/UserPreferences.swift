/// What the user has decided before any screen: which issuer, which cards, which device.
///
/// Preferences are data the add-card flow is given (through ``AddCardOptions``), whoever states
/// them: the command line (`--issuer`, `--select`, `--device`), a user agent script's `issuer`,
/// `select` and `device` keys, or a daemon client's `wallet.addCard` params. The flow never asks
/// its user agent for them, so wrapping the agent (in a recorder, a transcript, a daemon's
/// forwarding) cannot lose them.
public struct UserPreferences: Sendable, Equatable {
    /// The issuer to pick (bundle identifier or app name); nil leaves the choice to the flow.
    public var issuer: String?
    /// Which entries to add; nil leaves the choice to the flow.
    public var selection: EntrySelection?
    /// Which device to add to; nil leaves the choice to the flow.
    public var device: DeviceKind?

    /// Creates preferences; each one left nil is not stated.
    public init(issuer: String? = nil, selection: EntrySelection? = nil, device: DeviceKind? = nil) {
        self.issuer = issuer
        self.selection = selection
        self.device = device
    }

    /// These preferences, with each one they leave unstated taken from `fallback`.
    /// - Parameter fallback: Preferences that count only where these say nothing (a script's,
    ///   under the command line's).
    /// - Returns: The preferences stated here, else there.
    public func fillingGaps(from fallback: UserPreferences) -> UserPreferences {
        UserPreferences(issuer: issuer ?? fallback.issuer, selection: selection ?? fallback.selection,
                        device: device ?? fallback.device)
    }
}
