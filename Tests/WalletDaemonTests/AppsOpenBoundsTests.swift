import Foundation
import Testing
import WalletDaemon
import WalletTestSupport
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// `apps.open` runs the issuer's app under its extensions' bounds (issue 31, break 4): the
/// daemon's container quota, which a client may tighten for its opening but never loosen.
@Suite(.serialized, .timeLimit(.minutes(2)),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
struct AppsOpenBoundsTests {
    /// Writes six files of 16 MB into its container, then waits and exits 0.
    static let fillContainerApp = """
        #!/usr/bin/python3
        import json, os, time
        container = list(json.loads(os.environ["WALLET_EXTENSION_APP_GROUPS"]).values())[0]
        for i in range(6):
            with open(os.path.join(container, "fill%d" % i), "wb") as f:
                f.write(b"\\0" * (16 << 20))
        time.sleep(8)
        """

    static func hostileApps() throws -> URL {
        let apps = try appsDirectory(with: [ExampleBundles.pythonIssuerApp])
        let app = apps.appendingPathComponent("PythonIssuer.app")
        let info = try PropertyListSerialization.propertyList(from: Data(contentsOf: app.appendingPathComponent("Info.plist")), format: nil)
        let name = try #require((info as? [String: Any])?["CFBundleExecutable"] as? String)
        let executable = app.appendingPathComponent(name)
        try FileManager.default.removeItem(at: executable)
        try Data(fillContainerApp.utf8).write(to: executable)
        _ = chmod(executable.path, 0o755)
        return apps
    }

    @Test("the daemon's --container-quota stops an app writing past it, and a client's lower quota does too",
          arguments: [true, false])
    func quotaHoldsForAppsOpen(daemonQuota: Bool) async throws {
        let daemon = try await DaemonProcess(apps: try Self.hostileApps(),
                                             arguments: daemonQuota ? ["--container-quota", "64MB"] : []).waitUntilServing()
        var params: [String: JSONValue] = ["app": .string("PythonIssuer")]
        // A client asking for more than the daemon's quota gets the daemon's; asking for less gets its own.
        params["containerQuotaBytes"] = .integer(daemonQuota ? 1 << 30 : 64 << 20)
        let started = ContinuousClock.now
        await #expect {
            _ = try await daemon.call("apps.open", .object(params))
        } throws: { error in
            "\(error)".contains("over its container quota") && "\(error)".contains("of 64")
        }
        #expect(ContinuousClock.now - started < .seconds(7))
    }
}
