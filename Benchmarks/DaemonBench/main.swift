// Daemon benchmarks (scripts/bench-daemon): every figure beside a baseline measured in the same
// run, with the ratio. 100 warm issuers: Wallet's discovery through the daemon against the same
// discovery cold in process; a warm call through the daemon, less the client's own cost (the
// same client against a server process that answers the same line at once), against the same
// warm call in process, and the daemon's CPU per warm call; `device.get` against that server;
// the daemon's RSS with 100 warm extensions against an idle daemon's (after warm-up, after 30
// discoveries, and after 1,100, past any record of 1,024 calls per extension); its idle CPU, and
// discovery, without control groups against the same with them; threads and memory with 2,000 and 10,000 idle clients; another
// client's `host.status` while one client pipelines 20,000 requests, against the same with no
// flood; 8 concurrent add-card clients against 8 Python issuers through the daemon against 8
// in-process add-card commands at once. `--only clients,fairness,issuers,addcard` picks sections.
import Foundation
import Synchronization
import Wallet
import WalletBundleInspection
import WalletDaemon
import WalletHostRuntime
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

struct Options {
    var walletHost = ""
    var bundles = ""
    var minimal = ""
    /// Benchmarks/CStatusExt, built by scripts/bench-daemon (empty: the SDK extension only).
    var cExtension = ""
    /// Benchmarks/CannedAnswerServer, built by scripts/bench-daemon (empty: the client's own
    /// cost from a thread of the bench's process only).
    var cannedServer = ""
    var issuers = 100
    var discoveries = 30
    /// Discoveries in all before the long-run RSS (past 1,024 calls per extension: what any
    /// per-call record bounded at 1,024 would hold when full).
    var longDiscoveries = 1_100
    var calls = 3000
    var only: String?
    var clients = 10_000
    var flood = 20_000

    func runs(_ section: String) -> Bool {
        only.map { $0.split(separator: ",").contains(Substring(section)) } ?? true
    }

    init() throws {
        var arguments = CommandLine.arguments.dropFirst().makeIterator()
        while let argument = arguments.next() {
            switch argument {
            case "--wallet-host": walletHost = arguments.next() ?? ""
            case "--bundles": bundles = arguments.next() ?? ""
            case "--minimal": minimal = arguments.next() ?? ""
            case "--c-extension": cExtension = arguments.next() ?? ""
            case "--canned-server": cannedServer = arguments.next() ?? ""
            case "--issuers": issuers = Int(arguments.next() ?? "") ?? issuers
            case "--discoveries": discoveries = Int(arguments.next() ?? "") ?? discoveries
            case "--long-discoveries": longDiscoveries = Int(arguments.next() ?? "") ?? longDiscoveries
            case "--calls": calls = Int(arguments.next() ?? "") ?? calls
            case "--only": only = arguments.next()
            case "--clients": clients = Int(arguments.next() ?? "") ?? clients
            case "--flood": flood = Int(arguments.next() ?? "") ?? flood
            default: throw DaemonError("unknown argument \(argument)")
            }
        }
    }
}

func milliseconds(_ duration: Duration) -> Double { duration.milliseconds }

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction + 0.5))]
}

func line(_ text: String) {
    FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

func format(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }

/// How this machine's idle vCPUs wait (a guest's `cpuidle-haltpoll`): polling for a while before
/// they halt makes a wake-up within the window cheap; halting at once makes every wake-up of an
/// idle vCPU a trip through the hypervisor, tens of microseconds, which the warm call's threads
/// pay on each hop between processes.
func idleVCPUPolling() -> String {
    func read(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
    }
    let driver = read("/sys/devices/system/cpu/cpuidle/current_driver") ?? "none"
    guard driver == "haltpoll", let window = read("/sys/module/haltpoll/parameters/guest_halt_poll_ns").flatMap(Int.init) else {
        return "cpuidle driver \(driver)"
    }
    return "cpuidle driver haltpoll, guest_halt_poll_ns \(window) (an idle vCPU "
        + (window == 0 ? "halts at once; the haltpoll governor's default polls 200000 ns first)" : "polls \(window / 1000) us before it halts)")
}

/// VmRSS of a process, in bytes (or another `/proc/PID/status` field: `RssAnon` is the memory
/// the process itself dirtied, without the libraries' file-backed pages).
func residentBytes(_ pid: Int32, field: String = "VmRSS") -> Int {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let row = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
          let kilobytes = Int(row.split(separator: " ").dropFirst().first ?? "") else { return 0 }
    return kilobytes * 1024
}

let options = try Options()
let work = FileManager.default.temporaryDirectory.appendingPathComponent("wallet-host-daemon-bench-\(getpid())")
try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: work) }
// Python extensions start from /usr/bin/python3, not a pyenv shim (README: the shim alone takes
// most of Wallet's 100 ms); the same PATH for the daemon and the in-process baseline.
setenv("PATH", "/usr/bin:/bin:" + (ProcessInfo.processInfo.environment["PATH"] ?? ""), 1)

