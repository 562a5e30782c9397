import Foundation
import WalletDaemonClient
import WalletHostRuntime
import WalletWire

/// `wallet-host ps`: the daemon's extensions, like `docker ps`.
struct PsCommand {
    let stateURL: URL
    let connect: String?
    let json: Bool

    static let spec = CommandSpec(
        "ps",
        summary: """
            List the daemon's extensions: bundle id, pid, state (warm, busy, idle, stopped, crash-looping), \
            calls, deadline misses, peak footprint, uptime and last error.
            """,
        options: [CommonOptions.state,
                  CommonOptions.connect.withHelp("Ask the daemon listening on SOCKET (default <state>/wallet-host.sock)."),
                  CommonOptions.json.withHelp("""
                      Print {"processes": [{"bundleIdentifier", "pid", "state", "calls", "deadlineMisses", \
                      "peakFootprintBytes", "uptimeSeconds", "lastError", ...}]}.
                      """)])

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, for: Self.spec)
        guard parsed.positionals.isEmpty else { throw UsageError("ps takes no positional arguments") }
        stateURL = StateCommands.stateURL(parsed)
        connect = parsed.value("connect")
        json = parsed.has("json")
    }

    func run() async throws -> Int32 {
        let socket = connect ?? DaemonRoute.socketPath(forState: stateURL)
        let client: DaemonClient
        do {
            client = try DaemonClient(connectingTo: socket)
        } catch {
            throw CommandFailure("no wallet-host daemon answers on \(socket) (start one with wallet-host serve): \(error)")
        }
        let answer = try await DaemonRoute.call(client, DaemonMethods.processesList.name, NoParams(), as: JSONValue.self)
        if json {
            printJSON(DaemonRoute.compactJSON(answer))
            return 0
        }
        let listing = try DaemonClient.decode(DaemonAPI.Processes.self, from: answer)
        print(Self.table(listing.processes))
        return 0
    }

    /// Columns as `docker ps` lays them out: padded to the widest cell.
    static func table(_ processes: [ProcessListing]) -> String {
        var rows = [["BUNDLE ID", "PID", "STATE", "CALLS", "MISSES", "PEAK", "UPTIME", "LAST ERROR"]]
        for process in processes {
            rows.append([process.bundleIdentifier, process.pid.map(String.init) ?? "-", process.state, String(process.calls),
                         String(process.deadlineMisses), process.peakFootprintBytes.map(HumanReadable.megabytes) ?? "-",
                         process.uptimeSeconds.map { HumanReadable.milliseconds($0 * 1000) } ?? "-",
                         process.lastError.map { String($0.prefix(80)) } ?? ""])
        }
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}
