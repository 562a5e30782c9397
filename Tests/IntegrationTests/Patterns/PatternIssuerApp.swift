import Foundation
import WalletTestSupport

/// An issuer app assembled for a test from the pattern extensions (Examples/PatternIssuer): the
/// networked non-UI extension and one UI extension, both told where the stand-in backend is
/// (`IssuerBackendURL` in their Info.plist); the containing app is a shell script with nothing
/// to set up.
enum PatternIssuerApp {
    /// Writes `NAME.app` under `directory` with `uiExecutable` (`PatternUIKitExt` or `PatternSwiftUIExt`);
    /// `uiInfo` adds keys to the UI extension's Info.plist (`PatternLanguage`).
    static func assemble(in directory: URL, name: String, bundleIdentifier: String, uiExecutable: String,
                         backend: URL, uiInfo: [String: String] = [:]) throws -> URL {
        let app = directory.appendingPathComponent("\(name).app")
        try write(bundle: app, executable: "\(name)App", identifier: bundleIdentifier, packageType: "APPL", extensionPoint: nil,
                  principalClass: nil, backend: nil, script: "#!/bin/sh\necho \"\(name)App: nothing to set up\"\n")
        try write(bundle: app.appendingPathComponent("PlugIns/PatternNonUIExt.appex"), executable: "PatternNonUIExt",
                  identifier: "\(bundleIdentifier).PatternNonUIExt", packageType: "XPC!",
                  extensionPoint: "com.apple.PassKit.issuer-provisioning", principalClass: "PatternNonUIExt.PatternNonUIExtHandler",
                  backend: backend, script: nil)
        let principal = uiExecutable == "PatternUIKitExt" ? "AuthorizationViewController" : "AuthorizationHostingController"
        try write(bundle: app.appendingPathComponent("PlugIns/\(uiExecutable).appex"), executable: uiExecutable,
                  identifier: "\(bundleIdentifier).\(uiExecutable)", packageType: "XPC!",
                  extensionPoint: "com.apple.PassKit.issuer-provisioning.authorization",
                  principalClass: "\(uiExecutable).\(principal)", backend: backend, script: nil, extraInfo: uiInfo)
        return app
    }

    private static func write(bundle: URL, executable: String, identifier: String, packageType: String, extensionPoint: String?,
                              principalClass: String?, backend: URL?, script: String?, extraInfo: [String: String] = [:]) throws {
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        var info: [String: Any] = [
            "CFBundleExecutable": executable, "CFBundleIdentifier": identifier, "CFBundleName": executable,
            "CFBundleDisplayName": executable, "CFBundlePackageType": packageType, "CFBundleInfoDictionaryVersion": "6.0",
            "CFBundleShortVersionString": "1.0", "CFBundleVersion": "1", "MinimumOSVersion": "14.0",
        ]
        if let extensionPoint, let principalClass {
            info["NSExtension"] = ["NSExtensionPointIdentifier": extensionPoint, "NSExtensionPrincipalClass": principalClass]
        }
        if let backend { info["IssuerBackendURL"] = backend.absoluteString }
        for (key, value) in extraInfo { info[key] = value }
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
            .write(to: bundle.appendingPathComponent("Info.plist"))
        let entitlements = ["com.apple.developer.payment-pass-provisioning": true]
        try PropertyListSerialization.data(fromPropertyList: entitlements, format: .xml, options: 0)
            .write(to: bundle.appendingPathComponent("\(executable).entitlements"))
        let destination = bundle.appendingPathComponent(executable)
        if let script {
            try Data(script.utf8).write(to: destination)
        } else {
            try FileManager.default.copyItem(at: BuildProducts.directory.appendingPathComponent(executable), to: destination)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: destination.path)
    }
}
