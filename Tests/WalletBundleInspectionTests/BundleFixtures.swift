import Foundation
import Testing
import Wallet
import WalletBundleInspection
import WalletTestSupport
import WalletWire

/// How a fixture writes a property list.
enum PlistFormat {
    case xml
    case binary
}

/// What a fixture puts where `CFBundleExecutable` points.
enum ExecutableFixture {
    /// `#!/bin/sh` script, mode 755.
    case script
    /// The same script, mode 644.
    case notExecutable
    /// No file at all.
    case none
    /// Mach-O magic bytes, mode 755: a binary built for iOS or macOS.
    case machO
    /// A zero-byte file, mode 755.
    case empty
    /// A symbolic link to this absolute path.
    case symlink(to: String)
}

/// Writes property lists, executables and entitlements the way real bundles hold them.
enum BundleFileWriter {
    static func writePlist(_ dictionary: [String: Any], to url: URL, format: PlistFormat) throws {
        let serialization: PropertyListSerialization.PropertyListFormat = format == .xml ? .xml : .binary
        let data = try PropertyListSerialization.data(fromPropertyList: dictionary, format: serialization, options: 0)
        try data.write(to: url)
    }

    static func writeExecutable(_ kind: ExecutableFixture, at url: URL) throws {
        let script = Data("#!/bin/sh\nexit 0\n".utf8)
        switch kind {
        case .none:
            return
        case .script, .notExecutable:
            try script.write(to: url)
            let mode = if case .script = kind { 0o755 } else { 0o644 }
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
        case .machO, .empty:
            let bytes: [UInt8] = if case .machO = kind { [0xCF, 0xFA, 0xED, 0xFE, 0x07, 0x00, 0x00, 0x01] } else { [] }
            try Data(bytes).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        case .symlink(let target):
            try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: target)
        }
    }
}

/// Sets a dotted key path (`NSExtension.NSExtensionPrincipalClass`) in a nested property list dictionary;
/// nil removes the key.
func setting(_ keyPath: String, to value: Any?, in dictionary: [String: Any]) -> [String: Any] {
    var result = dictionary
    let keys = keyPath.split(separator: ".", maxSplits: 1).map(String.init)
    if keys.count == 1 {
        result[keys[0]] = value
    } else {
        let nested = result[keys[0]] as? [String: Any] ?? [:]
        result[keys[0]] = setting(keys[1], to: value, in: nested)
    }
    return result
}

/// An `.appex` to write into an app's `PlugIns` (or anywhere).
struct ExtensionFixture {
    var name: String
    var info: [String: Any]
    var entitlements: [String: Any]? = BundleFixtureDefaults.entitlements
    var executable: ExecutableFixture = .script
    var format: PlistFormat = .xml

    /// Wallet's non-UI extension, its principal class spelled with `$(PRODUCT_MODULE_NAME)`.
    static func nonUI(name: String = "WNonUIExt", appIdentifier: String = BundleFixtureDefaults.appIdentifier) -> Self {
        ExtensionFixture(name: name, info: [
            "CFBundleIdentifier": "\(appIdentifier).\(name)",
            "CFBundleExecutable": name,
            "CFBundlePackageType": "XPC!",
            "MinimumOSVersion": "14.0",
            "NSExtension": [
                "NSExtensionPointIdentifier": WalletExtensionPoint.nonUI,
                "NSExtensionPrincipalClass": "$(PRODUCT_MODULE_NAME).\(name)Handler",
                "NSExtensionAttributes": ["IssuerExtensionIdentifier": "${PRODUCT_BUNDLE_IDENTIFIER}"],
            ] as [String: Any],
        ])
    }

    /// Wallet's UI (authorization) extension.
    static func ui(name: String = "WUIExt", appIdentifier: String = BundleFixtureDefaults.appIdentifier) -> Self {
        ExtensionFixture(name: name, info: [
            "CFBundleIdentifier": "\(appIdentifier).\(name)",
            "CFBundleExecutable": name,
            "CFBundlePackageType": "XPC!",
            "MinimumOSVersion": "14.0",
            "NSExtension": [
                "NSExtensionPointIdentifier": WalletExtensionPoint.authorization,
                "NSExtensionPrincipalClass": "$(PRODUCT_MODULE_NAME).AuthorizationViewController",
            ] as [String: Any],
        ])
    }

    /// This fixture with one Info.plist key (dotted for nested keys) set, or removed when `value` is nil.
    func setting(_ keyPath: String, to value: Any?) -> Self {
        var copy = self
        copy.info = WalletBundleInspectionTests.setting(keyPath, to: value, in: info)
        return copy
    }

    var executableName: String { info["CFBundleExecutable"] as? String ?? name }

