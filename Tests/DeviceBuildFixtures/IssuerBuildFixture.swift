import Foundation

/// A complete issuer app as Xcode ships it, described as values and written as an `.ipa`, an
/// `.xcarchive` or a built `.app`: binary Info.plists, Mach-O executables with the entitlements
/// signed in, and an `embedded.mobileprovision` per bundle. ``myIssuer(expiring:)`` passes
/// every check; tests change one thing and look for the one finding.
public struct IssuerBuildFixture {
    /// One bundle: the app or an extension.
    public struct Bundle {
        /// `MyIssuer.app`, `MyIssuerNonUI.appex`.
        public var directoryName: String
        public var executableName: String
        /// The Info.plist, written in binary as Xcode writes it in built products.
        public var info: [String: Any]
        /// Write the Info.plist as XML instead.
        public var xmlInfoPlist = false
        /// The entitlements signed into the executable.
        public var entitlements: [String: Any]
        /// How the executable is signed; `nil` signs ``entitlements`` as XML and DER.
        public var signature: MachOBuilder.Signature?
        /// Symbols the executable defines; empty makes it stripped.
        public var definedSymbols: [String]
        /// Write a universal binary with an x86_64 slice beside arm64.
        public var universal = false
        /// Only an x86_64 slice (a simulator build).
        public var simulatorOnly = false
        /// The embedded provisioning profile's property list; nil writes none.
        public var profile: [String: Any]?
        /// Replace the executable with these bytes.
        public var executableOverride: Data?
        /// Bytes appended to the executable, standing in for code (benchmarks use it for size).
        public var executablePadding = Data()

        /// The executable's bytes.
        public func executable() -> Data {
            if let executableOverride { return executableOverride + executablePadding }
            let plist = (try? PropertyListSerialization.data(fromPropertyList: entitlements, format: .xml, options: 0)) ?? Data()
            let arm64 = MachOBuilder(signature: signature ?? .entitlements(plist), definedSymbols: definedSymbols)
            var intel = arm64
            intel.cpuType = MachOBuilder.cpuTypeX86_64
            if simulatorOnly { return intel.thin() + executablePadding }
            return (universal ? MachOBuilder.universal([arm64, intel]) : arm64.thin()) + executablePadding
        }

        /// Every file of the bundle, by path inside it.
        public func files() throws -> [(path: String, contents: Data)] {
            var files = [
                ("Info.plist", try PropertyListSerialization.data(fromPropertyList: info, format: xmlInfoPlist ? .xml : .binary, options: 0)),
                (executableName, executable()),
            ]
            if let profile {
                let plist = try PropertyListSerialization.data(fromPropertyList: profile, format: .xml, options: 0)
                files.append(("embedded.mobileprovision", CMSEnvelope.wrap(plist)))
            }
            return files
        }

        /// `NSExtension.NSExtensionAttributes` (created when missing) with `key` set.
        public mutating func setExtensionAttribute(_ key: String, _ value: Any) {
            var extensionDictionary = info["NSExtension"] as? [String: Any] ?? [:]
            var attributes = extensionDictionary["NSExtensionAttributes"] as? [String: Any] ?? [:]
            attributes[key] = value
            extensionDictionary["NSExtensionAttributes"] = attributes
            info["NSExtension"] = extensionDictionary
        }
    }

    public var app: Bundle
    public var extensions: [Bundle]

    public static let teamIdentifier = "A1B2C3D4E5"
    public static let appIdentifier = "com.example.myissuer"
    public static let appGroup = "group.com.example.myissuer"
    public static let keychainGroup = "A1B2C3D4E5.com.example.myissuer.shared"

