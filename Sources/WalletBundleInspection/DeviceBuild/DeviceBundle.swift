import Foundation
import WalletWire

/// One bundle of a device build (the app or one of its extensions) as read from the build's
/// files: what the checks look at, with the paths their findings point to.
struct DeviceBundle {
    /// The bundle directory inside the build's file tree (`Payload/MyIssuer.app`).
    var path: String
    /// The directory name (`MyIssuer.app`, `IssuerExtension.appex`).
    var name: String
    /// Info.plist as findings name it.
    var infoPath: String
    /// The whole Info.plist.
    var info: [String: PropertyListValue]
    /// `CFBundleIdentifier`, nil when missing or not a string.
    var bundleIdentifier: String?
    /// The executable as findings name it, nil when the Info.plist names none.
    var executablePath: String?
    /// The parsed executable, nil when it is missing or not Mach-O.
    var executable: MachOExecutable?
    /// The entitlements a device enforces (signed into the executable, or from a loose file as
    /// a fallback), nil when they could not be read at all.
    var entitlements: [String: PropertyListValue]?
    /// Where ``entitlements`` came from, as findings name it: the executable or the loose file.
    var entitlementsPath: String
    /// Whether ``entitlements`` were signed into the executable (false: the loose-file fallback).
    var entitlementsAreSigned = true
    /// `embedded.mobileprovision`, when the bundle has a readable one.
    var profile: ProvisioningProfile?
    /// `embedded.mobileprovision` as findings name it.
    var profilePath: String

    /// `NSExtension.NSExtensionPointIdentifier`, for an extension.
    var extensionPointIdentifier: String? {
        info["NSExtension"]?.dictionaryValue?["NSExtensionPointIdentifier"]?.stringValue
    }

    /// `NSExtension.NSExtensionAttributes`, for an extension that has them.
    var extensionAttributes: [String: PropertyListValue]? {
        info["NSExtension"]?.dictionaryValue?["NSExtensionAttributes"]?.dictionaryValue
    }

    /// "MyIssuer.app's signed entitlements", or "... entitlements file" for the fallback.
    var entitlementsDescription: String {
        "\(name)'s \(entitlementsAreSigned ? "signed entitlements" : "entitlements file")"
    }

    /// A string entitlement.
    func entitlement(_ key: String) -> String? {
        entitlements?[key]?.stringValue
    }

    /// An array-of-strings entitlement, empty when absent.
    func entitlementList(_ key: String) -> [String] {
        entitlements?[key]?.arrayValue?.compactMap(\.stringValue) ?? []
    }

    /// The team identifier the build was signed for: `com.apple.developer.team-identifier`, else
    /// the prefix of `application-identifier`.
    var teamIdentifier: String? {
        if let team = entitlement("com.apple.developer.team-identifier") { return team }
        guard let applicationIdentifier = entitlement("application-identifier"),
              let dot = applicationIdentifier.firstIndex(of: ".") else { return nil }
        return String(applicationIdentifier[..<dot])
    }
}

/// A device build's app with its extensions, as the checks see it.
struct DeviceBuild {
    var app: DeviceBundle
    /// Every `.appex` in the app's PlugIns that could be read, in name order.
    var extensions: [DeviceBundle]
    /// The extensions that plug into one of the registry's (Wallet's) points.
    var walletExtensions: [DeviceBundle]
}

extension Array where Element == ValidationFinding {
    mutating func append(_ severity: ValidationFinding.Severity, _ check: DeviceBuildCheck, _ path: String, _ key: String, _ problem: String) {
        append(ValidationFinding(severity, path: path, key: key, problem: problem, check: check.rawValue))
    }
}
