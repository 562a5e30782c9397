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
    /// Whether `--memory-limit` or `--hang-grace` was given: they shape a process, so the call
    /// runs on one of its own, in this process.
    let needsOwnProcess: Bool

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
                      """)] + CommonOptions.daemon,
        takesHostOptions: true)

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, for: Self.spec)
        guard parsed.positionals.count == 2 else { throw UsageError("call needs APPEX and METHOD") }
        appexURL = URL(fileURLWithPath: parsed.positionals[0])
        method = parsed.positionals[1]
        if let text = parsed.value("params") {
            let decoded: JSONValue
            do {
                decoded = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
            } catch {
                throw UsageError("--params is not valid JSON: \(WireCodec.describe(error))")
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
        needsOwnProcess = parsed.value("memory-limit") != nil || parsed.value("hang-grace") != nil
            || parsed.value("network") != nil || !parsed.values("allow-network").isEmpty
    }

    func run() async throws -> Int32 {
        if !needsOwnProcess, let client = try route.client(state: stateURL) {
            return try await runThroughDaemon(client)
        }
        let (bundle, findings) = BundleLoader.wallet.loadExtension(at: appexURL)
        guard let bundle else {
            let errors = findings.filter { $0.severity == .error }
            throw CommandFailure("cannot load \(appexURL.path):\n" + errors.map { "  \($0)" }.joined(separator: "\n"))
        }
        let state = StateDirectory(url: stateURL)
        let events = EventCollector(forwardingTo: try state.openEventLog())
        var configuration = configuration
        configuration.events = events
        configuration.services = DeviceServices(device: SimulatedDevice(state: state))
        configuration.idleTimeout = nil
        let descriptor = ExtensionDescriptor(bundle: bundle, appGroups: try state.appGroupContainers(bundle.appGroups, team: bundle.team))
        let runner = ExtensionRunner(descriptor: descriptor, configuration: configuration)

        let provisioning = method == WireMethod.generateAddPaymentPassRequest ? try? ProvisioningCall(params: params, state: state) : nil
        let outcome = await MethodResultShape.call(runner, method: method, params: provisioning?.params ?? params)
        var lateNote: String?
        if case .failure(let error) = outcome.result, error.kind == .deadlineExceeded {
            lateNote = await waitForLateCompletion(events, grace: configuration.hangGrace)
        }
        await runner.stop(reason: "call finished")

        let deadline = outcome.deadline
        if json {
            printJSON(CallReport.json(outcome, deadline: deadline, lateNote: lateNote, sandboxed: outcome.sandboxed,
                                  verification: provisioning?.verify(outcome)))
        } else {
            print(CallReport.human(outcome, executable: descriptor.executableName, deadline: deadline, lateNote: lateNote))
            if let verification = provisioning?.verify(outcome) { print("payload: \(verification.summary)") }
            if let sandbox = SandboxSummary.note(outcome) { print(sandbox) }
            // Each connection through the egress proxy, in the order they ended.
            for event in events.events(.networkConnection) { print("network: \(event.message)") }
        }
        if case .failure = outcome.result { return 1 }
        return 0
    }

    /// The same call on the daemon's warm process; the daemon renders the report.
    private func runThroughDaemon(_ client: DaemonClient) async throws -> Int32 {
        let request = DaemonAPI.ExtensionCallParams(appex: appexURL.standardizedFileURL.path, method: method, params: params,
                                                    deadlineMs: configuration.deadlineOverrides[method]?.milliseconds, transcript: !json)
        let answer = try await DaemonRoute.call(client, DaemonMethods.extensionCall, request)
        if json {
            printJSON(DaemonRoute.compactJSON(answer.report))
        } else if let transcript = answer.transcript {
            print(transcript)
        }
        return answer.succeeded ? 0 : 1
    }

    /// After a missed deadline, gives the extension its grace to answer late, so the report can
    /// say how long it really took ("status took 152 ms").
    private func waitForLateCompletion(_ events: EventCollector, grace: Duration) async -> String? {
        // The hang verdict comes at the end of the grace: wait a little past it.
        let event = await events.firstEvent(within: grace + .milliseconds(200), where: CallReport.endsTheWait)
        return CallReport.lateNote(event)
    }
}

/// A failure to report in one sentence, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
