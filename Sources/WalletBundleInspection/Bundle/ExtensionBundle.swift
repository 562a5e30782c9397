import Foundation
import ExtensionModel
import WalletWire

/// An app extension (`.appex`) that passed validation and can be run by the host.
public struct ExtensionBundle: Sendable, Hashable {
    /// The `.appex` directory.
    public var url: URL
    /// `CFBundleIdentifier`.
    public var bundleIdentifier: String
    /// The executable named by `CFBundleExecutable`; it exists, is inside the bundle and is executable.
    public var executableURL: URL
    /// `NSExtension.NSExtensionPointIdentifier` as written.
    public var extensionPointIdentifier: String
    /// The registry's point for ``extensionPointIdentifier``; an unknown point stops a bundle from loading,
    /// so a loaded extension always has one.
    public var extensionPoint: ExtensionPoint
    /// `NSExtension.NSExtensionPrincipalClass` with build variables expanded (`WNonUIExt.WNonUIExtHandler`);
    /// nil for a UI extension that names a storyboard instead.
    public var principalClass: String?
    /// `NSExtension.NSExtensionMainStoryboard`, which only a UI extension may have.
    public var mainStoryboard: String?
    /// The class of ``mainStoryboard``'s initial view controller, read from the compiled
    /// storyboard, when there is no principal class: the class the handshake names, as iOS
    /// instantiates it.
    public var storyboardEntryClass: String?
    /// Xcode's `PRODUCT_MODULE_NAME` for this extension: its executable name made an identifier.
    public var moduleName: String
    /// The extension's entitlements.
    public var entitlements: BundleEntitlements
    /// The bundle identifier of the containing app, when the extension sits in `X.app/PlugIns/`
    /// and that app's Info.plist could be read.
    public var containingAppBundleIdentifier: String?
    /// `MinimumOSVersion` (or `LSMinimumSystemVersion`) as written, if present.
    public var minimumOSVersion: String?
    /// The whole Info.plist, build variables expanded.
    public var infoDictionary: [String: PropertyListValue]

    /// Creates an extension bundle from values already validated; ``BundleLoader`` is the usual way to get one.
    public init(
        url: URL,
        bundleIdentifier: String,
        executableURL: URL,
        extensionPoint: ExtensionPoint,
        principalClass: String?,
        mainStoryboard: String?,
        moduleName: String,
        entitlements: BundleEntitlements,
        containingAppBundleIdentifier: String?,
        minimumOSVersion: String?,
        infoDictionary: [String: PropertyListValue]
    ) {
        self.url = url
        self.bundleIdentifier = bundleIdentifier
        self.executableURL = executableURL
        self.extensionPointIdentifier = extensionPoint.identifier
        self.extensionPoint = extensionPoint
        self.principalClass = principalClass
        self.mainStoryboard = mainStoryboard
        self.moduleName = moduleName
        self.entitlements = entitlements
        self.containingAppBundleIdentifier = containingAppBundleIdentifier
        self.minimumOSVersion = minimumOSVersion
        self.infoDictionary = infoDictionary
    }

    /// The App Groups from the entitlements (`com.apple.security.application-groups`).
    public var appGroups: [String] { entitlements.appGroups }

    /// Whether the extension point shows UI.
    public var role: ExtensionRole { extensionPoint.role }

    /// The bundle directory's name without `.appex`, as people call the extension ("WNonUIExt").
    public var name: String { url.deletingPathExtension().lastPathComponent }
}

extension ExtensionBundle {
    /// This bundle with ``storyboardEntryClass`` set.
    func withStoryboardEntryClass(_ className: String?) -> ExtensionBundle {
        var bundle = self
        bundle.storyboardEntryClass = className
        return bundle
    }
}
