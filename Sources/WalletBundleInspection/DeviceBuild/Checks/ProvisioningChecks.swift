import Foundation
import WalletWire

/// The checks on each bundle's `embedded.mobileprovision`: every signed entitlement allowed,
/// and the profile not expired.
struct ProvisioningChecks {
    var options: DeviceBuildOptions

    /// A profile expiring within this many days gets a warning.
    static let expiryWarningDays = 30
    private typealias Key = ValidationFinding.Key

    func run(on build: DeviceBuild, findings: inout [ValidationFinding]) {
        for bundle in [build.app] + build.extensions {
            guard let profile = bundle.profile else { continue }
            checkExpiry(of: profile, bundle: bundle, findings: &findings)
            checkAllowedEntitlements(of: profile, bundle: bundle, findings: &findings)
        }
    }

    private func checkExpiry(of profile: ProvisioningProfile, bundle: DeviceBundle, findings: inout [ValidationFinding]) {
        let key = "ExpirationDate"
        guard let expiry = profile.expirationDate else {
            findings.append(.error, .provisioningProfile, bundle.profilePath, key, "missing; the device cannot tell whether the profile is valid and refuses it")
            return
        }
        let day = expiry.formatted(.iso8601.year().month().day())
        if expiry <= options.now {
            findings.append(.error, .provisioningProfile, bundle.profilePath, key,
                            "the profile\(profile.name.map { " \"\($0)\"" } ?? "") expired on \(day); the device refuses to install the app, and an installed copy stops launching")
        } else if expiry.timeIntervalSince(options.now) < Double(Self.expiryWarningDays) * 86_400 {
            findings.append(.warning, .provisioningProfile, bundle.profilePath, key,
                            "the profile\(profile.name.map { " \"\($0)\"" } ?? "") expires on \(day), within \(Self.expiryWarningDays) days; the app stops launching then")
        }
    }

    private func checkAllowedEntitlements(of profile: ProvisioningProfile, bundle: DeviceBundle, findings: inout [ValidationFinding]) {
        guard let signed = bundle.entitlements else { return }
        let allowed = profile.entitlements
        for key in signed.keys.sorted() {
            let value = signed[key]!
            guard let allowedValue = allowed[key] else {
                findings.append(.error, .provisioningProfile, bundle.profilePath, key,
                                "is signed into \(bundle.name) but the provisioning profile does not allow it; "
                                    + "the device refuses to install the app (\"The executable was signed with invalid entitlements\")")
                continue
            }
            guard Self.allows(allowedValue, value) else {
                findings.append(.error, .provisioningProfile, bundle.profilePath, key,
                                "is signed into \(bundle.name) as \(Self.describe(value)), but the provisioning profile allows only \(Self.describe(allowedValue)); "
                                    + "the device refuses to install the app (\"The executable was signed with invalid entitlements\")")
                continue
            }
        }
    }

    /// Whether a profile's value allows a signed one: equal, `true` for any Boolean, a string
    /// pattern (`*`, `TEAMID.*`) matching, or every signed element allowed by some profile element.
    static func allows(_ allowed: PropertyListValue, _ signed: PropertyListValue) -> Bool {
        switch (allowed, signed) {
        case (.bool(true), .bool):
            true
        case (.string(let pattern), .string(let value)):
            pattern == value || pattern == "*" || (pattern.hasSuffix("*") && value.hasPrefix(pattern.dropLast()))
        case (.array(let patterns), .string):
            patterns.contains { allows($0, signed) }
        case (.array, .array(let values)), (.string, .array(let values)):
            values.allSatisfy { allows(allowed, $0) }
        default:
            allowed == signed
        }
    }

    private static func describe(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let string): "\"\(string)\""
        case .bool(let bool): bool ? "true" : "false"
        case .array(let elements): "[" + elements.map(describe).joined(separator: ", ") + "]"
        default: value.typeName
        }
    }
}
