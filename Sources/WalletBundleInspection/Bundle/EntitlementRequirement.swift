import Foundation
import WalletWire

/// Checks that a bundle has the policy's required entitlement (Wallet's payment-pass-provisioning) set to `true`.
struct EntitlementRequirement {
    var policy: BundlePolicy

    /// Adds a warning when the entitlement is missing or false; a wrongly typed value was already an error.
    /// - Parameter consequence: What the host system would do without it ("would not load this extension on a device").
    func check(
        _ entitlements: BundleEntitlements,
        bundleURL: URL,
        consequence: String,
        findings: inout [ValidationFinding]
    ) {
        guard let key = policy.requiredEntitlement else { return }
        let outcome = "\(policy.hostName) \(consequence)"
        guard let fileURL = entitlements.url else {
            findings.warning(bundleURL.path, key, "missing: the bundle has no .entitlements file; \(outcome)")
            return
        }
        switch entitlements.values[key] {
        case nil:
            findings.warning(fileURL.path, key, "missing; \(outcome)")
        case .bool(false):
            findings.warning(fileURL.path, key, "is false; \(outcome)")
        default:
            break
        }
    }
}
