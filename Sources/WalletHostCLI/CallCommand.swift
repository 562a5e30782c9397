import Foundation
import Wallet
import WalletBundleInspection
import WalletDaemonClient
import WalletHostRuntime
import WalletWire

/// `wallet-host call APPEX METHOD`: one call, with its result, timings and peak footprint.
struct CallCommand {
    let appexURL: URL
    let method: String
    let params: JSONValue
    let stateURL: URL
    let json: Bool
    let configuration: HostConfiguration
    let route: DaemonRoute
    /// Whether `--memory-limit`, `--hang-grace` or a network option was given: they shape a
    /// process, so the call runs on one of its own, in this process (so does `--verbose`, whose
    /// events are this process's). A UI extension's user is answered here on either route.
    let needsOwnProcess: Bool
    /// `--user-agent FILE`: the script that answers a UI extension's prompts.
    let userAgentFile: URL?
    /// `--interactive`: the person at the terminal answers them.
    let interactive: Bool
    /// `--verbose`: every event the host logged for the call, and the extension's output, after the report.
    let verbose: Bool

    static let spec = CommandSpec(
        "call",
        arguments: [.init(name: "APPEX", help: "The extension's .appex bundle."),
                    .init(name: "METHOD", help: "status, passEntries, remotePassEntries, generateAddPaymentPassRequest or authorize.")],
        summary: "Run one call on a fresh extension process and report its result, launch time, call time and peak footprint.",
        options: [.valued("params", "JSON", help: "The call's params, a JSON object (default {})."),
                  CommonOptions.state,
                  CommonOptions.json.withHelp("""
                      Print one object: result (or error with code, kind and message, and diagnostics: \
                      what else the host saw during the call), launchMs, callMs, totalMs, \
                      peakFootprintBytes, pid, sandboxed.
                      """),
                  .valued("user-agent", "FILE", help: """
                      Answer a UI extension's prompts (authorize) from a script, as add-card does (docs/CLI.md, \
                      "The user agent"). Excludes --interactive.
                      """),
                  .flag("interactive", help: "Answer a UI extension's prompts at the terminal, as add-card does."),
                  .flag("verbose", help: """
                      Also print every event the host logged for the call (spawn, handshake, the call, its answer, \
                      stop, exit) and the extension's stderr lines; runs in this process.
                      """)]
            + CommonOptions.daemon,
        takesHostOptions: true)

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, for: Self.spec)
        guard parsed.positionals.count == 2 else { throw UsageError("call needs APPEX and METHOD") }
        appexURL = URL(fileURLWithPath: parsed.positionals[0])
        method = parsed.positionals[1]
        try Self.checkTarget(appexURL)
        try Self.checkMethod(method)
        if let text = parsed.value("params") {
            let decoded: JSONValue
            do {
                decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            } catch {
                throw UsageError("--params is not valid JSON: \(JSONSyntax.problem(in: Data(text.utf8)) ?? WireCodec.describe(error))")
            }
            // A method's params are named (JSON-RPC's by-name form): every method takes an object.
            guard case .object = decoded else {
                throw UsageError("--params must be a JSON object such as {\"key\": 1}, not \(text)")
            }
            params = decoded
        } else {
            params = .object([:])
        }
        stateURL = parsed.value("state").map { URL(fileURLWithPath: $0) } ?? StateDirectory.defaultURL
        json = parsed.has("json")
        configuration = try HostOptions.configuration(from: parsed)
        route = DaemonRoute(parsed)
        userAgentFile = parsed.value("user-agent").map { URL(fileURLWithPath: $0) }
        interactive = parsed.has("interactive")
        verbose = parsed.has("verbose")
        guard !(interactive && userAgentFile != nil) else { throw UsageError("--user-agent and --interactive exclude each other") }
        needsOwnProcess = parsed.value("memory-limit") != nil || parsed.value("hang-grace") != nil
            || parsed.value("network") != nil || !parsed.values("allow-network").isEmpty || verbose
    }

    func run() async throws -> Int32 {
        let session = try await route.session(state: stateURL, configuration: configuration, daemonMay: !needsOwnProcess)
        let request = CallRequest(appex: appexURL, method: method, params: params, deadline: configuration.deadlineOverrides[method],
                                  userAgentFile: userAgentFile, interactive: interactive, json: json)
        let call = try await session.call(request)
        let outcome = call.outcome
        if json {
            printJSON(CallReport.json(outcome, deadline: outcome.deadline, lateNote: call.lateNote, sandboxed: outcome.sandboxed,
                                      verification: call.verification))
        } else {
            print(CallReport.human(outcome, executable: call.executable, deadline: outcome.deadline, lateNote: call.lateNote,
                                   artDirectory: call.artDirectory))
            if let verification = call.verification { print("payload: \(verification.summary)") }
            if let sandbox = SandboxSummary.note(outcome) { print(sandbox) }
            for line in call.networkLines { print(line) }
            if verbose, let events = call.events {
                print("events:")
                for event in events.events { print("  \(event.kind.rawValue): \(event.message)") }
                for line in events.outputLines { print("  output: \(line)") }
            }
        }
        let user = call.user
        let notes = json ? (user?.unanswered?.hint(issuer: nil) ?? []) : (user?.notes(issuer: nil) ?? [])
        if !notes.isEmpty { StandardError.write(notes.map { $0 + "\n" }.joined()) }
        if case .failure = outcome.result { return 1 }
        return 0
    }
}

/// A failure to report in one sentence, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

extension CallCommand {
    /// An app is not an extension: `call` runs one, so the error names the app's own.
    /// - Throws: ``UsageError`` listing `PlugIns/*.appex` of an `.app` given as APPEX.
    static func checkTarget(_ url: URL) throws(UsageError) {
        guard url.pathExtension == "app" else { return }
        let plugIns = url.appendingPathComponent("PlugIns")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: plugIns.path)) ?? []).filter { $0.hasSuffix(".appex") }.sorted()
        guard !names.isEmpty else {
            throw UsageError("\(url.path) is an app, and call runs one extension: give an .appex (this app has none in PlugIns)")
        }
        throw UsageError("\(url.path) is an app, and call runs one extension: give one of its extensions, "
                             + names.map { plugIns.appendingPathComponent($0).path }.joined(separator: " or "))
    }

    /// A method that differs from one of Wallet's only by a typo or its case is a usage error
    /// naming the method meant; any other name goes to the extension, which answers for itself.
    static func checkMethod(_ method: String) throws(UsageError) {
        let known = ExtensionPointRegistry.wallet.methodNames
        guard !known.contains(method), let meant = NearestName.to(method, among: known) else { return }
        throw UsageError("\"\(method)\" is not a method of Wallet's extension points (did you mean \(meant)?)")
    }
}