/// A daemon of the built wallet-host, waited for until it answers.
final class Daemon {
    let process = Process()
    let socket: String

    init(apps: URL, state: URL, arguments: [String] = []) throws {
        socket = state.appendingPathComponent("wallet-host.sock").path
        process.executableURL = URL(fileURLWithPath: options.walletHost)
        process.arguments = ["serve", "--apps", apps.path, "--state", state.path] + arguments
        process.standardError = FileHandle.nullDevice
        try process.run()
        let giveUp = ContinuousClock.now + .seconds(20)
        while (try? DaemonClient(connectingTo: socket)) == nil {
            guard ContinuousClock.now < giveUp, process.isRunning else { throw DaemonError("the daemon did not start") }
            usleep(10_000)
        }
    }

    func client() throws -> DaemonClient { try DaemonClient(connectingTo: socket) }

    func call<Result: Decodable>(_ method: String, _ params: JSONValue = .object([:]), as type: Result.Type) async throws -> Result {
        try await client().call(method, params, as: type)
    }

    func stop() {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
    }
}

/// `count` issuer apps, each with one copy of the minimal SDK extension, all opened once.
func makeIssuers(_ count: Int, in directory: URL, state: URL) throws {
    for index in 0..<count {
        let name = String(format: "Issuer%03d", index)
        let app = directory.appendingPathComponent("\(name).app")
        let appex = app.appendingPathComponent("PlugIns/Status.appex")
        try FileManager.default.createDirectory(at: appex, withIntermediateDirectories: true)
        let appID = "com.example.bench.\(name.lowercased())"
        try PropertyListSerialization.data(fromPropertyList: ["CFBundleIdentifier": appID, "CFBundleExecutable": name],
                                           format: .xml, options: 0).write(to: app.appendingPathComponent("Info.plist"))
        let info: [String: Any] = [
            "CFBundleIdentifier": "\(appID).Status", "CFBundleExecutable": "MinimalStatusExt", "MinimumOSVersion": "14.0",
            "NSExtension": ["NSExtensionPointIdentifier": WalletExtensionPoint.nonUI,
                            "NSExtensionPrincipalClass": "MinimalStatusExt.MinimalStatusHandler"],
        ]
        try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0)
            .write(to: appex.appendingPathComponent("Info.plist"))
        try FileManager.default.copyItem(atPath: options.minimal, toPath: appex.appendingPathComponent("MinimalStatusExt").path)
    }
    try openIssuers(count, state: state)
}

/// Records the `count` issuer apps as opened once on the device of `state` (Wallet lists them).
func openIssuers(_ count: Int, state: URL) throws {
    let device = SimulatedDevice(state: StateDirectory(url: state))
    try device.updateSettings { settings in
        settings.launchedApps = (0..<count).map { String(format: "com.example.bench.issuer%03d", $0) }
    }
}

/// Starts the daemon's keep-warm and waits until every one of `count` extensions runs.
/// - Returns: how long that took, in milliseconds.
func waitUntilWarm(_ daemon: Daemon, count: Int) async throws -> Double {
    let started = ContinuousClock.now
    while try await daemon.call("processes.list", as: DaemonAPI.Processes.self).processes.filter({ $0.pid != nil }).count < count {
        try await Task.sleep(for: .milliseconds(50))
        if ContinuousClock.now - started > .seconds(120) { throw DaemonError("not every issuer got warm") }
    }
    return milliseconds(ContinuousClock.now - started)
}

