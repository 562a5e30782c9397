import Foundation
import ExtensionModel
import WalletWire

/// A containing app (`.app`) that passed validation, with the extensions in its `PlugIns` directory.
public struct AppBundle: Sendable, Hashable {
    /// The `.app` directory.
    public var url: URL
    /// `CFBundleIdentifier`.
    public var bundleIdentifier: String
    /// The app's own executable, nil when the bundle has none (a warning says so): the host only
    /// needs it to launch the app itself, not to run its extensions.
    public var executableURL: URL?
    /// The app's entitlements.
    public var entitlements: BundleEntitlements
    /// The extensions, in `PlugIns` directory name order.
    public var extensions: [ExtensionBundle]
    /// The whole Info.plist, build variables expanded.
    public var infoDictionary: [String: PropertyListValue]

    /// Creates an app bundle from values already validated; ``BundleLoader`` is the usual way to get one.
    public init(
        url: URL,
        bundleIdentifier: String,
        executableURL: URL?,
        entitlements: BundleEntitlements,
        extensions: [ExtensionBundle],
        infoDictionary: [String: PropertyListValue]
    ) {
        self.url = url
        self.bundleIdentifier = bundleIdentifier
        self.executableURL = executableURL
        self.entitlements = entitlements
        self.extensions = extensions
        self.infoDictionary = infoDictionary
    }

    /// The App Groups from the entitlements (`com.apple.security.application-groups`).
    public var appGroups: [String] { entitlements.appGroups }

    /// The bundle directory's name without `.app` ("Issuer").
    public var name: String { url.deletingPathExtension().lastPathComponent }

    /// The app's extension for an extension point, if it has one (an app has at most one per point).
    /// - Parameter identifier: An extension point identifier, e.g. `com.apple.PassKit.issuer-provisioning`.
    public func extensionBundle(forPoint identifier: String) -> ExtensionBundle? {
        extensions.first { $0.extensionPointIdentifier == identifier }
    }

    /// The app's extensions whose point has the given role.
    public func extensions(withRole role: ExtensionRole) -> [ExtensionBundle] {
        extensions.filter { $0.role == role }
    }
}
