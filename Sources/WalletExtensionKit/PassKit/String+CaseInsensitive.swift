extension StringProtocol {
    /// True when `other` occurs in the string, ignoring case; for code ported from iOS such as
    /// `pass.deviceName.localizedCaseInsensitiveContains("Apple Watch")` (FoundationEssentials
    /// lacks the NSString method). Compares Unicode lowercase forms, without locale rules; an
    /// empty `other` is not contained, as with NSString.
    @_disfavoredOverload
    public func localizedCaseInsensitiveContains<Other: StringProtocol>(_ other: Other) -> Bool {
        !other.isEmpty && lowercased().contains(other.lowercased())
    }
}