/// The CPU `pid` uses with nothing to do, in milliseconds a second, over `seconds`.
func idleCPUMillisecondsPerSecond(_ pid: Int32, seconds: Int = 3) async throws -> Double {
    try await Task.sleep(for: .milliseconds(500))
    let before = CPUReading(of: pid)
    try await Task.sleep(for: .seconds(seconds))
    return Double(CPUReading(of: pid).nanoseconds(since: before)) / 1e6 / Double(seconds)
}

if options.runs("issuers") {
    // MARK: 1. Idle daemon RSS (the baseline of the 100-extension RSS)

    let emptyApps = work.appendingPathComponent("empty-apps")
    try FileManager.default.createDirectory(at: emptyApps, withIntermediateDirectories: true)
    let idle = try Daemon(apps: emptyApps, state: work.appendingPathComponent("idle-state"))
    _ = try await idle.call("host.status", as: JSONValue.self)
    let idleRSS = residentBytes(idle.process.processIdentifier)
    let idleAnonymous = residentBytes(idle.process.processIdentifier, field: "RssAnon")
    idle.stop()

    // MARK: 2. 100 warm issuers: discovery, RSS, warm call

    let apps100 = work.appendingPathComponent("apps-100")
    let state100 = work.appendingPathComponent("state-100")
    try makeIssuers(options.issuers, in: apps100, state: state100)
    let installed = InstalledApps(directory: apps100)
    guard installed.apps.count == options.issuers else { throw DaemonError("loaded \(installed.apps.count) of \(options.issuers) issuers: \(installed.findings)") }

    line("== \(options.issuers) issuers (minimal SDK extension each), discovery on the iPhone, Wallet's 100 ms status deadline")
    // Baseline: the same discovery in process, cold (what every command does today).
    var coldMilliseconds: [Double] = []
    var coldListed: [Int] = []
    for _ in 0..<3 {
        let flow = AddCardFlow(installed: installed, device: SimulatedDevice(state: StateDirectory(url: state100)),
                               configuration: HostConfiguration(), userAgent: nil)
        let found = await flow.discoverTimed(.iphone)
        coldMilliseconds.append(found.milliseconds)
        coldListed.append(found.issuers.filter(\.listed).count)
    }

    let daemon = try Daemon(apps: apps100, state: state100, arguments: ["--keep-warm"])
    let warmUp = try await waitUntilWarm(daemon, count: options.issuers)
    let daemonPID = daemon.process.processIdentifier
    let rssWarm = residentBytes(daemonPID)

    var discoverClient: [Double] = []
    var discoverDaemon: [Double] = []
    var listedCounts: [Int] = []
    var slowestStatus: [Double] = []
    let client = try daemon.client()
    for _ in 0..<options.discoveries {
        let started = ContinuousClock.now
        let found = try await client.call("wallet.discover", JSONValue.object(["device": .string("iphone")]), as: DaemonAPI.Discovered.self)
        discoverClient.append(milliseconds(ContinuousClock.now - started))
        discoverDaemon.append(found.milliseconds)
        listedCounts.append(found.issuers.filter(\.listed).count)
        slowestStatus.append(found.issuers.compactMap(\.milliseconds).max() ?? .nan)
    }
    let rssAfter = residentBytes(daemonPID)
    let anonymousAfter = residentBytes(daemonPID, field: "RssAnon")
    // A long run: memory that grows with calls shows here, not after 30 discoveries.
    for _ in options.discoveries..<max(options.discoveries, options.longDiscoveries) {
        _ = try await client.call("wallet.discover", JSONValue.object(["device": .string("iphone")]), as: DaemonAPI.Discovered.self)
    }
    let rssLongRun = residentBytes(daemonPID)
    try await Task.sleep(for: .seconds(1))
    let rssLongRunQuiet = residentBytes(daemonPID)
    let anonymousLongRunQuiet = residentBytes(daemonPID, field: "RssAnon")
    line("  cold in process (baseline):   p50 \(format(percentile(coldMilliseconds, 0.5))) ms, listed \(coldListed.map(String.init).joined(separator: "/")) of \(options.issuers)")
    line("  warm through the daemon:      p50 \(format(percentile(discoverClient, 0.5))) ms at the client (daemon's own \(format(percentile(discoverDaemon, 0.5))) ms), p90 \(format(percentile(discoverClient, 0.9))) ms, \(options.discoveries) runs")
    line("                                listed \(listedCounts.min() ?? 0)..\(listedCounts.max() ?? 0) of \(options.issuers); slowest status in any run \(format(slowestStatus.max() ?? .nan)) ms (limit 100 ms)")
    line("  ratio warm/cold: \(format(percentile(discoverClient, 0.5) / percentile(coldMilliseconds, 0.5), 3))x; target p50 <= 20 ms: \(percentile(discoverClient, 0.5) <= 20 ? "met" : "MISSED")")
    line("  keep-warm launch of all \(options.issuers): \(format(warmUp, 0)) ms")
    line("")
    line("== daemon RSS")
    line("  idle daemon, no extension (baseline): \(format(Double(idleRSS) / 1_048_576, 1)) MB")
    line("  \(options.issuers) warm extensions: \(format(Double(rssWarm) / 1_048_576, 1)) MB after warm-up, \(format(Double(rssAfter) / 1_048_576, 1)) MB after \(options.discoveries) discoveries (ratio \(format(Double(rssAfter) / Double(max(idleRSS, 1)), 2))x; target <= 30 MB: \(rssAfter <= 30 << 20 ? "met" : "MISSED"))")
    line("  of which anonymous (RssAnon, the daemon's own): idle \(format(Double(idleAnonymous) / 1_048_576, 1)) MB, with \(options.issuers) warm extensions \(format(Double(anonymousAfter) / 1_048_576, 1)) MB")
    if options.longDiscoveries > options.discoveries {
        line("  after \(options.longDiscoveries) discoveries (as many status calls per extension): \(format(Double(rssLongRun) / 1_048_576, 1)) MB, "
             + "a quiet second later \(format(Double(rssLongRunQuiet) / 1_048_576, 1)) MB (anonymous \(format(Double(anonymousLongRunQuiet) / 1_048_576, 1)) MB; "
             + "target <= 30 MB: \(rssLongRunQuiet <= 30 << 20 ? "met" : "MISSED"))")
    }
    line("")
    let idleCPUWithGroups = try await idleCPUMillisecondsPerSecond(daemonPID)

    // Warm call: the same extension warm in process and through the daemon, less the client's
    // own cost. The C extension (no runtime) is the issue's figure; the SDK's minimal one beside it.
    var extensions = [("minimal SDK extension", apps100.appendingPathComponent("Issuer000.app/PlugIns/Status.appex"), daemon)]
    if !options.cExtension.isEmpty {
        extensions.insert(("C extension", try cExtensionBundle(executable: options.cExtension, in: work), daemon), at: 0)
    }
    // The same C extension through a daemon that busy-polls (`serve --busy-poll 2ms`): no
    // wake-up for the answer, a core kept busy while calls come.
    var busyPolling: Daemon?
    if let (label, appex, _) = extensions.first, !options.cExtension.isEmpty {
        let emptyApps = work.appendingPathComponent("no-apps")
        try FileManager.default.createDirectory(at: emptyApps, withIntermediateDirectories: true)
        let busy = try Daemon(apps: emptyApps, state: work.appendingPathComponent("state-busy-poll"), arguments: ["--busy-poll", "2ms"])
        busyPolling = busy
        extensions.append(("\(label), daemon with --busy-poll 2ms", appex, busy))
    }
    defer { busyPolling?.stop() }
    // What a wake-up costs here depends on whether an idle vCPU polls before it halts.
    line("== the machine's idle vCPUs: \(idleVCPUPolling())")
    for (label, appex, target) in extensions {
        let measured = try await warmStatusCalls(appex: appex, socket: target.socket, daemonPID: target.process.processIdentifier,
                                                 calls: options.calls, work: work,
                                                 cannedServer: options.cannedServer.isEmpty ? nil : options.cannedServer)
        let (inProcess, throughDaemon, daemonCPU) = (measured.inProcess, measured.throughDaemon, measured.daemonCPUMicroseconds)
        let inP50 = percentile(inProcess, 0.5) * 1000
        let daemonP50 = percentile(throughDaemon, 0.5) * 1000
        let sameProcessCostP50 = percentile(measured.clientCost, 0.5) * 1000
        // The baseline: a server process, as the daemon is (a thread of the bench's own process without the C server).
        let costP50 = measured.clientCostAcross.isEmpty ? sameProcessCostP50 : percentile(measured.clientCostAcross, 0.5) * 1000
        let added = daemonP50 - costP50 - inP50
        line("== warm status call, \(label), \(options.calls) each, interleaved")
        line("  in process (baseline):      p50 \(format(inP50, 1)) us, p90 \(format(percentile(inProcess, 0.9) * 1000, 1)) us")
        if measured.clientCostAcross.isEmpty {
            line("  the client's own cost:      p50 \(format(costP50, 1)) us (the same request and answer, a server thread that answers at once)")
        } else {
            line("  the client's own cost:      p50 \(format(costP50, 1)) us (the same request and answer, a server process that answers at once; "
                 + "from a thread of the client's own process: p50 \(format(sameProcessCostP50, 1)) us)")
        }
        line("  through the daemon:         p50 \(format(daemonP50, 1)) us, p90 \(format(percentile(throughDaemon, 0.9) * 1000, 1)) us (client -> socket -> daemon -> extension and back)")
        line("  added by the daemon: \(format(daemonP50, 1)) - \(format(costP50, 1)) - \(format(inP50, 1)) = \(added >= 0 ? "+" : "")\(format(added, 1)) us; target <= +50 us: \(added <= 50 ? "met" : "MISSED")")
        line("  the daemon's CPU per call:  \(format(daemonCPU, 1)) us (all its threads; a thread's wake-up included)")
    }
    // A request the daemon answers without an extension, beside the client's own cost for it.
    let deviceAnswer = try rawAnswer(socket: daemon.socket, method: "device.get", params: .object([:]))
    let cannedDevice = try CannedAnswerServer(answer: deviceAnswer, directory: work)
    let deviceEchoClient = try DaemonClient(connectingTo: cannedDevice.socketPath)
    let cannedDeviceProcess = try options.cannedServer.isEmpty ? nil
        : CannedAnswerProcess(executable: options.cannedServer, answer: deviceAnswer, directory: work)
    let deviceEchoAcrossClient = try cannedDeviceProcess.map { try DaemonClient(connectingTo: $0.socketPath) }
    var deviceEcho: [Double] = []
    var deviceEchoAcross: [Double] = []
    var unknownMethod: [Double] = []
    var deviceGet: [Double] = []
    for _ in 0..<options.calls {
        var started = ContinuousClock.now
        _ = try await deviceEchoClient.call("device.get", JSONValue.object([:]), as: DeviceSettings.self)
        deviceEcho.append(milliseconds(ContinuousClock.now - started))
        if let deviceEchoAcrossClient {
            started = ContinuousClock.now
            _ = try await deviceEchoAcrossClient.call("device.get", JSONValue.object([:]), as: DeviceSettings.self)
            deviceEchoAcross.append(milliseconds(ContinuousClock.now - started))
        }
        started = ContinuousClock.now
        _ = try? await client.call("no.such.method", JSONValue.object([:]), as: JSONValue.self)
        unknownMethod.append(milliseconds(ContinuousClock.now - started))
        started = ContinuousClock.now
        _ = try await client.call("device.get", JSONValue.object([:]), as: DeviceSettings.self)
        deviceGet.append(milliseconds(ContinuousClock.now - started))
    }
    let deviceP50 = percentile(deviceGet, 0.5) * 1000
    let sameProcessEchoP50 = percentile(deviceEcho, 0.5) * 1000
    let deviceEchoP50 = deviceEchoAcross.isEmpty ? sameProcessEchoP50 : percentile(deviceEchoAcross, 0.5) * 1000
    line("== a request the daemon answers without an extension, \(options.calls) each")
    if deviceEchoAcross.isEmpty {
        line("  device.get's answer from a server thread that answers at once (baseline): p50 \(format(deviceEchoP50, 1)) us")
    } else {
        line("  device.get's answer from a server process that answers at once (baseline): p50 \(format(deviceEchoP50, 1)) us "
             + "(from a thread of the client's own process: p50 \(format(sameProcessEchoP50, 1)) us)")
    }
    line("  device.get through the daemon: p50 \(format(deviceP50, 1)) us (\(format(deviceP50 / deviceEchoP50, 2))x; target <= 2x: \(deviceP50 <= 2 * deviceEchoP50 ? "met" : "MISSED")); an unknown method p50 \(format(percentile(unknownMethod, 0.5) * 1000, 1)) us")
    line("")
    daemon.stop()

    // The same 100 issuers without control groups (a host that is not root, or one with cgroup
    // v2 only): the reactor counts each extension's processes one by one.
    let stateNoGroups = work.appendingPathComponent("state-100-no-control-groups")
    try openIssuers(options.issuers, state: stateNoGroups)
    let noGroups = try Daemon(apps: apps100, state: stateNoGroups, arguments: ["--keep-warm", "--control-groups", "off"])
    defer { noGroups.stop() }
    _ = try await waitUntilWarm(noGroups, count: options.issuers)
    let noGroupsClient = try noGroups.client()
    var noGroupsDiscovery: [Double] = []
    for _ in 0..<options.discoveries {
        let started = ContinuousClock.now
        _ = try await noGroupsClient.call("wallet.discover", JSONValue.object(["device": .string("iphone")]), as: DaemonAPI.Discovered.self)
        noGroupsDiscovery.append(milliseconds(ContinuousClock.now - started))
    }
    let idleCPUNoGroups = try await idleCPUMillisecondsPerSecond(noGroups.process.processIdentifier)
    line("== \(options.issuers) warm issuers without control groups (each extension's processes counted one by one)")
    line("  idle daemon's CPU: \(format(idleCPUNoGroups, 1)) ms a second (with --control-groups auto, above: \(format(idleCPUWithGroups, 1)) ms a second)")
    line("  discovery p50 \(format(percentile(noGroupsDiscovery, 0.5))) ms at the client, p90 \(format(percentile(noGroupsDiscovery, 0.9))) ms "
         + "(with --control-groups auto \(format(percentile(discoverClient, 0.5))) ms); target p50 <= 20 ms: \(percentile(noGroupsDiscovery, 0.5) <= 20 ? "met" : "MISSED")")
    line("")
}

