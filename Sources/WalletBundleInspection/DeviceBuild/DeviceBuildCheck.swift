/// Every check `wallet-host validate` runs on a device build (`.ipa`, `.xcarchive`, built
/// `.app`), each with what a device does when the build fails it.
///
/// Every finding about a device build carries one of these ids (``ValidationFinding/check``);
/// docs/VALIDATION.md lists them all in its findings table, and a test keeps the two in step.
public enum DeviceBuildCheck: String, CaseIterable, Sendable {
    /// The container: a readable zip with one `Payload/NAME.app`, or an `.xcarchive` with one
    /// `Products/Applications/NAME.app`; no `..` names, duplicates, overlapping entries or bombs.
    case container = "container"
    /// Each bundle's Info.plist (XML or binary) reads as a dictionary with an identifier and executable.
    case infoPlist = "info-plist"
    /// Each executable is Mach-O with an arm64 slice and an embedded code signature
    /// (`LC_CODE_SIGNATURE`) the entitlements can be read from.
    case codeSignature = "code-signature"
    /// `com.apple.developer.payment-pass-provisioning` is signed into the app and both Wallet extensions.
    case paymentPassEntitlement = "payment-pass-entitlement"
    /// The App Group sets of the app, the non-UI and the UI extension are equal.
    case appGroups = "app-groups"
    /// The keychain access groups are the same across the app and its Wallet extensions, and
    /// each starts with the team's prefix.
    case keychainGroups = "keychain-groups"
    /// Every extension's bundle identifier starts with the app's and a dot.
    case extensionIdentifierPrefix = "extension-identifier-prefix"
    /// The non-UI and the UI issuer-provisioning extension points are present, once each.
    case extensionPoints = "extension-points"
    /// `NSExtensionPrincipalClass` is set and, where the executable has symbols, names a class in it.
    case principalClass = "principal-class"
    /// `MinimumOSVersion` is at least 14.0 for the Wallet extensions and not above the target iOS.
    case minimumOSVersion = "minimum-os-version"
    /// No keys left over from the Xcode template a guide starts from (`IntentsSupported`,
    /// `NSExtensionActivationRule`).
    case templateLeftovers = "template-leftovers"
    /// `CFBundleSupportedPlatforms` and `DTPlatformName` say iPhoneOS, not the simulator.
    case devicePlatform = "device-platform"
    /// `embedded.mobileprovision` allows every signed entitlement and has not expired.
    case provisioningProfile = "provisioning-profile"

    /// The check in a few words, for the findings table and JUnit.
    public var title: String {
        switch self {
        case .container: "the .ipa or .xcarchive holds exactly one app and reads safely"
        case .infoPlist: "Info.plist (XML or binary) with CFBundleIdentifier and CFBundleExecutable"
        case .codeSignature: "Mach-O executable with an arm64 slice and an embedded code signature"
        case .paymentPassEntitlement: "payment-pass-provisioning signed into the app and both extensions"
        case .appGroups: "no extension in an App Group its app lacks (a subset of the app's groups, or none, is fine)"
        case .keychainGroups: "the same keychain access groups, each with the team prefix"
        case .extensionIdentifierPrefix: "extension bundle identifiers prefixed by the app's"
        case .extensionPoints: "both issuer-provisioning extension points, once each"
        case .principalClass: "NSExtensionPrincipalClass set, and a class of that name in the executable"
        case .minimumOSVersion: "MinimumOSVersion at least 14.0 and not above the target iOS"
        case .templateLeftovers: "no Intents or Action extension template keys left over"
        case .devicePlatform: "built for iPhoneOS, not the simulator"
        case .provisioningProfile: "embedded.mobileprovision allows the signed entitlements and is current"
        }
    }

    /// What a device does with a build that fails the check.
    public var symptom: String {
        switch self {
        case .container: "Xcode, Transporter or the device refuses the archive; nothing is installed"
        case .infoPlist: "the device refuses to install the app, or installs it without the extension"
        case .codeSignature: "the device refuses to install the app (an unsigned executable cannot launch)"
        case .paymentPassEntitlement: "Wallet will not list the app under \"From Apps on Your iPhone\""
        case .appGroups: "the extension cannot read the app's data; Wallet reports walletExtensionAppGroupIDNotFound"
        case .keychainGroups: "the extension cannot read the credentials the app saved (errSecItemNotFound), or the install fails with invalid entitlements"
        case .extensionIdentifierPrefix: "the device refuses to install the app"
        case .extensionPoints: "Wallet will not list the app (no non-UI extension) or cannot authenticate (no UI extension)"
        case .principalClass: "the extension process crashes at launch and Wallet does not list the app"
        case .minimumOSVersion: "the extension is not loaded, or the app does not install on the target iOS"
        case .templateLeftovers: "the extension registers as something it is not, and App Review may reject the build"
        case .devicePlatform: "a simulator build does not install on a device"
        case .provisioningProfile: "the device refuses to install the app (\"The executable was signed with invalid entitlements\") or it stops launching when the profile expires"
        }
    }
}
