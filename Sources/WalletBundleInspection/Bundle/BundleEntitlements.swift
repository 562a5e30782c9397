import Foundation
import ExtensionModel
import WalletWire

/// The entitlements a bundle declares in its optional `.entitlements` property list.
public struct BundleEntitlements: Sendable, Hashable {
    /// The entitlements file that was read, or nil when the bundle has none.
    public var url: URL?
    /// Every entitlement, build variables expanded.
    public var values: [String: PropertyListValue]

    /// Creates entitlements from values already read.
    /// - Parameters:
    ///   - url: The file they came from, if any.
    ///   - values: The entitlements by key.
    public init(url: URL?, values: [String: PropertyListValue]) {
        self.url = url
        self.values = values
    }

    /// No entitlements file.
    public static let none = BundleEntitlements(url: nil, values: [:])

    /// Whether `com.apple.developer.payment-pass-provisioning` is `true`.
    public var paymentPassProvisioning: Bool {
        values[ValidationFinding.Key.paymentPassProvisioning]?.boolValue == true
    }

    /// The `com.apple.security.application-groups` identifiers, in file order.
    public var appGroups: [String] {
        values[ValidationFinding.Key.applicationGroups]?.arrayValue?.compactMap(\.stringValue) ?? []
    }
}

/// Finds and reads the `.entitlements` file at the top of a bundle directory.
enum EntitlementsReader {
    /// Reads the bundle's entitlements, reporting an unreadable file or a wrongly typed key.
    /// - Parameters:
    ///   - bundleURL: The `.app` or `.appex` directory.
    ///   - executableName: `CFBundleExecutable`; `<executable>.entitlements` is preferred.
    ///   - expander: Expands build variables in string values.
    /// - Returns: The entitlements, ``BundleEntitlements/none`` when there is no usable file.
    static func read(
        bundleURL: URL,
        executableName: String?,
        expander: BuildVariableExpander,
        findings: inout [ValidationFinding]
    ) -> BundleEntitlements {
        guard let fileURL = entitlementsFile(in: bundleURL, executableName: executableName, findings: &findings) else {
            return .none
        }
        let outcome = PropertyListFile.read(fileURL)
        guard case .dictionary(let raw, _) = outcome else {
            if let finding = outcome.finding(at: fileURL, missingProblem: "disappeared while being read") {
                findings.append(finding)
            }
            return .none
        }
        findings.append(contentsOf: outcome.duplicateKeyFindings(at: fileURL))
        let values = expander.expand(raw, skippingKeys: []) { keyPath, problems in
            findings.append(contentsOf: problems.map { $0.finding(path: fileURL.path, keyPath: keyPath) })
        }
        checkTypes(values, path: fileURL.path, findings: &findings)
        checkKeychainTypes(values, path: fileURL.path, findings: &findings)
        return BundleEntitlements(url: fileURL, values: values)
    }

    private static func entitlementsFile(
        in bundleURL: URL,
        executableName: String?,
        findings: inout [ValidationFinding]
    ) -> URL? {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: bundleURL.path)) ?? [])
            .filter { $0.hasSuffix(".entitlements") }
            .sorted()
        guard let first = names.first else { return nil }
        let preferred = [executableName, bundleURL.deletingPathExtension().lastPathComponent]
            .compactMap { $0.map { "\($0).entitlements" } }
            .first { names.contains($0) }
        if preferred == nil && names.count > 1 {
            findings.warning(bundleURL.path, ValidationFinding.Key.bundle,
                             "holds several entitlements files (\(names.joined(separator: ", "))) and none is named after the executable; using \(first)")
        }
        return bundleURL.appendingPathComponent(preferred ?? first)
    }

    private static func checkTypes(_ values: [String: PropertyListValue], path: String, findings: inout [ValidationFinding]) {
        let provisioningKey = ValidationFinding.Key.paymentPassProvisioning
        if let provisioning = values[provisioningKey], provisioning.boolValue == nil {
            findings.error(path, provisioningKey, "is \(provisioning.typeName), not a Boolean")
        }
        let groupsKey = ValidationFinding.Key.applicationGroups
        for (offset, group) in stringElements(of: groupsKey, in: values, path: path, findings: &findings) {
            if let problem = AppGroupIdentifier.problem(group) {
                findings.error(path, "\(groupsKey)[\(offset)]",
                               "\"\(group)\" \(problem); the host names the group's container directory after it")
            } else if !group.hasPrefix("group.") {
                findings.warning(path, "\(groupsKey)[\(offset)]",
                                 "\"\(group)\" does not start with \"group.\", which iOS requires of App Group identifiers")
            }
        }
    }
}