// MARK: 3. Idle clients: threads and memory

if options.runs("clients") {
    let descriptors = raiseDescriptorLimit(to: rlim_t(options.clients + 256))
    let count = min(options.clients, Int(descriptors) - 256)
    let idleApps = work.appendingPathComponent("clients-apps")
    try FileManager.default.createDirectory(at: idleApps, withIntermediateDirectories: true)
    let served = try Daemon(apps: idleApps, state: work.appendingPathComponent("clients-state"),
                            arguments: ["--max-clients", String(count + 16)])
    let pid = served.process.processIdentifier
    _ = try await served.call("host.status", as: JSONValue.self)
    let threads0 = threadCount(pid)
    let rss0 = residentBytes(pid)
    line("== idle clients (a daemon with no extension)")
    line("  no client (baseline): \(threads0) threads, RSS \(format(Double(rss0) / 1_048_576, 1)) MB")
    var held: [DaemonClient] = []
    for target in [2000, count] where target > held.count {
        while held.count < target { held.append(try served.client()) }
        let status = try await held[held.count - 1].call("host.status", [String: String](), as: DaemonAPI.Status.self)
        let threads = threadCount(pid)
        let rss = residentBytes(pid)
        line("  \(target) clients (\(status.clients) served): \(threads) threads (+\(threads - threads0)), RSS \(format(Double(rss) / 1_048_576, 1)) MB (+\(format(Double(rss - rss0) / 1_048_576, 1)) MB); target <= 64 threads, <= +64 MB: \(threads <= 64 && rss - rss0 <= 64 << 20 ? "met" : "MISSED")")
    }
    held.removeAll()
    let giveUp = ContinuousClock.now + .seconds(10)
    while try await served.call("host.status", as: DaemonAPI.Status.self).clients > 1 && ContinuousClock.now < giveUp {
        try await Task.sleep(for: .milliseconds(20))
    }
    let rssAfter = residentBytes(pid)
    line("  after they all left: \(threadCount(pid)) threads, RSS \(format(Double(rssAfter) / 1_048_576, 1)) MB (+\(format(Double(rssAfter - rss0) / 1_048_576, 1)) MB over no client)")
    line("")
    served.stop()
}

