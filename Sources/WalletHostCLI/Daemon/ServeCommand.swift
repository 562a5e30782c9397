import Dispatch
import Foundation
import Synchronization
import Wallet
import WalletDaemon
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// `wallet-host serve`: the host daemon. It owns a state directory, listens on a Unix socket,
/// keeps extensions warm and serves every client from them (docs/DAEMON.md).
struct ServeCommand {
    let appsURL: URL
    let stateURL: URL
    let socketPath: String
    let keepWarm: Bool
    let drainGrace: Duration
    let limits: DaemonServer.Limits
    let configuration: HostConfiguration
    /// How long the I/O reactor polls after a turn before it sleeps (`--busy-poll`).
    let busyPoll: Duration?
    /// `--http`: where the studio page is served, if anywhere.
    let http: (host: String, port: UInt16)?
    /// `--watch DIR`: a package rebuilt and reassembled as it changes (``ServeWatch``).
    let watchedPackage: URL?

    static let spec = CommandSpec(
        "serve",
        summary: """
            Run the host daemon for a state directory: it listens on a Unix socket (mode 0600, own uid \
            only), keeps extensions warm, reloads the apps directory when it changes or on SIGHUP, and \
            serves the other commands, which use it when it answers (docs/DAEMON.md). SIGTERM or SIGINT \
            stop it gracefully.
            """,
        options: [CommonOptions.apps,
                  CommonOptions.state,
                  .valued("socket", "PATH", help: "Listen here instead of <state>/wallet-host.sock."),
                  .flag("keep-warm", help: """
                      Launch every installed issuer's non-UI extension at start and after each reload, and \
                      relaunch one that crashes, with backoff; after 3 crashes in 5 minutes it is crash-looping \
                      and stays stopped until the next reload.
                      """),
                  .valued("idle-timeout", "DURATION", help: """
                      Without --keep-warm, stop an extension after this long without a call (default 30s).
                      """),
                  .valued("drain-grace", "DURATION", help: """
                      On SIGTERM, SIGINT or host.shutdown, how long requests in flight may take to finish \
                      before every extension is stopped (default 20s).
                      """),
                  .valued("max-clients", "N", help: """
                      Serve at most N clients at once (default 4096); one more gets an error line saying so \
                      and is disconnected.
                      """),
                  .valued("client-requests", "N", help: """
                      Serve at most N requests of one client at once (default 16); its later requests wait, \
                      in order, unread, so that one client cannot starve the others.
                      """),
                  .valued("busy-poll", "DURATION", help: """
                      After reading an extension's answer, keep polling for this long (at most 100ms) \
                      instead of sleeping: a warm call answers tens of microseconds sooner on a virtual \
                      machine whose idle vCPUs halt at once, for a core kept busy while calls keep coming \
                      (off by default).
                      """),
                  httpOption, ServeWatch.option],
        takesHostOptions: true)

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, for: Self.spec)
        guard parsed.positionals.isEmpty else { throw UsageError("serve takes no positional arguments") }
        watchedPackage = ServeWatch.package(parsed)
        appsURL = URL(fileURLWithPath: parsed.value("apps") ?? watchedPackage.map { $0.appendingPathComponent("apps").path }
            ?? AppsDirectory.defaultPath).standardizedFileURL
        stateURL = StateCommands.stateURL(parsed).standardizedFileURL
        socketPath = parsed.value("socket").map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            ?? DaemonRoute.socketPath(forState: stateURL)
        keepWarm = parsed.has("keep-warm")
        var configuration = try HostOptions.configuration(from: parsed)
        if let idle = try HostOptions.duration(parsed, "idle-timeout", example: "30s or 500ms", allowsZero: false) {
            configuration.idleTimeout = idle
        }
        self.configuration = configuration
        drainGrace = try HostOptions.duration(parsed, "drain-grace", example: "20s or 500ms") ?? .seconds(20)
        var limits = DaemonServer.Limits()
        if let clients = try parsed.count("max-clients", minimum: 1) { limits.maximumClients = clients }
        if let requests = try parsed.count("client-requests", minimum: 1) { limits.connection.requestsInFlight = requests }
        self.limits = limits
        busyPoll = try HostOptions.duration(parsed, "busy-poll", example: "2ms", allowsZero: false)
        http = try Self.httpAddress(parsed)
        if let busyPoll, busyPoll > ReactorBusyPolling.maximum {
            throw UsageError("--busy-poll \(parsed.value("busy-poll") ?? ""): at most 100ms")
        }
    }

    func run() async throws -> Int32 {
        // The daemon's threads (client loop, I/O reactor, teardowns, tasks) would otherwise get
        // glibc's per-thread malloc arenas, which keep memory it no longer uses: one is plenty.
        _ = setMallocOption(mallocArenaMaximum, 1)
        ReactorBusyPolling.window = busyPoll
        let descriptorLimit = Self.raiseDescriptorLimit()
        // Whether extensions can be sandboxed, asked of the kernel now (and again on SIGHUP):
        // only this probe lets --sandbox auto run them without it.
        let sandboxRefusal = configuration.sandbox == .off ? nil : SandboxStatus.probe()
        let state = StateDirectory(url: stateURL)
        // Made 0700 (or checked: never chmodded) before the lock file goes in it.
        try state.prepareDirectory()
        let lock = try DaemonLock(stateDirectory: stateURL)
        let (listener, ownedSocket) = try Self.listener(at: socketPath)
        let device = SimulatedDevice(state: state)
        let poolBox = Mutex<ExtensionPool?>(nil)
        // Events are written a few milliseconds late, many at once: a warm call's two events
        // cost no system call on the threads that serve it. A crash loses at most that much.
        let hub = EventHub(log: try state.openEventLog(gatheringFor: .milliseconds(5))) { event in
            guard let bundle = event.bundleIdentifier, let pool = poolBox.withLock({ $0 }) else { return }
            pool.processCrashed(bundleIdentifier: bundle)
        }
        // Also when serving fails after extensions were launched (the server's stop flushes too).
        defer { hub.flushLog() }
        let pool = ExtensionPool(configuration: configuration, appsDirectory: appsURL, device: device, keepWarm: keepWarm, hub: hub)
        poolBox.withLock { $0 = pool }
        let server = DaemonServer(listener: listener, socketPath: ownedSocket, lock: lock, hub: hub, pool: pool, limits: limits)
        let grace = drainGrace
        let shutdown: @Sendable (String) -> Void = { reason in
            Task { await server.shutdown(grace: grace, reason: reason) }
        }
        WalletMethods(server: server, stateDirectory: stateURL, requestShutdown: { shutdown("host.shutdown") }).register()
        let packageWatch = try watchedPackage.map(ServeWatch.start(package:))
        await pool.reload()
        let watcher = try? AppsWatcher(directory: appsURL) { await pool.reload() }
        if let watcher { pool.trust(watcher.bundleWatch) }
        let sandboxMode = configuration.sandbox
        let signals = Self.handleSignals(shutdown: shutdown, reload: {
            if sandboxMode != .off { SandboxStatus.probe() }
            Task { await pool.reload() }
        })
        let studio = StudioLauncher(daemon: server)
        try server.start()
        try Self.startStudio(studio, at: http)
        let listening = ownedSocket ?? "an inherited socket (fd \(listener))"
        FileHandle.standardError.write(Data("""
            wallet-host serve: pid \(getpid()) serves \(stateURL.path) on \(listening); apps \(appsURL.path)\
            \(keepWarm ? ", kept warm" : "")\(watcher == nil ? "; the apps directory is not watched (inotify failed)" : ""); \
            \(descriptorLimit) open files\(sandboxRefusal.map { "; the kernel refuses the sandbox: \($0)" } ?? "")

            """.utf8))
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                server.waitUntilFinished()
                continuation.resume()
            }
        }
        withExtendedLifetime(signals) {}
        withExtendedLifetime(watcher) {}
        withExtendedLifetime(packageWatch) {}
        FileHandle.standardError.write(Data("wallet-host serve: stopped\n".utf8))
        return 0
    }

    /// The socket to serve: the one systemd handed over (socket activation), or a new one at
    /// `path` (a stale socket file there removed first).
    /// - Returns: the listening descriptor, and the path this daemon owns (nil: inherited).
    private static func listener(at path: String) throws -> (listener: Int32, ownedSocket: String?) {
        if let inherited = try SocketActivation.inheritedListener() { return (inherited, nil) }
        try removeStaleSocket(at: path)
        return (try UnixSocket.listen(path: path), path)
    }

    /// A socket file left by a daemon that was killed: nothing answers on it, and this process
    /// holds the state directory's lock, so it is removed. One that answers belongs to a live
    /// daemon (of another state directory sharing `--socket`) and is an error.
    private static func removeStaleSocket(at path: String) throws {
        var info = Glibc.stat.init()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw CommandFailure("\(path) exists and is not a socket; remove it or use another --socket")
        }
        if (try? DaemonClient(connectingTo: path)) != nil {
            throw CommandFailure("a wallet-host daemon already answers on \(path); stop it first or use another --socket")
        }
        unlink(path)
    }

    /// Raises the soft limit of open files to the hard one: every client connection, and every
    /// warm extension's pipes, hold descriptors. Returns the limit now in force.
    private static func raiseDescriptorLimit() -> UInt64 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return UInt64(limit.rlim_cur)
    }

    /// SIGTERM and SIGINT drain and stop; SIGHUP reloads the apps directory and probes the kernel's sandbox again.
    private static func handleSignals(shutdown: @escaping @Sendable (String) -> Void,
                                      reload: @escaping @Sendable () -> Void) -> [any DispatchSourceSignal] {
        var sources: [any DispatchSourceSignal] = []
        for (number, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT"), (SIGHUP, "SIGHUP")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if number == SIGHUP { reload() } else { shutdown("daemon stopped by \(name)") }
            }
            source.resume()
            sources.append(source)
        }
        return sources
    }
}

/// glibc's `mallopt(3)` (`<malloc.h>` is not part of the Glibc module).
@_silgen_name("mallopt")
private func setMallocOption(_ parameter: Int32, _ value: Int32) -> Int32
/// `M_ARENA_MAX` in `<malloc.h>`.
private let mallocArenaMaximum: Int32 = -8
