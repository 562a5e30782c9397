import WalletBundleInspection
import WalletHostRuntime
import WalletWire

// Wallet's extension points and bundle rules: the generic runtime and inspection are given
// these; nothing beneath this module names Wallet.

extension ExtensionPointRegistry {
    /// Apple Wallet's two issuer-provisioning points with Wallet's own deadlines and limits.
    public static let wallet = ExtensionPointRegistry(points: [
        ExtensionPoint(
            identifier: WalletExtensionPoint.nonUI,
            role: .nonUI,
            methods: [
                ExtensionMethod(name: WireMethod.status, deadline: .milliseconds(100),
                                consequence: DeadlineConsequence("Wallet would not list the app")),
                ExtensionMethod(name: WireMethod.passEntries, deadline: .seconds(20),
                                consequence: DeadlineConsequence("Wallet would halt the add-card attempt")),
                ExtensionMethod(name: WireMethod.remotePassEntries, deadline: .seconds(20),
                                consequence: DeadlineConsequence("Wallet would halt the add-card attempt")),
                ExtensionMethod(name: WireMethod.generateAddPaymentPassRequest, deadline: .seconds(20),
                                consequence: DeadlineConsequence("Wallet would show an error and ignore a later completion")),
            ],
            memoryLimitBytes: 55 * 1024 * 1024),
        ExtensionPoint(
            identifier: WalletExtensionPoint.authorization,
            role: .ui,
            methods: [
                ExtensionMethod(name: WireMethod.authorize, deadline: .seconds(300),
                                consequence: DeadlineConsequence("the user gave up waiting; Wallet would cancel")),
            ],
            memoryLimitBytes: 60 * 1024 * 1024),
    ])
}

extension BundlePolicy {
    /// Apple Wallet's rules for issuer-provisioning extensions (iOS 14 or later, the
    /// payment-pass-provisioning entitlement, one shared App Group).
    public static let wallet = BundlePolicy(
        hostName: "Wallet",
        requiredEntitlement: ValidationFinding.Key.paymentPassProvisioning,
        platformName: "iOS",
        minimumOSVersion: [14, 0],
        appGroupMismatchErrorName: "walletExtensionAppGroupIDNotFound")
}

extension BundleLoader {
    /// A loader for Wallet's issuer-provisioning extensions: Wallet's points and rules.
    public static let wallet = BundleLoader(registry: .wallet, policy: .wallet)
}

extension DeviceBuildValidator {
    /// A validator of device builds for Wallet's points and rules.
    public static func wallet(options: DeviceBuildOptions = DeviceBuildOptions()) -> DeviceBuildValidator {
        DeviceBuildValidator(registry: .wallet, policy: .wallet, options: options)
    }
}