    @discardableResult
    func write(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("\(name).appex", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try BundleFileWriter.writePlist(info, to: url.appendingPathComponent("Info.plist"), format: format)
        if let entitlements {
            try BundleFileWriter.writePlist(entitlements, to: url.appendingPathComponent("\(name).entitlements"), format: format)
        }
        try BundleFileWriter.writeExecutable(executable, at: url.appendingPathComponent(executableName))
        return url
    }
}

/// An `.app` with its extensions.
struct AppFixture {
    var name = "Issuer"
    var info: [String: Any] = [
        "CFBundleIdentifier": BundleFixtureDefaults.appIdentifier,
        "CFBundleExecutable": "Issuer",
        "CFBundlePackageType": "APPL",
    ]
    var entitlements: [String: Any]? = BundleFixtureDefaults.entitlements
    var executable: ExecutableFixture = .script
    var extensions: [ExtensionFixture] = [.nonUI(), .ui()]

    /// An app whose identifier, executable and extensions are all derived from `name`.
    static func named(_ name: String) -> Self {
        let identifier = "com.example.\(name.lowercased())"
        var app = AppFixture(name: name)
        app.info["CFBundleIdentifier"] = identifier
        app.info["CFBundleExecutable"] = name
        app.extensions = [.nonUI(appIdentifier: identifier), .ui(appIdentifier: identifier)]
        return app
    }

    @discardableResult
    func write(in directory: URL) throws -> URL {
        let url = directory.appendingPathComponent("\(name).app", isDirectory: true)
        let plugIns = url.appendingPathComponent("PlugIns", isDirectory: true)
        try FileManager.default.createDirectory(at: plugIns, withIntermediateDirectories: true)
        try BundleFileWriter.writePlist(info, to: url.appendingPathComponent("Info.plist"), format: .xml)
        if let entitlements {
            try BundleFileWriter.writePlist(entitlements, to: url.appendingPathComponent("\(name).entitlements"), format: .xml)
        }
        try BundleFileWriter.writeExecutable(executable, at: url.appendingPathComponent(info["CFBundleExecutable"] as? String ?? name))
        for appExtension in extensions {
            try appExtension.write(in: plugIns)
        }
        return url
    }
}

enum BundleFixtureDefaults {
    static let appIdentifier = "com.example.issuer"
    static let appGroup = "group.com.example.issuer"
    static var entitlements: [String: Any] {
        [
            "com.apple.developer.payment-pass-provisioning": true,
            "com.apple.security.application-groups": [appGroup],
        ]
    }
}

/// Expects exactly one finding with this severity and key whose path ends as given and whose
/// problem mentions every fragment.
@discardableResult
func expectFinding(
    _ findings: [ValidationFinding],
    _ severity: ValidationFinding.Severity,
    key: String,
    pathSuffix: String,
    mentioning fragments: String...,
    sourceLocation: SourceLocation = #_sourceLocation
) -> ValidationFinding? {
    let matches = findings.filter {
        $0.severity == severity && $0.key == key && $0.path.hasSuffix(pathSuffix)
            && fragments.allSatisfy($0.problem.contains)
    }
    let rendered = findings.map(\.description).joined(separator: "\n")
    #expect(matches.count == 1, "expected one \(severity) at \(pathSuffix): \(key) mentioning \(fragments), got:\n\(rendered)",
            sourceLocation: sourceLocation)
    return matches.first
}

/// Expects no error findings at all.
func expectNoErrors(_ findings: [ValidationFinding], sourceLocation: SourceLocation = #_sourceLocation) {
    let errors = findings.filter { $0.severity == .error }.map(\.description).joined(separator: "\n")
    #expect(errors.isEmpty, "unexpected errors:\n\(errors)", sourceLocation: sourceLocation)
}

/// Writes the app into a fresh temporary directory, loads it with Wallet's registry, and removes it again.
func loadFixture(_ app: AppFixture) throws -> (app: AppBundle?, findings: [ValidationFinding]) {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    return BundleLoader.wallet.loadApp(at: try app.write(in: directory.url))
}

/// The app fixture with its first extension (the non-UI one by default) changed.
func withFirstExtension(_ change: (ExtensionFixture) -> ExtensionFixture) -> AppFixture {
    var app = AppFixture()
    app.extensions[0] = change(app.extensions[0])
    return app
}

extension AppFixture {
    /// Adds an executable script at a path relative to the app, after the bundle is written.
    func addingFile(_ relativePath: String) -> AppFixtureWithFiles {
        AppFixtureWithFiles(app: self, extraExecutables: [relativePath])
    }
}

/// An app fixture plus extra executable files, for tests that point `CFBundleExecutable` somewhere unusual.
struct AppFixtureWithFiles {
    var app: AppFixture
    var extraExecutables: [String]
}

/// Loads an app fixture that needs extra files.
func loadFixture(_ fixture: AppFixtureWithFiles) throws -> (app: AppBundle?, findings: [ValidationFinding]) {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let url = try fixture.app.write(in: directory.url)
    for path in fixture.extraExecutables {
        try BundleFileWriter.writeExecutable(.script, at: url.appendingPathComponent(path))
    }
    return BundleLoader.wallet.loadApp(at: url)
}
