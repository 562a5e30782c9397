import ConformanceEngine
import Foundation
import Synchronization
import Wallet
import WalletBundleInspection
import WalletHostRuntime
import WalletWire

/// The commands' operations run in this process: extension processes of their own, on the
/// state directory's simulated device, with the command line's host options.
struct InProcessSession: HostSession {
    let stateURL: URL
    let configuration: HostConfiguration
    /// For add-card: the installed issuer apps.
    var appsURL: URL?

    func call(_ request: CallRequest) async throws -> CallSessionResult {
        let (bundle, findings) = BundleLoader.wallet.loadExtension(at: request.appex)
        guard let bundle else {
            let errors = findings.filter { $0.severity == .error }
            throw CommandFailure("cannot load \(request.appex.path):\n" + errors.map { "  \($0)" }.joined(separator: "\n"))
        }
        let state = StateDirectory(url: stateURL)
        let events = EventCollector(forwardingTo: try state.openEventLog())
        var configuration = configuration
        configuration.events = events
        // Only a UI extension asks the user; nobody answering is said after the call, with how to answer.
        let user = bundle.extensionPoint.role == .ui
            ? try AddCardUserChoice.choose(userAgentFile: request.userAgentFile, interactive: request.interactive, json: request.json)
            : nil
        configuration.services = DeviceServices(device: SimulatedDevice(state: state), userAgent: user?.agent)
        configuration.idleTimeout = nil
        let descriptor = ExtensionDescriptor(bundle: bundle, appGroups: try state.appGroupContainers(bundle.appGroups, team: bundle.team))
        let runner = ExtensionRunner(descriptor: descriptor, configuration: configuration)

        let method = request.method
        let provisioning = method == WireMethod.generateAddPaymentPassRequest
            ? try? ProvisioningCall(params: request.params, state: state) : nil
        // A UI extension waits on its user, who sees the prompts: no "no answer yet" beside them.
        let progress = CallProgress(method: method, executable: descriptor.executableName,
                                    deadline: configuration.deadline(for: method, at: bundle.extensionPoint),
                                    firstAfter: user == nil ? .seconds(1) : .seconds(24 * 3600))
        let outcome = await progress.reporting {
            await MethodResultShape.call(runner, method: method, params: provisioning?.params ?? request.params)
        }
        var lateNote: String?
        if case .failure(let error) = outcome.result, error.kind == .deadlineExceeded {
            // The hang verdict comes at the end of the grace: wait a little past it.
            let event = await events.firstEvent(within: configuration.hangGrace + .milliseconds(200), where: CallReport.endsTheWait)
            lateNote = CallReport.lateNote(event)
        }
        await runner.stop(reason: "call finished")
        // Each connection through the egress proxy, in the order they ended.
        let network = events.events(.networkConnection).map { "network: \($0.message)" }
        return CallSessionResult(outcome: outcome, executable: descriptor.executableName, lateNote: lateNote,
                                 verification: provisioning?.verify(outcome), networkLines: network,
                                 artDirectory: state.url.appendingPathComponent("art"), events: events, user: user)
    }

    func addCard(_ request: AddCardRequest) async throws -> AddCardSessionResult {
        let installed = InstalledApps(directory: appsURL ?? URL(fileURLWithPath: AppsDirectory.defaultPath))
        for finding in installed.findings where finding.isError { request.transcript("! \(finding)") }
        let state = StateDirectory(url: stateURL)
        try SimulatedDevice(state: state).checkStateReadable()
        var configuration = configuration
        configuration.events = try state.openEventLog()
        var flow = AddCardFlow(installed: installed, device: SimulatedDevice(state: state), configuration: configuration,
                               userAgent: request.answering, transcript: request.transcript)
        let offered = OfferedEntries()
        flow.offeredEntries = { offered.append($0) }
        if let chooser = request.user.chooser {
            flow.chooseIssuer = { await chooser.chooseIssuer($0) }
            flow.chooseEntries = { await chooser.chooseEntries($0) }
        }
        let report = await flow.run(request.options)
        return AddCardSessionResult(report: report, offered: offered.entries)
    }

    func conform(_ appexes: [URL], onLine: @escaping @Sendable (String) -> Void) async throws -> [ConformanceReport] {
        let state = StateDirectory(url: stateURL)
        var configuration = configuration
        configuration.events = try state.openEventLog()
        let suite = WalletConformance.suite(state: state, options: ConformanceOptions(configuration: configuration))
        var reports: [ConformanceReport] = []
        for url in appexes {
            // Check by check as they end (a pty and a pipe alike), then a blank line.
            reports.append(await suite.run(appex: url, onLine: onLine))
            onLine("")
        }
        return reports
    }
}

/// The entries the flow was offered, collected for the HTML page.
final class OfferedEntries: Sendable {
    private let collected = Mutex<[WirePassEntry]>([])

    var entries: [WirePassEntry] { collected.withLock { $0 } }

    func append(_ entries: [WirePassEntry]) {
        collected.withLock { $0 += entries }
    }
}
