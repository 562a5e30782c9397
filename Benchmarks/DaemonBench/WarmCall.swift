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
    let cpuBefore = cpuNanoseconds(of: daemonPID)
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
    let cpuPerCall = Double(cpuNanoseconds(of: daemonPID) - cpuBefore) / Double(max(calls, 1)) / 1000
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

/// The CPU time every thread of `pid` has run, in nanoseconds (`/proc/PID/task/*/schedstat`).
func cpuNanoseconds(of pid: Int32) -> Int {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.reduce(0) { total, task in
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8)) ?? ""
        return total + (Int(text.split(separator: " ").first ?? "") ?? 0)
    }
}
