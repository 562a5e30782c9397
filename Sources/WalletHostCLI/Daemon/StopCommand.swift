import Foundation
import WalletDaemonClient
import WalletHostRuntime
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// `wallet-host stop`: the daemon serving the state directory drains and exits, like `docker stop`.
struct StopCommand {
    let stateURL: URL
    let connect: String?
    let timeout: Duration

    static let spec = CommandSpec(
        "stop",
        summary: """
            Stop the daemon serving the state directory: it finishes the requests in flight, stops its \
            extensions and exits; this command waits for it. No daemon running is not an error.
            """,
        options: [CommonOptions.state,
                  CommonOptions.connect.withHelp("Stop the daemon listening on SOCKET (default <state>/wallet-host.sock)."),
                  .valued("timeout", "DURATION", help: "How long to wait for the daemon to exit (default 30s); exit 1 past it.")])

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, for: Self.spec)
        guard parsed.positionals.isEmpty else { throw UsageError("stop takes no positional arguments") }
        stateURL = StateCommands.stateURL(parsed)
        connect = parsed.value("connect")
        timeout = try HostOptions.duration(parsed, "timeout", example: "30s or 500ms") ?? .seconds(30)
    }

    func run() async throws -> Int32 {
        let socket = connect ?? DaemonRoute.socketPath(forState: stateURL)
        guard let client = try? DaemonClient(connectingTo: socket) else {
            print("no wallet-host daemon is running on \(socket)")
            return 0
        }
        let status = try await DaemonRoute.call(client, DaemonMethods.hostStatus, NoParams())
        _ = try await DaemonRoute.call(client, DaemonMethods.hostShutdown, NoParams())
        guard await Self.waitForExit(pid: status.pid, within: timeout) else {
            throw CommandFailure("the daemon (pid \(status.pid)) is still running \(HumanReadable.milliseconds(timeout.milliseconds)) "
                                     + "after it was asked to stop; kill -TERM \(status.pid) ends it")
        }
        print("stopped the wallet-host daemon (pid \(status.pid)) on \(socket)")
        return 0
    }

    /// Waits until process `pid` has exited (the daemon is not our child: its pid is watched, not
    /// reaped; a zombie waiting for its parent to reap it has exited).
    private static func waitForExit(pid: Int32, within timeout: Duration) async -> Bool {
        let giveUp = ContinuousClock.now + timeout
        while isRunning(pid) {
            guard ContinuousClock.now < giveUp else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    /// Whether `pid` names a process that has not exited: `/proc/PID/stat`'s state is not `Z`.
    private static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first != "Z"
    }
}