// MARK: 4. Fairness: another client while one pipelines

if options.runs("fairness") {
    let fairApps = work.appendingPathComponent("fairness-apps")
    try FileManager.default.createDirectory(at: fairApps, withIntermediateDirectories: true)
    let served = try Daemon(apps: fairApps, state: work.appendingPathComponent("fairness-state"))
    let other = try served.client()
    var idleTimes: [Double] = []
    for _ in 0..<300 {
        let started = ContinuousClock.now
        _ = try await other.call("host.status", [String: String](), as: DaemonAPI.Status.self)
        idleTimes.append(milliseconds(ContinuousClock.now - started))
        try await Task.sleep(for: .milliseconds(2))
    }
    // The flooder: one thread writes every request at once, another reads every answer.
    let flooder = try UnixSocket.connect(path: served.socket)
    var burst = Data()
    for id in 1...options.flood { burst.append(try WireCodec().request(id: .number(id), method: "host.status", params: NoParams())) }
    let writer = Thread { [burst] in _ = UnixSocket.writeAll(flooder, burst) }
    let answered = Atomic<Int>(0)
    let reader = Thread {
        var framer = LineFramer()
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while answered.load(ordering: .relaxed) < options.flood {
            let count = buffer.withUnsafeMutableBytes { recv(flooder, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            let lines = buffer.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }.count
            answered.add(lines, ordering: .relaxed)
        }
    }
    let floodStarted = ContinuousClock.now
    writer.start()
    reader.start()
    var floodTimes: [Double] = []
    while answered.load(ordering: .relaxed) < options.flood && floodTimes.count < 2000 {
        let started = ContinuousClock.now
        _ = try await other.call("host.status", [String: String](), as: DaemonAPI.Status.self)
        floodTimes.append(milliseconds(ContinuousClock.now - started))
        try await Task.sleep(for: .milliseconds(2))
    }
    let floodMilliseconds = milliseconds(ContinuousClock.now - floodStarted)
    while answered.load(ordering: .relaxed) < options.flood { try await Task.sleep(for: .milliseconds(10)) }
    close(flooder)
    let idle99 = percentile(idleTimes, 0.99)
    let flood99 = percentile(floodTimes, 0.99)
    line("== fairness: another client's host.status while one client pipelines \(options.flood) host.status")
    line("  no flood (baseline): p50 \(format(percentile(idleTimes, 0.5), 3)) ms, p99 \(format(idle99, 3)) ms, \(idleTimes.count) requests")
    line("  during the flood:    p50 \(format(percentile(floodTimes, 0.5), 3)) ms, p99 \(format(flood99, 3)) ms, max \(format(floodTimes.max() ?? .nan, 3)) ms, \(floodTimes.count) requests while the flood took \(format(floodMilliseconds, 0)) ms")
    line("  p99 added by the flood: +\(format(flood99 - idle99, 3)) ms; target <= +5 ms: \(flood99 - idle99 <= 5 ? "met" : "MISSED")")
    line("")
    served.stop()
}

// MARK: 5. 8 concurrent add-card clients against 8 Python issuers

if options.runs("addcard") {

    let pythonCount = 8
    let appsPython = work.appendingPathComponent("apps-python")
    try FileManager.default.createDirectory(at: appsPython, withIntermediateDirectories: true)
    let pythonApp = URL(fileURLWithPath: options.bundles).appendingPathComponent("PythonIssuer.app")
    for index in 1...pythonCount {
        let copy = appsPython.appendingPathComponent("PythonIssuer\(index).app")
        try FileManager.default.copyItem(at: pythonApp, to: copy)
        // Issuer N: its own bundle identifiers, App Group and cards (cards already in the library
        // are not offered again, so 8 issuers sharing cards would offer nothing after the first).
        let files = FileManager.default.enumerator(at: copy, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for url in files {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            let changed = text.replacingOccurrences(of: "com.example.pythonissuer", with: "com.example.pythonissuer\(index)")
                .replacingOccurrences(of: "PY-ACCT-", with: "PY\(index)-ACCT-")
            guard changed != text else { continue }
            let permissions = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions]
            try Data(changed.utf8).write(to: url)
            if let permissions { try FileManager.default.setAttributes([.posixPermissions: permissions], ofItemAtPath: url.path) }
        }
    }
    let script = work.appendingPathComponent("agent.json")
    try Data(#"{"answers": [{"action": "Log In", "values": {"username": "pyuser", "password": "py-wallet"}}], "biometric": ["match"]}"#.utf8)
        .write(to: script)

    line("== \(pythonCount) add-card clients at once, \(pythonCount) Python issuers, Wallet's real deadlines (status 100 ms)")
    // Baseline: 8 in-process add-card commands at once, each with its own cold extensions.
    let baselineState = work.appendingPathComponent("state-python-baseline")
    for index in 1...pythonCount {
        let open = Process()
        open.executableURL = URL(fileURLWithPath: options.walletHost)
        open.arguments = ["app", "open", "PythonIssuer\(index)", "--apps", appsPython.path, "--state", baselineState.path, "--no-daemon"]
        open.standardOutput = FileHandle.nullDevice
        try open.run()
        open.waitUntilExit()
    }
    let baselineStarted = ContinuousClock.now
    var commands: [Process] = []
    for index in 1...pythonCount {
        let command = Process()
        command.executableURL = URL(fileURLWithPath: options.walletHost)
        command.arguments = ["add-card", "--apps", appsPython.path, "--state", baselineState.path, "--no-daemon",
                             "--issuer", "com.example.pythonissuer\(index)", "--user-agent", script.path]
        command.standardOutput = FileHandle.nullDevice
        command.standardError = FileHandle.nullDevice
        try command.run()
        commands.append(command)
    }
    for command in commands { command.waitUntilExit() }
    let baselineMilliseconds = milliseconds(ContinuousClock.now - baselineStarted)
    let baselineSucceeded = commands.filter { $0.terminationStatus == 0 }.count

    let pythonState = work.appendingPathComponent("state-python")
    let pythonDaemon = try Daemon(apps: appsPython, state: pythonState, arguments: ["--keep-warm"])
    for index in 1...pythonCount {
        _ = try await pythonDaemon.call("apps.open", .object(["app": .string("PythonIssuer\(index)")]), as: JSONValue.self)
    }
    let pythonSocket = pythonDaemon.socket
    let daemonStarted = ContinuousClock.now
    let outcomes = try await withThrowingTaskGroup(of: (Bool, Double).self) { group in
        for index in 1...pythonCount {
            group.addTask {
                let started = ContinuousClock.now
                let client = try DaemonClient(connectingTo: pythonSocket)
                let report = try await client.call("wallet.addCard", DaemonAPI.AddCardParams(issuer: "com.example.pythonissuer\(index)", userAgent: true),
                                                   as: FlowReport.self, onRequest: { request in
                    if request.method == WireMethod.uiPrompt {
                        return JSONValue.object(["action": .string("Log In"), "values": .object(["username": .string("pyuser"), "password": .string("py-wallet")])])
                    }
                    return JSONValue.object(["success": .bool(true)])
                })
                if !report.succeeded {
                    line("  (daemon client \(index) failed: \(report.failure ?? "?"))")
                }
                return (report.succeeded, milliseconds(ContinuousClock.now - started))
            }
        }
        var all: [(Bool, Double)] = []
        for try await outcome in group { all.append(outcome) }
        return all
    }
    let daemonMilliseconds = milliseconds(ContinuousClock.now - daemonStarted)
    pythonDaemon.stop()
    line("  in process, 8 commands at once (baseline): \(baselineSucceeded) of \(pythonCount) succeeded, all done in \(format(baselineMilliseconds, 0)) ms")
    line("  through the daemon, 8 clients at once:     \(outcomes.filter(\.0).count) of \(pythonCount) succeeded, all done in \(format(daemonMilliseconds, 0)) ms (per client p50 \(format(percentile(outcomes.map(\.1), 0.5), 1)) ms)")
    line("  ratio daemon/in-process wall time: \(format(daemonMilliseconds / baselineMilliseconds, 3))x")
}
