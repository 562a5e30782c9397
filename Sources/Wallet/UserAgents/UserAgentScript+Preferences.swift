extension UserAgentScript {
    /// What the script states before any screen (`issuer`, `select`, `device`), as data the
    /// add-card flow is given in its ``AddCardOptions``.
    public var preferences: UserPreferences {
        UserPreferences(issuer: issuer, selection: selection, device: device)
    }
}
