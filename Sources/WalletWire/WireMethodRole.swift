/// Who answers a host -> extension method: the runtime of every extension, or the handler of
/// one of Wallet's two extension points.
public enum WireMethodRole: String, Sendable, Hashable, CaseIterable {
    /// Part of every extension's lifecycle (`initialize`, `shutdown`); never listed in the
    /// `methods` of the `initialize` result.
    case lifecycle
    /// A call to the non-UI extension, `com.apple.PassKit.issuer-provisioning`.
    case nonUI
    /// A call to the UI extension, `com.apple.PassKit.issuer-provisioning.authorization`.
    case ui

    /// The role of the handler launched for `extensionPoint`, nil for a point Wallet does not define.
    /// - Parameter extensionPoint: An `NSExtensionPointIdentifier`, e.g. ``WalletExtensionPoint/nonUI``.
    public init?(extensionPoint: String) {
        switch extensionPoint {
        case WalletExtensionPoint.nonUI: self = .nonUI
        case WalletExtensionPoint.authorization: self = .ui
        default: return nil
        }
    }

    /// The extension point whose handler answers the method; nil for ``lifecycle``.
    public var extensionPoint: String? {
        switch self {
        case .lifecycle: return nil
        case .nonUI: return WalletExtensionPoint.nonUI
        case .ui: return WalletExtensionPoint.authorization
        }
    }
}
