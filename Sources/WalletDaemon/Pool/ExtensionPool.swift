import CWalletPoll
import Foundation
import Synchronization
import Wallet
import WalletBundleInspection
import WalletDaemonClient
import WalletHostRuntime

/// The daemon's extension processes: one warm ``ExtensionRunner`` per extension bundle, shared
/// by every client; with keep-warm, every installed issuer's non-UI extension launched at start
/// and after each reload, and relaunched with backoff when it crashes (``CrashLoopPolicy``).
///
/// A reload replaces the runner of a bundle that was rebuilt or removed: new calls get the new
/// one at once, the old process is stopped once its calls in flight have finished.
public actor ExtensionPool {
    private struct Entry {
        var bundle: ExtensionBundle
        var runner: ExtensionRunner
        var fingerprint: BundleFingerprint
        /// What the fingerprint reads, worked out once.
        var files: BundleFingerprint.Files
        var keepWarm: Bool
        var crashes = CrashLoopPolicy()
        var crashLooping = false
    }

    /// The configuration every runner gets (events, services, limits, idle timeout).
    public nonisolated let configuration: HostConfiguration
    public nonisolated let appsDirectory: URL
    public nonisolated let device: SimulatedDevice
    public nonisolated let keepWarm: Bool
    private let hub: EventHub
    /// Keyed by the `.appex` path.
    private var entries: [String: Entry] = [:] {
        didSet {
            let published = entries.mapValues {
                Published(runner: $0.runner, fingerprint: $0.fingerprint, bundle: $0.bundle, files: $0.files)
            }
            self.published.withLock { $0 = published }
        }
    }
    /// What ``warmRunner(forAppex:)`` reads without entering the actor: each entry's runner and
    /// the build it runs.
    private nonisolated let published = Mutex<[String: Published]>([:])
    private struct Published: Sendable {
        var runner: ExtensionRunner
        var fingerprint: BundleFingerprint
        var bundle: ExtensionBundle
        /// What the fingerprint reads, so that a call looks at the disk and nothing else.
        var files: BundleFingerprint.Files
        /// The ``BundleWatch`` token taken before the fingerprint was last found unchanged on
        /// disk: while the watch sees no change since, calls do not look at the disk.
        var unchangedSince: Int?
    }
    /// The apps directory's watch, once the server has one (``trust(_:)``).
    private nonisolated let bundleWatch = Mutex<BundleWatch?>(nil)
    private nonisolated let checksSkipped = Atomic<Int>(0)
    /// Warm calls that took the apps directory's watch's word that their bundle was not rebuilt
    /// instead of looking at its files (`host.status`).
    public nonisolated var bundleChecksSkipped: Int { checksSkipped.load(ordering: .relaxed) }
    /// Runners replaced by a reload, stopping once idle.
    private var retiring: [ObjectIdentifier: Task<Void, Never>] = [:]
    /// The apps directory as the last reload found it, with only the findings that are errors.
    public private(set) var installed: InstalledApps
    public private(set) var reloads = 0
    private var stopped = false

    public init(configuration: HostConfiguration, appsDirectory: URL, device: SimulatedDevice, keepWarm: Bool, hub: EventHub) {
        var configuration = configuration
        configuration.events = hub
        configuration.services = DeviceServices(device: device)
        self.configuration = configuration
        self.appsDirectory = appsDirectory
        self.device = device
        self.keepWarm = keepWarm
        self.hub = hub
        installed = InstalledApps(apps: [])
    }

    /// The runner for an `.appex` given by path (`wallet-host call`), loading the bundle once
    /// and again when it was rebuilt since (a bundle outside the apps directory is not watched).
    /// - Throws: ``DaemonError`` with the loader's findings when the bundle cannot be loaded.
    public func runner(forAppex url: URL) throws -> ExtensionRunner {
        let key = url.standardizedFileURL.path
        if let entry = entries[key] {
            if entry.fingerprint == BundleFingerprint(entry.files) {
                return entry.runner
            }
            entries[key] = nil
            retire(entry.runner, reason: "bundle rebuilt")
        }
        let (bundle, findings) = BundleLoader.wallet.loadExtension(at: url)
        guard let bundle else {
            let errors = findings.filter { $0.severity == .error }
            throw DaemonError("cannot load \(url.path):\n" + errors.map { "  \($0)" }.joined(separator: "\n"))
        }
        return try runner(for: bundle)
    }

    /// Lets calls take the apps directory's watch's word that a bundle under it was not rebuilt
    /// instead of looking at its files (``knownRunner(forAppex:)``).
    public nonisolated func trust(_ watch: BundleWatch) {
        bundleWatch.withLock { $0 = watch }
    }

    /// The runner the pool already has for an `.appex` path, read without entering the actor,
    /// when the bundle on disk is still the build it runs; nil otherwise, and
    /// ``runner(forAppex:)`` then loads, replaces or makes one. Whether it is: the apps
    /// directory's watch saw no change since the files were last looked at (one `ioctl`), or
    /// else two `lstat`s.
    /// - Parameter path: the path as the client gave it (made absolute and standardized like a
    ///   `URL`'s unless it already is).
    public nonisolated func knownRunner(forAppex path: String) -> ExtensionRunner? {
        let key = StandardPath.isStandardized(path) ? path : URL(fileURLWithPath: path).standardizedFileURL.path
        guard let entry = published.withLock({ $0[key] }) else { return nil }
        let watch = bundleWatch.withLock { $0 }
        if let watch, let token = entry.unchangedSince, watch.isUnchanged(since: token) {
            checksSkipped.add(1, ordering: .relaxed)
            return entry.runner
        }
        // Taken before the files are looked at: a change after it shows in the watch.
        let token = watch?.token(forAppex: key, files: entry.files)
        guard entry.fingerprint == BundleFingerprint(entry.files) else { return nil }
        if let token {
            published.withLock { published in
                if published[key]?.runner === entry.runner { published[key]?.unchangedSince = token }
            }
        }
        return entry.runner
    }

    /// The runner the pool has for a loaded extension bundle, read without entering the actor:
    /// when it was made for this very bundle (the reload that loaded it replaces a rebuilt one).
    public nonisolated func knownRunner(for bundle: ExtensionBundle) -> ExtensionRunner? {
        guard let entry = published.withLock({ $0[bundle.url.standardizedFileURL.path] }), entry.bundle == bundle else { return nil }
        return entry.runner
    }

    /// The runner for a loaded extension bundle: the warm one, or a new one. (Reloads replace
    /// the runners of rebuilt bundles in the apps directory, so no file is looked at here.)
    /// - Throws: ``StateError`` when its App Group containers cannot be created.
    public func runner(for bundle: ExtensionBundle) throws -> ExtensionRunner {
        let key = bundle.url.standardizedFileURL.path
        if let entry = entries[key] { return entry.runner }
        let files = BundleFingerprint.Files(executable: bundle.executableURL, bundle: bundle.url)
        let fingerprint = BundleFingerprint(files)
        let descriptor = ExtensionDescriptor(bundle: bundle, appGroups: try device.state.appGroupContainers(bundle.appGroups, team: bundle.team))
        let isInstalledIssuer = installed.apps.contains { $0.extensions.contains { $0.url.standardizedFileURL.path == key } }
        let warm = keepWarm && bundle.role == .nonUI && isInstalledIssuer
        // A kept-warm process is never stopped for idleness; any other one is, as in a command.
        var runnerConfiguration = configuration
        if warm { runnerConfiguration.idleTimeout = nil }
        let runner = ExtensionRunner(descriptor: descriptor, configuration: runnerConfiguration)
        entries[key] = Entry(bundle: bundle, runner: runner, fingerprint: fingerprint, files: files, keepWarm: warm)
        return runner
    }

    /// Rescans the apps directory: bundles removed or rebuilt are retired, crash-looping marks
    /// are cleared, and with keep-warm every installed non-UI extension is launched.
    /// - Returns: what changed, in a few words per bundle.
    @discardableResult
    public func reload() async -> ReloadSummary {
        guard !stopped else { return ReloadSummary() }
        reloads += 1
        installed = InstalledApps(directory: appsDirectory)
        // The daemon reports only the errors (apps.list, a discovery's problems): the warnings
        // and notes of 100 bundles held about 130 KB for the daemon's life.
        installed.findings.removeAll { !$0.isError }
        var summary = ReloadSummary()
        let installedExtensions = Dictionary(installed.apps.flatMap(\.extensions).map { ($0.url.standardizedFileURL.path, $0) },
                                             uniquingKeysWith: { first, _ in first })
        for (key, entry) in entries {
            let underApps = key.hasPrefix(appsDirectory.standardizedFileURL.path + "/")
            if let bundle = installedExtensions[key] {
                let fingerprint = BundleFingerprint(executable: bundle.executableURL, bundle: bundle.url)
                if fingerprint != entry.fingerprint || bundle != entry.bundle {
                    entries[key] = nil
                    retire(entry.runner, reason: "bundle rebuilt")
                    summary.replaced.append(bundle.bundleIdentifier)
                } else {
                    entries[key]?.crashes.reset()
                    entries[key]?.crashLooping = false
                }
            } else if underApps || !FileManager.default.fileExists(atPath: key) {
                entries[key] = nil
                retire(entry.runner, reason: "bundle removed")
                summary.removed.append(entry.bundle.bundleIdentifier)
            }
        }
        // UI extensions run per flow, with the flow's user agent: the pool keeps non-UI ones.
        for (key, bundle) in installedExtensions where entries[key] == nil && bundle.role == .nonUI {
            summary.added.append(bundle.bundleIdentifier)
            _ = try? runner(for: bundle)
        }
        if keepWarm { await warmAll() }
        // Launching leaves free memory in glibc's arenas (plists read, spawn buffers): give it back.
        wh_release_free_memory()
        summary.added.sort()
        summary.replaced.sort()
        summary.removed.sort()
        return summary
    }

    /// Launches every kept-warm extension that is not running, at most ``launchesAtOnce`` at a
    /// time: 100 handshakes under way at once left their memory as holes in the heap between
    /// the runners' long-lived objects (about 0.4 MB of the daemon's RSS), and took no less time.
    private func warmAll() async {
        let runners = entries.values.filter { $0.keepWarm && !$0.crashLooping }.map(\.runner)
        await withTaskGroup(of: Void.self) { group in
            for (index, runner) in runners.enumerated() {
                if index >= Self.launchesAtOnce { await group.next() }
                group.addTask {
                    if runner.pid == nil { await runner.prewarm() }
                }
            }
        }
    }

    private static let launchesAtOnce = 16

    /// A process ended without the host asking: with keep-warm, launch it again after the
    /// policy's delay, or mark it crash-looping.
    public func processCrashed(bundleIdentifier: String) {
        guard !stopped else { return }
        for (key, entry) in entries where entry.bundle.bundleIdentifier == bundleIdentifier && entry.keepWarm {
            switch entries[key]!.crashes.recordCrash(at: .now) {
            case .crashLooping:
                entries[key]!.crashLooping = true
            case .relaunch(let delay):
                let runner = entry.runner
                Task {
                    try? await Task.sleep(for: delay)
                    await self.relaunch(key: key, runner: runner)
                }
            }
        }
    }

    private func relaunch(key: String, runner: ExtensionRunner) async {
        guard !stopped, let entry = entries[key], entry.runner === runner, !entry.crashLooping else { return }
        if runner.pid == nil { await runner.prewarm() }
    }

    /// What `wallet-host ps` lists: every extension the daemon has a runner for.
    public func processes() async -> [ProcessListing] {
        let table = hub.table
        var listings: [ProcessListing] = []
        for entry in entries.values {
            let row = table.rows[entry.bundle.bundleIdentifier] ?? ProcessTable.Row(bundleIdentifier: entry.bundle.bundleIdentifier)
            let pid = entry.runner.pid
            listings.append(ProcessListing(row: row, pid: pid, path: entry.bundle.url.path, keepWarm: entry.keepWarm,
                                           crashLooping: entry.crashLooping))
        }
        // Extensions run for one flow only (UI extensions) still have rows in the table.
        let known = Set(listings.map(\.bundleIdentifier))
        for row in table.rows.values where !known.contains(row.bundleIdentifier) {
            listings.append(ProcessListing(row: row, pid: row.pid, path: nil, keepWarm: false, crashLooping: false))
        }
        return listings.sorted { $0.bundleIdentifier < $1.bundleIdentifier }
    }

    /// How many runners the pool holds, and how many are being retired.
    public var counts: (runners: Int, retiring: Int) { (entries.count, retiring.count) }

    /// Stops every process with the normal stop sequence, concurrently, and takes no more work.
    public func stopAll(reason: String) async {
        stopped = true
        let runners = entries.values.map(\.runner)
        entries.removeAll()
        await withTaskGroup(of: Void.self) { group in
            for runner in runners { group.addTask { await runner.stop(reason: reason) } }
        }
        for task in retiring.values { await task.value }
    }

    /// Stops a replaced runner once the calls it has in flight are over (the longest deadline
    /// plus the hang grace at most).
    private func retire(_ runner: ExtensionRunner, reason: String) {
        let key = ObjectIdentifier(runner)
        retiring[key] = Task {
            await runner.stopAfterCalls(within: .seconds(25), reason: reason)
            self.retired(key)
        }
    }

    private func retired(_ key: ObjectIdentifier) { retiring[key] = nil }
}
