import Foundation
import Testing
import WalletDaemon
import WalletTestSupport
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// A real `wallet-host serve` for a test: its own apps and state directories, started and
/// waited for until its socket answers; killed (SIGKILL) when the test forgets to stop it.
final class DaemonProcess: @unchecked Sendable {
    let apps: URL
    let state: URL
    let process = Process()
    private let errorFile: URL

    var socketPath: String { state.appendingPathComponent("wallet-host.sock").path }
    var pid: Int32 { process.processIdentifier }

    /// Starts a daemon and waits until it answers on its socket.
    /// - Parameters:
    ///   - apps: the apps directory (a fresh empty one when nil).
    ///   - arguments: more `serve` options (`--keep-warm`, ...).
    init(apps: URL? = nil, state: URL? = nil, arguments: [String] = [], launcher: [String] = [],
         environment: [String: String]? = nil) throws {
        self.apps = try apps ?? TemporaryDirectory(prefix: "wallet-host-apps").url
        self.state = state ?? TemporaryDirectory.uniqueURL(prefix: "wallet-host-state")
        errorFile = TemporaryDirectory.uniqueURL(prefix: "wallet-host-serve-stderr")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let serve = ["serve", "--apps", self.apps.path, "--state", self.state.path] + arguments
        if let executable = launcher.first {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = Array(launcher.dropFirst()) + [BuildProducts.walletHost.path] + serve
        } else {
            process.executableURL = BuildProducts.walletHost
            process.arguments = serve
        }
        if let environment { process.environment = environment }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits until the socket answers (or the daemon exited, which fails the wait).
    @discardableResult
    func waitUntilServing(timeout: Duration = .seconds(10)) async throws -> Self {
        let giveUp = ContinuousClock.now + timeout
        // A daemon is up in tens of milliseconds: looked for 1 ms apart at first, then every 20 ms.
        var pause = Duration.milliseconds(1)
        while ContinuousClock.now < giveUp {
            if !process.isRunning {
                throw DaemonError("wallet-host serve exited with \(process.terminationStatus): \(standardError)")
            }
            if (try? DaemonClient(connectingTo: socketPath)) != nil { return self }
            try await Task.sleep(for: pause)
            pause = min(pause * 2, .milliseconds(20))
        }
        throw DaemonError("wallet-host serve did not answer on \(socketPath) within \(timeout): \(standardError)")
    }

    /// What the daemon wrote on stderr so far.
    var standardError: String {
        (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
    }

    /// One request on a fresh connection.
    func call(_ method: String, _ params: JSONValue = .object([:])) async throws -> JSONValue {
        let client = try DaemonClient(connectingTo: socketPath)
        return try await client.call(method, params)
    }

    /// The daemon's processes (`processes.list`).
    func processes() async throws -> [ProcessListing] {
        try DaemonClient.decode(DaemonAPI.Processes.self, from: try await call("processes.list")).processes
    }

    /// The listing of one extension, if the daemon has it.
    func process(_ bundleIdentifier: String) async throws -> ProcessListing? {
        try await processes().first { $0.bundleIdentifier == bundleIdentifier }
    }

    /// Waits until the daemon's event log (`logs/events.jsonl` in its state directory) shows a
    /// `call` event for `method`: the call has been written to the extension, and the host
    /// logs it before it can take the extension's answer to it.
    func waitForCallInFlight(_ method: String, timeout: Duration = .seconds(5),
                             sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let log = state.appendingPathComponent("logs/events.jsonl")
        try await waitFor("a \(method) call in the event log", timeout: timeout, sourceLocation: sourceLocation) {
            let lines = ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n")
            return lines.contains { line in
                let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return event?["kind"] as? String == "call" && event?["method"] as? String == method
            }
        }
    }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }

    /// Waits for the daemon to exit. - Returns: its exit status, nil if it is still running.
    func waitForExit(timeout: Duration = .seconds(30)) async throws -> Int32? {
        let giveUp = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < giveUp else { return nil }
            try await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: errorFile)
    }
}

/// Copies example apps into a fresh apps directory.
func appsDirectory(with apps: [URL]) throws -> URL {
    let directory = try TemporaryDirectory(prefix: "wallet-host-apps").url
    for app in apps {
        try FileManager.default.copyItem(at: app, to: directory.appendingPathComponent(app.lastPathComponent))
    }
    return directory
}

/// Whether a process with this pid exists (zombies included).
func processExists(_ pid: Int32) -> Bool {
    kill(pid, 0) == 0 || errno == EPERM
}
