import Foundation
import Testing
import WalletTestSupport

/// An app whose App Group identifier would put its container outside `<state>/AppGroups/` is
/// refused when run, naming the identifier, and never touches the state (issue 12, item 2).
@Suite("wallet-host app open with an App Group identifier that names a directory", .timeLimit(.minutes(1)))
struct AppGroupIdentifierCommandTests {
    /// Writes `Bad.app`, whose executable would write `passes.json` into its App Group container.
    private func writeApp(in directory: URL, appGroup: String) throws -> URL {
        let app = directory.appendingPathComponent("Bad.app", isDirectory: true)
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        let info: [String: Any] = ["CFBundleIdentifier": "com.example.bad", "CFBundleExecutable": "Bad", "CFBundlePackageType": "APPL"]
        let entitlements: [String: Any] = ["com.apple.developer.payment-pass-provisioning": true,
                                           "com.apple.security.application-groups": [appGroup]]
        for (name, plist) in [("Info.plist", info), ("Bad.entitlements", entitlements)] {
            try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
                .write(to: app.appendingPathComponent(name))
        }
        let executable = app.appendingPathComponent("Bad")
        try Data("#!/bin/sh\nexit 0\n".utf8).write(to: executable)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable.path)
        return app
    }

    @Test("app open refuses the app, naming the identifier", arguments: ["..", ".", ""])
    func refused(_ identifier: String) throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-bad-group")
        defer { directory.remove() }
        let app = try writeApp(in: directory.url, appGroup: identifier)
        let state = directory.url.appendingPathComponent("state")
        let run = try WalletHostCommand.run(["app", "open", app.path, "--state", state.path])
        #expect(run.status == 1)
        #expect(run.standardError.contains("\"\(identifier)\""), "\(run.standardError)")
        #expect(!FileManager.default.fileExists(atPath: state.path))
    }
}
