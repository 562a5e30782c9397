import Foundation
import WalletWire

/// One problem found while loading a bundle, pinned to a file and a manifest key.
///
/// Its ``description`` is the line people read, for example:
///
///     error: /x/Issuer.app/PlugIns/W.appex/Info.plist: NSExtension.NSExtensionPrincipalClass: missing (required for com.apple.PassKit.issuer-provisioning)
public struct ValidationFinding: Sendable, Hashable, CustomStringConvertible {
    /// How much a finding matters: an error stops the bundle from loading, the others do not.
    public typealias Severity = FindingSeverity

    /// How much this finding matters.
    public var severity: Severity
    /// The file (or directory) the finding is about, as a file system path.
    public var path: String
    /// The manifest key, dotted for nested keys (`NSExtension.NSExtensionPointIdentifier`),
    /// or one of the pseudo-keys in ``ValidationFinding/Key`` for problems with a whole file or directory.
    public var key: String
    /// A sentence saying what is wrong, without a trailing period.
    public var problem: String
    /// The id of the check that found it (`app-groups`), for findings about device builds
    /// (`.ipa`, `.xcarchive`, built `.app`); docs/VALIDATION.md lists every one. Nil for the
    /// checks of source layouts.
    public var check: String?

    /// Creates a finding.
    /// - Parameters:
    ///   - severity: How much it matters.
    ///   - path: The file or directory it is about.
    ///   - key: The manifest key, or a pseudo-key from ``ValidationFinding/Key``.
    ///   - problem: What is wrong, as a sentence.
    ///   - check: The id of the check that found it, if it has one.
    public init(_ severity: Severity, path: String, key: String, problem: String, check: String? = nil) {
        self.severity = severity
        self.path = path
        self.key = key
        self.problem = problem
        self.check = check
    }

    /// The finding as one line: `severity: path: key: problem`.
    public var description: String {
        "\(severity.rawValue): \(path): \(key): \(problem)"
    }

    /// Whether this finding stops its bundle from loading.
    public var isError: Bool { severity == .error }
}

extension ValidationFinding {
    /// Keys used in findings: Info.plist and entitlements keys, and pseudo-keys for whole files.
    public enum Key {
        /// Pseudo-key: the file at the finding's path as a whole (missing, unreadable, not a dictionary).
        public static let file = "(file)"
        /// Pseudo-key: the bundle directory at the finding's path as a whole.
        public static let bundle = "(bundle)"
        /// Pseudo-key: a directory searched for `.app` bundles.
        public static let directory = "(directory)"
        /// Pseudo-key: a path given to the validator that is neither a bundle nor a directory of bundles.
        public static let path = "(path)"

        /// The bundle identifier (Info.plist).
        public static let bundleIdentifier = "CFBundleIdentifier"
        /// The executable name, relative to the bundle directory (Info.plist).
        public static let bundleExecutable = "CFBundleExecutable"
        /// The bundle type: `APPL` for apps, `XPC!` for app extensions (Info.plist).
        public static let bundlePackageType = "CFBundlePackageType"
        /// The lowest iOS version the bundle runs on (Info.plist).
        public static let minimumOSVersion = "MinimumOSVersion"
        /// The lowest macOS version the bundle runs on (Info.plist).
        public static let minimumSystemVersion = "LSMinimumSystemVersion"
        /// The `PlugIns` directory of an app, for findings about its set of extensions.
        public static let plugIns = "PlugIns"
        /// The extension attributes dictionary (Info.plist).
        public static let extensionDictionary = "NSExtension"
        /// The extension point the extension plugs into (Info.plist).
        public static let extensionPointIdentifier = "NSExtension.NSExtensionPointIdentifier"
        /// The class the extension instantiates for every request (Info.plist).
        public static let extensionPrincipalClass = "NSExtension.NSExtensionPrincipalClass"
        /// The storyboard a UI extension may use instead of a principal class (Info.plist).
        public static let extensionMainStoryboard = "NSExtension.NSExtensionMainStoryboard"
        /// The entitlement that lets Wallet load issuer-provisioning extensions (entitlements).
        public static let paymentPassProvisioning = "com.apple.developer.payment-pass-provisioning"
        /// The App Groups a bundle shares containers with (entitlements).
        public static let applicationGroups = "com.apple.security.application-groups"
    }
}

extension Array where Element == ValidationFinding {
    /// Whether any finding is an error.
    public var containsErrors: Bool { contains(where: \.isError) }

    mutating func error(_ path: String, _ key: String, _ problem: String) {
        append(ValidationFinding(.error, path: path, key: key, problem: problem))
    }

    /// `value` as a string with more than white space, or nil with an error at `key` when it
    /// is another type or empty.
    mutating func nonEmptyString(_ value: PropertyListValue, path: String, key: String) -> String? {
        guard let string = value.stringValue else {
            error(path, key, "is \(value.typeName), not a string")
            return nil
        }
        guard !string.trimmingCharacters(in: .whitespaces).isEmpty else {
            error(path, key, "is empty")
            return nil
        }
        return string
    }

    mutating func warning(_ path: String, _ key: String, _ problem: String) {
        append(ValidationFinding(.warning, path: path, key: key, problem: problem))
    }

    mutating func note(_ path: String, _ key: String, _ problem: String) {
        append(ValidationFinding(.note, path: path, key: key, problem: problem))
    }
}
