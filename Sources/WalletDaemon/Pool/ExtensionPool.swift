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
///
/// Its state is one private ``State`` behind one lock, changed only inside it; a call finds its
/// runner there on its own thread (``runner(forAppex:loading:)``), with no hop.
public final class ExtensionPool: Sendable {
    struct Entry {
        var bundle: ExtensionBundle
        var runner: ExtensionRunner
        var fingerprint: BundleFingerprint
        /// What the fingerprint reads, worked out once, so that a call looks at the disk and nothing else.
        var files: BundleFingerprint.Files
        var keepWarm: Bool
        var crashes = CrashLoopPolicy()
        var crashLooping = false
        /// The ``BundleWatch`` token taken before the fingerprint was last found unchanged on
        /// disk: while the watch sees no change since, calls do not look at the disk.
        var unchangedSince: Int?
    }

    struct State {
        /// Keyed by the `.appex` path.
        var entries: [String: Entry] = [:]
        /// The apps directory as the last reload found it, with only the findings that are errors.
        var installed = InstalledApps(apps: [])
        var reloads = 0
        var stopped = false
        /// Runners replaced by a reload, stopping once their calls are over (``ExtensionRunner/retire(reason:)``).
        var retiring: [ExtensionRunner] = []
        /// The apps directory's watch, once the server has one (``trust(_:)``).
        var watch: BundleWatch?
        /// Calls that took the watch's word that their bundle was not rebuilt.
        var checksSkipped = 0
        /// Relaunches of crashed kept-warm extensions waiting for their backoff, by `.appex` path.
        var relaunches: [String: HostTimer] = [:]
    }

    /// The configuration every runner gets (events, services, limits, idle timeout, clock).
    public let configuration: HostConfiguration
    public let appsDirectory: URL
    public let device: SimulatedDevice
    public let keepWarm: Bool
    let hub: EventHub
    let state = Mutex(State())

    public init(configuration: HostConfiguration, appsDirectory: URL, device: SimulatedDevice, keepWarm: Bool, hub: EventHub) {
        var configuration = configuration
        configuration.events = hub
        configuration.services = DeviceServices(device: device)
        self.configuration = configuration
        self.appsDirectory = appsDirectory
        self.device = device
        self.keepWarm = keepWarm
        self.hub = hub
    }

    /// The apps directory as the last reload found it, with only the findings that are errors.
    public var installed: InstalledApps { state.withLock { $0.installed } }
    public var reloads: Int { state.withLock { $0.reloads } }
    /// Warm calls that took the apps directory's watch's word that their bundle was not rebuilt
    /// instead of looking at its files (`host.status`).
    public var bundleChecksSkipped: Int { state.withLock { $0.checksSkipped } }
    /// How many runners the pool holds, and how many are being retired.
    public var counts: (runners: Int, retiring: Int) {
        state.withLock { state in (state.entries.count, state.retiring.filter { $0.pid != nil }.count) }
    }

    /// Lets calls take the apps directory's watch's word that a bundle under it was not rebuilt
    /// instead of looking at its files.
    public func trust(_ watch: BundleWatch) {
        state.withLock { $0.watch = watch }
    }

    /// The runner for an `.appex` given by path (`wallet-host call`): the one the pool has when
    /// the bundle on disk is still the build it runs (the apps directory's watch saw no change
    /// since the files were last looked at: one `ioctl`; else two `lstat`s), else a new one for
    /// the bundle loaded again (the old one is retired). A bundle outside the apps directory is
    /// not watched.
    /// - Parameters:
    ///   - path: the path as the client gave it (made absolute and standardized like a `URL`'s
    ///     unless it already is).
    ///   - loading: false to get nil rather than load a bundle (on a thread that must not block).
    /// - Throws: ``DaemonError`` with the loader's findings when the bundle cannot be loaded.
    public func runner(forAppex path: String, loading: Bool = true) throws -> ExtensionRunner? {
        let key = StandardPath.isStandardized(path) ? path : URL(fileURLWithPath: path).standardizedFileURL.path
        enum Found { case vouched(ExtensionRunner), check(Entry, BundleWatch?), none }
        let found = state.withLock { state -> Found in
            guard let entry = state.entries[key] else { return .none }
            if let watch = state.watch, let token = entry.unchangedSince, watch.isUnchanged(since: token) {
                state.checksSkipped += 1
                return .vouched(entry.runner)
            }
            return .check(entry, state.watch)
        }
        switch found {
        case .vouched(let runner):
            return runner
        case .check(let entry, let watch):
            // Taken before the files are looked at: a change after it shows in the watch.
            let token = watch?.token(forAppex: key, files: entry.files)
            if entry.fingerprint == BundleFingerprint(entry.files) {
                if let token {
                    state.withLock { state in
                        if state.entries[key]?.runner === entry.runner { state.entries[key]?.unchangedSince = token }
                    }
                }
                return entry.runner
            }
            guard loading else { return nil }
            state.withLock { state in
                guard state.entries[key]?.runner === entry.runner else { return }
                state.entries[key] = nil
                retire(entry.runner, reason: "bundle rebuilt", in: &state)
            }
        case .none:
            guard loading else { return nil }
        }
        let url = URL(fileURLWithPath: key)
        let (bundle, findings) = BundleLoader.wallet.loadExtension(at: url)
        guard let bundle else {
            let errors = findings.filter { $0.severity == .error }
            throw DaemonError("cannot load \(url.path):\n" + errors.map { "  \($0)" }.joined(separator: "\n"))
        }
        return try runner(for: bundle)
    }

    /// The runner for a loaded extension bundle: the warm one, or a new one. (Reloads replace
    /// the runners of rebuilt bundles in the apps directory, so no file is looked at here.)
    /// - Throws: ``StateError`` when its App Group containers cannot be created.
    public func runner(for bundle: ExtensionBundle) throws -> ExtensionRunner {
        let key = bundle.url.standardizedFileURL.path
        if let runner = state.withLock({ $0.entries[key]?.runner }) { return runner }
        let appGroups = try device.state.appGroupContainers(bundle.appGroups, team: bundle.team)
        return state.withLock { state in
            if let runner = state.entries[key]?.runner { return runner }
            return makeRunner(for: bundle, key: key, appGroups: appGroups, in: &state)
        }
    }

    /// A new runner for `bundle`, kept warm when the pool keeps installed issuers warm.
    func makeRunner(for bundle: ExtensionBundle, key: String, appGroups: [String: String], in state: inout State) -> ExtensionRunner {
        let files = BundleFingerprint.Files(executable: bundle.executableURL, bundle: bundle.url)
        let fingerprint = BundleFingerprint(files)
        let descriptor = ExtensionDescriptor(bundle: bundle, appGroups: appGroups)
        let isInstalledIssuer = state.installed.apps.contains { $0.extensions.contains { $0.url.standardizedFileURL.path == key } }
        let warm = keepWarm && bundle.role == .nonUI && isInstalledIssuer
        // A kept-warm process is never stopped for idleness; any other one is, as in a command.
        var runnerConfiguration = configuration
        if warm { runnerConfiguration.idleTimeout = nil }
        let runner = ExtensionRunner(descriptor: descriptor, configuration: runnerConfiguration)
        state.entries[key] = Entry(bundle: bundle, runner: runner, fingerprint: fingerprint, files: files, keepWarm: warm)
        return runner
    }

    /// Stops a replaced runner once the calls it has in flight are over.
    func retire(_ runner: ExtensionRunner, reason: String, in state: inout State) {
        state.retiring.removeAll { $0.pid == nil }
        state.retiring.append(runner)
        runner.retire(reason: reason)
    }
}
