import Foundation
import ExtensionModel

extension ExtensionDescriptor {
    /// The descriptor for a loaded extension bundle.
    /// - Parameter appGroups: App Group identifier -> container directory, for the groups the extension may use.
    public init(bundle: ExtensionBundle, appGroups: [String: String]) {
        self.init(bundlePath: bundle.url.path, executablePath: bundle.executableURL.path,
                  bundleIdentifier: bundle.bundleIdentifier,
                  containingAppBundleIdentifier: bundle.containingAppBundleIdentifier ?? "",
                  principalClass: bundle.principalClass ?? bundle.storyboardEntryClass ?? bundle.mainStoryboard ?? "",
                  point: bundle.extensionPoint, appGroups: appGroups)
        keychainAccessGroups = bundle.keychainAccessGroups
        team = bundle.team
    }
}
