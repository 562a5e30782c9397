import Foundation
import WalletBundleInspection
import WalletHostRuntime
import WalletWire

/// The issuer apps installed on the simulated device: the `.app` bundles in a directory.
public struct InstalledApps: Sendable {
    public var apps: [AppBundle]
    /// Findings from loading them; an app with an error finding is not installed.
    public var findings: [ValidationFinding]

    /// Loads every `.app` in `directory`; a broken bundle is reported and skipped, never fatal.
    public init(directory: URL, loader: BundleLoader = BundleLoader.wallet) {
        let loaded = loader.loadApps(in: directory)
        apps = loaded.apps
        findings = loaded.findings
    }

    public init(apps: [AppBundle], findings: [ValidationFinding] = []) {
        self.apps = apps
        self.findings = findings
    }

    /// The app with this bundle identifier or bundle name ("SampleIssuer").
    public func app(named name: String) -> AppBundle? {
        apps.first { $0.bundleIdentifier == name || $0.name == name || $0.url.lastPathComponent == name }
    }
}

/// Opens containing apps: runs the app's executable under the host's spawn rules with its
/// App Group containers, and records that it was opened at least once (Wallet lists an issuer
/// only after that, because the app writes its cards into the App Group when the user logs in).
///
/// The app is third-party code like its extensions and runs in the same sandbox: it sees its
/// bundle read-only and its App Group containers read-write, as its extensions' user, so that
/// what it writes is theirs and a link planted in a container leads nowhere outside it. It runs
/// under its extensions' bounds too (``RunBounds``): the non-UI extension's memory limit over
/// everything it runs, control groups of its own, the container quota and `RLIMIT_FSIZE`.
public struct AppLauncher: Sendable {
    public let device: SimulatedDevice
    /// The sandbox, as for extensions (`--sandbox`).
    public var sandbox: SandboxMode
    /// The sandbox init; nil: beside the running executable.
    public var sandboxInitPath: String?
    /// What everything the app runs may hold together: its non-UI extension's limit (55 MiB,
    /// `--memory-limit` replaces it for both).
    public var memoryLimitBytes: Int
    /// What its App Group containers may hold together (`--container-quota`); nil: unbounded.
    public var containerQuotaBytes: Int?
    /// Whether it gets control groups of its own, as extensions do (`--control-groups`).
    public var controlGroups: ControlGroupMode
    /// Where a memory kill or a stop at the quota is recorded, as an extension's is.
    public var events: any HostEventSink

    /// The app's network, as an extension's (`--network`, `--allow-network`).
    public var network = NetworkMode.proxy
    public var networkPolicy = NetworkPolicy()
    /// The loop that watches the app's run, whose clock its timeout is on (nil: the shared loop).
    public var loop: HostLoop?

    public init(device: SimulatedDevice, sandbox: SandboxMode = .auto, sandboxInitPath: String? = nil) {
        self.init(device: device, configuration: HostConfiguration())
        self.sandbox = sandbox
        self.sandboxInitPath = sandboxInitPath
    }

    /// A launcher that sandboxes and bounds apps as `configuration` does extensions.
    public init(device: SimulatedDevice, configuration: HostConfiguration) {
        self.device = device
        sandbox = configuration.sandbox
        sandboxInitPath = configuration.sandboxInitPath
        memoryLimitBytes = configuration.memoryLimit(at: ExtensionPointRegistry.wallet.points[0])
        containerQuotaBytes = configuration.containerQuotaBytes
        controlGroups = configuration.controlGroups
        network = configuration.network
        networkPolicy = configuration.networkPolicy
        events = configuration.events
        loop = configuration.loop
    }

    /// What opening the app did.
    public struct Result: Sendable {
        public var run: ProcessRun
        public var appGroups: [String: String]
    }

    /// Runs the app's executable to completion (30 s at most).
    /// - Throws: ``StateError`` when the app cannot be run or exits unsuccessfully (its stderr is quoted).
    public func open(_ app: AppBundle, timeout: Duration = .seconds(30)) throws -> Result {
        guard let executable = app.executableURL else {
            throw StateError("\(app.url.path): the app has no executable to open")
        }
        // Before the app runs: it cannot be recorded as opened in settings that cannot be read.
        try device.checkStateReadable()
        let groups = try device.state.appGroupContainers(app.appGroups, team: app.team)
        var environment = HostConfiguration().baseEnvironment(appGroups: groups)
        environment[WireEnvironment.containingAppBundleIdentifier] = app.bundleIdentifier
        var configuration = SpawnConfiguration(executablePath: executable.path, environment: environment,
                                               workingDirectory: app.url.path, limits: ProcessLimits(dataBytes: nil))
        if sandbox != .off {
            configuration.sandbox = SandboxPlan(readOnly: [app.url.path], writable: Array(groups.values), environment: environment,
                                                initPath: sandboxInitPath ?? SandboxPlan.defaultInitPath)
            configuration.sandbox?.network = network
            configuration.sandboxRequired = sandbox == .required
            configuration.egress = EgressSession(policy: networkPolicy, events: events, bundleIdentifier: app.bundleIdentifier)
        }
        var run: ProcessRun
        do {
            // The app writes into the same containers as its extensions: on their images (a root host).
            try ContainerVolume.prepare(groups.values, quotaBytes: HostConfiguration().containerQuotaBytes)
            try AppGroupPreferences.prepare(appGroups: groups)
            let bounds = RunBounds(executableName: executable.lastPathComponent, bundleIdentifier: app.bundleIdentifier,
                                   memoryLimitBytes: memoryLimitBytes, controlGroups: controlGroups,
                                   containers: Array(groups.values), containerQuotaBytes: containerQuotaBytes, events: events)
            run = try ProcessRun.run(configuration, timeout: timeout, bounds: bounds, loop: loop)
        } catch {
            throw StateError("cannot open \(app.name): \(error)")
        }
        if let ended = run.boundsExit {
            throw StateError("\(app.name) was ended by the host: \(ended)")
        }
        guard run.status == .exited(0), !run.timedOut else {
            let reason = run.timedOut ? "did not finish within \(timeout)" : "\(run.status)"
            let last = run.stderrLines.last.map { "; stderr: \($0)" } ?? ""
            throw StateError("\(app.name) \(reason)\(last)")
        }
        try device.updateSettings { settings in
            if !settings.launchedApps.contains(app.bundleIdentifier) { settings.launchedApps.append(app.bundleIdentifier) }
        }
        run.stdoutLines += try addKeychainSeed(of: app)
        return Result(run: run, appGroups: groups)
    }
}
