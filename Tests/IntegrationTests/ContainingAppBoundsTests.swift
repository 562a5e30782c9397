import Foundation
import Testing
import Wallet
import WalletBundleInspection
import WalletHostRuntime
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A containing app is the issuer's code, like its extensions, and runs under their bounds
/// (issue 31, break 4): it held 1 GiB of memory and wrote 1.5 GiB into a container with a 64 MB
/// quota in 30 s. Each hostile app below is stopped and reported as an extension would be.
@Suite("Containing apps: the bounds of their extensions", .serialized, .timeLimit(.minutes(2)),
       .enabled(if: KernelNamespaces.available, "the kernel refuses the namespaces the sandbox needs"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
struct ContainingAppBoundsTests {
    /// Forks 26 children that hold 40 MB each (every one under `RLIMIT_DATA`; 1 GiB together),
    /// waits a little and exits 0: unbounded, it is "opened" successfully.
    static let gigabyteApp = """
        #!/usr/bin/python3
        import os, time
        for i in range(26):
            if os.fork() == 0:
                block = b"x" * (40 << 20)
                time.sleep(8)
                os._exit(0)
        time.sleep(8)
        print("held 1 GiB")
        """

    /// Writes six files of 16 MB (each under the quota, 96 MB together) into its container,
    /// waits a little and exits 0.
    static let fillContainerApp = """
        #!/usr/bin/python3
        import json, os, time
        container = list(json.loads(os.environ["WALLET_EXTENSION_APP_GROUPS"]).values())[0]
        for i in range(6):
            with open(os.path.join(container, "fill%d" % i), "wb") as f:
                f.write(b"\\0" * (16 << 20))
        time.sleep(8)
        print("wrote 96 MB")
        """

    /// The Python issuer's app, with `script` as its executable, in an apps directory of `hostile`'s.
    static func hostileApp(_ script: String, in hostile: HostileExtension) throws -> AppBundle {
        // The state as the host keeps it (the hostile extension's fixture files are not).
        for name in ["passes.json", "device.json"] { try FileManager.default.removeItem(at: hostile.state.appendingPathComponent(name)) }
        let apps = hostile.root.url.appendingPathComponent("InstalledApps")
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: ExampleBundles.pythonIssuerApp, to: apps.appendingPathComponent("PythonIssuer.app"))
        let app = try #require(InstalledApps(directory: apps).apps.first)
        let executable = try #require(app.executableURL)
        try FileManager.default.removeItem(at: executable)
        try Data(script.replacingOccurrences(of: "@TOKEN@", with: hostile.token).utf8).write(to: executable)
        _ = chmod(executable.path, 0o755)
        return app
    }

    @Test("an app holding 1 GiB across its processes is killed at its memory limit and reported in the kernel's words",
          arguments: [ControlGroupMode.auto, .off])
    func gigabyteAppIsKilled(controlGroups: ControlGroupMode) throws {
        let hostile = try HostileExtension(script: "#!/bin/sh\nexit 0\n")
        defer { hostile.cleanUp() }
        let app = try Self.hostileApp(Self.gigabyteApp, in: hostile)
        let events = EventCollector()
        var configuration = HostConfiguration()
        configuration.events = events
        configuration.controlGroups = controlGroups
        let launcher = AppLauncher(device: SimulatedDevice(state: StateDirectory(url: hostile.state)), configuration: configuration)
        #expect(launcher.memoryLimitBytes == 55 << 20)
        let started = ContinuousClock.now
        let error = #expect(throws: StateError.self) { try launcher.open(app) }
        #expect(ContinuousClock.now - started < .seconds(7), "the app was not stopped at its limit")
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("EXC_RESOURCE -> PyIssuerApp["), "\(message)")
        #expect(message.contains("exceeded mem limit: ActiveHard 55 MB"), "\(message)")
        let kill = try #require(events.events(.memoryKill).first, "\(events.events.map(\.message))")
        #expect(kill.bundleIdentifier == app.bundleIdentifier)
        #expect(events.events(.exit).contains { $0.message.contains("EXC_RESOURCE") })
        #expect(try SimulatedDevice(state: StateDirectory(url: hostile.state)).settings().launchedApps.isEmpty)
    }

    @Test("an app writing past a 64 MB container quota is stopped, named; app open takes --container-quota")
    func containerQuotaHoldsForApps() throws {
        let hostile = try HostileExtension(script: "#!/bin/sh\nexit 0\n")
        defer { hostile.cleanUp() }
        let app = try Self.hostileApp(Self.fillContainerApp, in: hostile)
        let started = ContinuousClock.now
        let run = try WalletHostCommand.run(["app", "open", app.url.path, "--state", hostile.state.path, "--no-daemon",
                                             "--container-quota", "64MB"])
        #expect(ContinuousClock.now - started < .seconds(7), "the app was not stopped at its quota")
        #expect(run.status != 0)
        #expect(run.standardError.contains("over its container quota"), "\(run.standardOutput) \(run.standardError)")
        #expect(run.standardError.contains("of 64.0 MB allowed") || run.standardError.contains("of 64 MB allowed"),
                "\(run.standardError)")

        let refused = try WalletHostCommand.run(["app", "open", app.url.path, "--state", hostile.state.path, "--no-daemon",
                                                 "--container-quota", "lots"])
        #expect(refused.status != 0)
        #expect(refused.standardError.contains("--container-quota expects a size"), "\(refused.standardError)")
    }
}
