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

    /// The team of an unsigned extension: its containing app's bundle identifier; for a lone
    /// extension, the app identifier its own implies (iOS requires `<app id>.<name>`, so
    /// `com.example.issuer.WNonUIExt` is `com.example.issuer`'s), or its own without a dot.
    public static func unsignedTeam(bundleIdentifier: String, containingAppBundleIdentifier: String?) -> String {
        if let containingAppBundleIdentifier { return containingAppBundleIdentifier }
        guard let dot = bundleIdentifier.lastIndex(of: "."), dot != bundleIdentifier.startIndex else { return bundleIdentifier }
        return String(bundleIdentifier[..<dot])
    }
}
