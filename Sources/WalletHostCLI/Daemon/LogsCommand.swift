import Foundation
import Wallet

/// `wallet-host logs [-f]`: the state directory's event log (what the daemon and every command
/// saw of the extensions), one line per event; `-f` keeps following it, like `docker logs -f`.
struct LogsCommand {
    let stateURL: URL
    let follow: Bool
    let tail: Int?
    let json: Bool

    static let spec = CommandSpec(
        "logs",
        arguments: [.init(name: "[-f]", help: "Keep printing events as they are logged, until interrupted (as --follow).")],
        summary: """
            Print the event log of the state directory (<state>/logs/events.jsonl: spawns, calls, results, \
            deadline misses, kills, exits of the daemon's and the commands' extensions), one event a line.
            """,
        options: [CommonOptions.state,
                  .flag("follow", help: "Keep printing events as they are logged, until interrupted (-f)."),
                  .valued("tail", "N", help: "Start with the last N events (default: every event)."),
                  CommonOptions.json.withHelp("Print the log's JSON lines as they are (one JSON object a line).")])

    init(arguments: [String]) throws(UsageError) {
        var arguments = arguments
        let shortFollow = arguments.contains("-f")
        arguments.removeAll { $0 == "-f" }
        let parsed = try ParsedArguments(arguments, for: Self.spec)
        guard parsed.positionals.isEmpty else { throw UsageError("logs takes no positional arguments but -f") }
        stateURL = StateCommands.stateURL(parsed)
        follow = shortFollow || parsed.has("follow")
        tail = try parsed.count("tail", minimum: 0)
        json = parsed.has("json")
    }

    var eventsURL: URL { StateDirectory(url: stateURL).logsURL.appendingPathComponent("events.jsonl") }

    func run() async throws -> Int32 {
        let path = eventsURL.path
        var handle = FileHandle(forReadingAtPath: path)
        if handle == nil && !follow {
            throw CommandFailure("no event log at \(path): nothing ran on this state directory yet "
                                     + "(wallet-host serve, call or add-card write it)")
        }
        var pending = Data()
        var first = true
        while true {
            if handle == nil { handle = FileHandle(forReadingAtPath: path) }
            if let handle, let data = try? handle.readToEnd(), !data.isEmpty {
                pending.append(data)
                var lines = Self.completeLines(&pending)
                if first, let tail { lines = Array(lines.suffix(tail)) }
                for line in lines { StandardOutput.line(json ? line : Self.render(line)) }
            }
            first = false
            // Following ends when nobody reads any more (`logs -f | head -3`).
            guard follow, !StandardOutput.hasFailed else { return 0 }
            try? await Task.sleep(for: .milliseconds(200))
        }
    }

    /// The complete lines at the start of `buffer`, removed from it; a line still being written stays.
    static func completeLines(_ buffer: inout Data) -> [String] {
        guard let lastNewline = buffer.lastIndex(of: UInt8(ascii: "\n")) else { return [] }
        let complete = buffer[buffer.startIndex...lastNewline]
        buffer = Data(buffer[buffer.index(after: lastNewline)...])
        return complete.split(separator: UInt8(ascii: "\n")).map { String(decoding: $0, as: UTF8.self) }
    }

    /// `09:41:07.123  call      com.bank.ext[4242]  status #3 ...`: the event's time (UTC), kind,
    /// extension and pid, and its message; a line that is not an event is printed as it is.
    static func render(_ line: String) -> String {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { return line }
        let time = (object["time"] as? String).map { text -> String in
            guard let t = text.firstIndex(of: "T") else { return text }
            return String(text[text.index(after: t)...].prefix { $0 != "Z" })
        } ?? "-"
        let kind = (object["kind"] as? String ?? "?").padding(toLength: 16, withPad: " ", startingAt: 0)
        var who = object["bundleIdentifier"] as? String ?? "host"
        if let pid = object["pid"] as? Int { who += "[\(pid)]" }
        return "\(time)  \(kind)  \(who)  \(object["message"] as? String ?? "")"
    }
}
