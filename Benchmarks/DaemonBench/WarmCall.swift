import Foundation
import Wallet
import WalletBundleInspection
import WalletDaemon
import WalletHostRuntime
import WalletWire

/// What a client reads of `extension.call`'s answer: the report `call --json` prints, typed.
struct CallAnswer: Decodable {
    struct Report: Decodable {
        var method: String
        var result: StatusResult?
        var pid: Int32?
        var launchedProcess: Bool
        var callMs: Double
        var totalMs: Double
        var peakFootprintBytes: Int?
    }
    var report: Report
    var succeeded: Bool
}

/// One extension's warm `status`, `calls` times each, in milliseconds: in process (its own
/// runner), through the daemon at `socket`, and the client's own cost (the same client and lines
/// against a server that answers at once with the daemon's answer): from a thread of this
/// process, and from a process of its own when `cannedServer` (Benchmarks/CannedAnswerServer)
/// is given. They are interleaved, call by call, so that the machine's moods fall on all alike.
/// Also the daemon's CPU time (every thread's, from the kernel's scheduler statistics) per call
/// through it, in microseconds: `daemonPID`'s, over the loop.
func warmStatusCalls(appex: URL, socket: String, daemonPID: Int32, calls: Int, work: URL, cannedServer: String?) async throws
    -> (inProcess: [Double], throughDaemon: [Double], clientCost: [Double], clientCostAcross: [Double], daemonCPUMicroseconds: Double) {
    let (bundle, findings) = BundleLoader.wallet.loadExtension(at: appex)
    guard let bundle else { throw DaemonError("cannot load \(appex.path): \(findings)") }
    var configuration = HostConfiguration()
    configuration.idleTimeout = nil
    let runner = ExtensionRunner(descriptor: ExtensionDescriptor(bundle: bundle, appGroups: [:]), configuration: configuration)
    await runner.prewarm()
    let params = JSONValue.object(["appex": .string(appex.path), "method": .string("status")])
    let daemon = try DaemonClient(connectingTo: socket)
    // Warm the daemon's process for it, then capture its answer for the canned server.
    _ = try await daemon.call("extension.call", params, as: CallAnswer.self)
    let answer = try rawAnswer(socket: socket, method: "extension.call", params: params)
    let canned = try CannedAnswerServer(answer: answer, directory: work)
    let echo = try DaemonClient(connectingTo: canned.socketPath)
    let cannedProcess = try cannedServer.map { try CannedAnswerProcess(executable: $0, answer: answer, directory: work) }
    let echoAcross = try cannedProcess.map { try DaemonClient(connectingTo: $0.socketPath) }
    var inProcess: [Double] = []
    var throughDaemon: [Double] = []
    var clientCost: [Double] = []
    var clientCostAcross: [Double] = []
    let cpuBefore = CPUReading(of: daemonPID)
    for _ in 0..<calls {
        var started = ContinuousClock.now
        _ = await runner.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        inProcess.append((ContinuousClock.now - started).milliseconds)
        started = ContinuousClock.now
        _ = try await daemon.call("extension.call", params, as: CallAnswer.self)
        throughDaemon.append((ContinuousClock.now - started).milliseconds)
        started = ContinuousClock.now
        _ = try await echo.call("extension.call", params, as: CallAnswer.self)
        clientCost.append((ContinuousClock.now - started).milliseconds)
        if let echoAcross {
            started = ContinuousClock.now
            _ = try await echoAcross.call("extension.call", params, as: CallAnswer.self)
            clientCostAcross.append((ContinuousClock.now - started).milliseconds)
        }
    }
    let cpuPerCall = Double(CPUReading(of: daemonPID).nanoseconds(since: cpuBefore)) / Double(max(calls, 1)) / 1000
    await runner.stop()
    return (inProcess, throughDaemon, clientCost, clientCostAcross, cpuPerCall)
}

/// The C extension (Benchmarks/CStatusExt, no runtime) in a bundle of its own.
func cExtensionBundle(executable: String, in directory: URL) throws -> URL {
    let appex = directory.appendingPathComponent("CBench.app/PlugIns/CStatusExt.appex")
    try FileManager.default.createDirectory(at: appex, withIntermediateDirectories: true)
    try PropertyListSerialization.data(fromPropertyList: ["CFBundleIdentifier": "com.example.cbench", "CFBundleExecutable": "CBench"],
                                       format: .xml, options: 0)
        .write(to: directory.appendingPathComponent("CBench.app/Info.plist"))
    let info: [String: Any] = [
        "CFBundleIdentifier": "com.example.cbench.CStatusExt", "CFBundleExecutable": "CStatusExt", "MinimumOSVersion": "14.0",
        "NSExtension": ["NSExtensionPointIdentifier": WalletExtensionPoint.nonUI, "NSExtensionPrincipalClass": "CStatusExt.Handler"],
    ]
    try PropertyListSerialization.data(fromPropertyList: info, format: .xml, options: 0).write(to: appex.appendingPathComponent("Info.plist"))
    try FileManager.default.copyItem(atPath: executable, toPath: appex.appendingPathComponent("CStatusExt").path)
    return appex
}

/// The CPU time every thread of `pid` has run, each thread's in nanoseconds
/// (`/proc/PID/task/TID/schedstat`), with the whole process's user and system time in clock
/// ticks (`/proc/PID/stat`), which also counts threads that have exited.
struct CPUReading {
    var threads: [String: Int]
    var processTicks: Int

    init(of pid: Int32) {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var threads: [String: Int] = [:]
        for task in tasks {
            let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)) ?? ""
            if let nanoseconds = Int(text.split(separator: " ").first ?? "") { threads[task] = nanoseconds }
        }
        self.threads = threads
        // Fields 14 and 15 (utime, stime) follow the command name's closing parenthesis.
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        let fields = stat.split(separator: ")").last.map { $0.split(separator: " ") } ?? []
        processTicks = fields.count > 12 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : 0
    }

    /// The CPU run since `earlier`, in nanoseconds. Summing every live thread's figure at both
    /// readings went negative when a thread (a finished launch's watch thread) exited in between:
    /// its time left the second sum. With the same threads at both readings the per-thread figures
    /// are exact; otherwise the process's tick count (10 ms each) is the one that still holds.
    func nanoseconds(since earlier: CPUReading) -> Int {
        if Set(threads.keys) == Set(earlier.threads.keys) {
            return threads.reduce(0) { $0 + $1.value - earlier.threads[$1.key, default: 0] }
        }
        let ticksPerSecond = max(Int(sysconf(Int32(_SC_CLK_TCK))), 1)
        return (processTicks - earlier.processTicks) * (1_000_000_000 / ticksPerSecond)
    }
}
