/// The platform rules a bundle is checked against beyond the extension-point registry.
///
/// The loader itself is generic; Wallet's rules are `BundlePolicy.wallet`, declared with
/// Wallet's points in the Wallet module.
public struct BundlePolicy: Sendable, Hashable {
    /// The system that loads the extensions, as named in findings ("Wallet").
    public var hostName: String
    /// The entitlement the containing app and each of its extensions must have set to `true`,
    /// or nil when none is required.
    public var requiredEntitlement: String?
    /// The operating system whose version ``minimumOSVersion`` is, as named in findings ("iOS").
    public var platformName: String
    /// The lowest `MinimumOSVersion` an extension may declare, as version components (`[14, 0]`).
    public var minimumOSVersion: [Int]
    /// The error the platform reports when an extension cannot reach the app's App Group,
    /// named in App Group findings so people can match it with what they saw on a device.
    public var appGroupMismatchErrorName: String?

    /// Creates a policy.
    /// - Parameters:
    ///   - hostName: The system that loads the extensions, as named in findings.
    ///   - requiredEntitlement: The Boolean entitlement the app and its extensions need, if any.
    ///   - platformName: The operating system whose version `minimumOSVersion` is.
    ///   - minimumOSVersion: The lowest `MinimumOSVersion` an extension may declare.
    ///   - appGroupMismatchErrorName: The platform's error for an unreachable App Group, if it has one.
    public init(
        hostName: String,
        requiredEntitlement: String?,
        platformName: String,
        minimumOSVersion: [Int],
        appGroupMismatchErrorName: String?
    ) {
        self.hostName = hostName
        self.requiredEntitlement = requiredEntitlement
        self.platformName = platformName
        self.minimumOSVersion = minimumOSVersion
        self.appGroupMismatchErrorName = appGroupMismatchErrorName
    }

    /// Whether a version ("13.4" as `[13, 4]`) is below ``minimumOSVersion``; missing components count as 0.
    func isBelowMinimumOSVersion(_ version: [Int]) -> Bool {
        let length = max(version.count, minimumOSVersion.count)
        let padded = version + Array(repeating: 0, count: length - version.count)
        let minimum = minimumOSVersion + Array(repeating: 0, count: length - minimumOSVersion.count)
        return padded.lexicographicallyPrecedes(minimum)
    }

    /// ``minimumOSVersion`` as people write it ("14.0").
    var minimumOSVersionString: String {
        minimumOSVersion.map(String.init).joined(separator: ".")
    }
}