    /// A correct build: app `MyIssuer.app` with the non-UI extension `MyIssuerNonUI.appex` and
    /// the UI extension `MyIssuerUI.appex`, all signed with the same App Group and keychain
    /// group, each with a profile that allows its entitlements until `expiring`.
    public static func myIssuer(expiring: Date = Date(timeIntervalSinceNow: 365 * 86_400)) -> IssuerBuildFixture {
        func bundle(_ name: String, _ suffix: String?, packageType: String, extensionDictionary: [String: Any]?, symbols: [String]) -> Bundle {
            let identifier = suffix.map { "\(appIdentifier).\($0)" } ?? appIdentifier
            var info: [String: Any] = [
                "CFBundleIdentifier": identifier, "CFBundleExecutable": name, "CFBundlePackageType": packageType,
                "CFBundleName": name, "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1",
                "CFBundleSupportedPlatforms": ["iPhoneOS"], "DTPlatformName": "iphoneos", "MinimumOSVersion": "15.0",
            ]
            info["NSExtension"] = extensionDictionary
            let entitlements: [String: Any] = [
                "application-identifier": "\(teamIdentifier).\(identifier)",
                "com.apple.developer.team-identifier": teamIdentifier,
                "com.apple.developer.payment-pass-provisioning": true,
                "com.apple.security.application-groups": [appGroup],
                "keychain-access-groups": [keychainGroup],
                "get-task-allow": false,
            ]
            var allowed = entitlements
            allowed["keychain-access-groups"] = ["\(teamIdentifier).*"]
            let profile: [String: Any] = [
                "Name": "MyIssuer Distribution", "TeamIdentifier": [teamIdentifier], "UUID": "6A3F1C2B-0000-4000-8000-00000000000\(suffix == nil ? 1 : suffix == "NonUI" ? 2 : 3)",
                "CreationDate": expiring.addingTimeInterval(-365 * 86_400), "ExpirationDate": expiring, "Entitlements": allowed,
            ]
            return Bundle(directoryName: suffix == nil ? "\(name).app" : "\(name).appex", executableName: name, info: info,
                          entitlements: entitlements, signature: nil, definedSymbols: symbols, profile: profile)
        }
        let app = bundle("MyIssuer", nil, packageType: "APPL", extensionDictionary: nil, symbols: ["_main"])
        let nonUI = bundle("MyIssuerNonUI", "NonUI", packageType: "XPC!", extensionDictionary: [
            "NSExtensionPointIdentifier": "com.apple.PassKit.issuer-provisioning",
            "NSExtensionPrincipalClass": "MyIssuerNonUI.IssuerHandler",
        ], symbols: ["_OBJC_CLASS_$__TtC13MyIssuerNonUI13IssuerHandler", "_main"])
        let ui = bundle("MyIssuerUI", "UI", packageType: "XPC!", extensionDictionary: [
            "NSExtensionPointIdentifier": "com.apple.PassKit.issuer-provisioning.authorization",
            "NSExtensionPrincipalClass": "MyIssuerUI.AuthorizationViewController",
        ], symbols: ["_OBJC_CLASS_$__TtC10MyIssuerUI27AuthorizationViewController", "_main"])
        return IssuerBuildFixture(app: app, extensions: [nonUI, ui])
    }

    /// Bytes that compress about as well as compiled code (roughly 2 to 1): pseudo-random
    /// words with every other one zero, fixed by `seed`.
    public static func codeLikeBytes(count: Int, seed: UInt64 = 1) -> Data {
        var state = seed | 1
        var words = [UInt64](repeating: 0, count: (count + 7) / 8)
        for index in stride(from: 0, to: words.count, by: 2) {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            words[index] = state
        }
        return words.withUnsafeBytes { Data($0.prefix(count)) }
    }

    /// The extension with this directory name (`MyIssuerUI.appex`).
    public subscript(extension directoryName: String) -> Bundle {
        get { extensions.first { $0.directoryName == directoryName }! }
        set { extensions[extensions.firstIndex { $0.directoryName == directoryName }!] = newValue }
    }

    /// Every file of the app, by path from the directory holding `MyIssuer.app`.
    public func files() throws -> [(path: String, contents: Data)] {
        var files = try app.files().map { ("\(app.directoryName)/\($0.path)", $0.contents) }
        for bundle in extensions {
            files += try bundle.files().map { ("\(app.directoryName)/PlugIns/\(bundle.directoryName)/\($0.path)", $0.contents) }
        }
        return files
    }

    /// The app as an `.ipa`: a zip with `Payload/MyIssuer.app`.
    public func ipa() throws -> Data {
        var writer = ZipWriter()
        for (path, contents) in try files() {
            writer.add("Payload/\(path)", contents)
        }
        return writer.archive()
    }

    /// Writes the `.ipa` to `url`.
    public func writeIPA(to url: URL) throws {
        try ipa().write(to: url)
    }

    /// Writes an `.xcarchive` directory at `url` with the app in `Products/Applications`.
    public func writeXCArchive(to url: URL) throws {
        try write(into: url.appendingPathComponent("Products/Applications"))
        let info: [String: Any] = ["ArchiveVersion": 2, "Name": "MyIssuer"]
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0).write(to: url.appendingPathComponent("Info.plist"))
    }

    /// Writes the `.app` directory into `directory`.
    /// - Returns: The `.app`'s URL.
    @discardableResult
    public func write(into directory: URL) throws -> URL {
        for (path, contents) in try files() {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try contents.write(to: url)
        }
        return directory.appendingPathComponent(app.directoryName)
    }
}
