import Foundation

/// What the host needs to run one extension: where it is, what it is, and its App Groups.
public struct ExtensionDescriptor: Sendable {
    /// The `.appex` directory; the process's working directory.
    public var bundlePath: String
    public var executablePath: String
    public var bundleIdentifier: String
    public var containingAppBundleIdentifier: String
    /// `NSExtensionPrincipalClass` with build variables expanded.
    public var principalClass: String
    public var point: ExtensionPoint
    /// App Group identifier -> container directory.
    public var appGroups: [String: String]
    /// The keychain access groups the host's keychain service grants, the default group first.
    public var keychainAccessGroups: [String] = []
    /// The bundle's team (``ExtensionBundle/team``), which owns its keychain items; empty means
    /// an unsigned bundle's: its containing app's bundle identifier.
    public var team = ""

    public init(bundlePath: String, executablePath: String, bundleIdentifier: String, containingAppBundleIdentifier: String,
                principalClass: String, point: ExtensionPoint, appGroups: [String: String]) {
        self.bundlePath = bundlePath
        self.executablePath = executablePath
        self.bundleIdentifier = bundleIdentifier
        self.containingAppBundleIdentifier = containingAppBundleIdentifier
        self.principalClass = principalClass
        self.point = point
        self.appGroups = appGroups
    }

    /// The executable's file name, as the kernel names the process.
    public var executableName: String { URL(fileURLWithPath: executablePath).lastPathComponent }
}

extension ExtensionDescriptor {
    /// The descriptor for a loaded extension bundle.
    /// - Parameter appGroups: App Group identifier -> container directory, for the groups the extension may use.
    public init(bundle: ExtensionBundle, appGroups: [String: String]) {
        self.init(bundlePath: bundle.url.path, executablePath: bundle.executableURL.path,
                  bundleIdentifier: bundle.bundleIdentifier,
                  containingAppBundleIdentifier: bundle.containingAppBundleIdentifier ?? "",
                  principalClass: bundle.principalClass ?? bundle.mainStoryboard ?? "",
                  point: bundle.extensionPoint, appGroups: appGroups)
        keychainAccessGroups = bundle.keychainAccessGroups
        team = bundle.team
    }
}
