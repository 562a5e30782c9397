import Foundation
import WalletHostCore
import WalletSimulator

/// `wallet-host add-card`: Wallet's whole flow with the installed issuer apps.
struct AddCardCommand {
    let appsURL: URL
    let stateURL: URL
    let options: AddCardOptions
    let userAgentFile: URL?
    let interactive: Bool
    let json: Bool
    let configuration: HostConfiguration

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, valued: ["apps", "state", "issuer", "device", "user-agent", "select",
                                                             "deadline", "memory-limit", "hang-grace"],
                                         flags: ["json", "interactive"])
        guard parsed.positionals.isEmpty else { throw UsageError("add-card takes no positional arguments") }
        appsURL = URL(fileURLWithPath: parsed.value("apps") ?? AppsDirectory.defaultPath)
        stateURL = StateCommands.stateURL(parsed)
        var options = AddCardOptions()
        options.device = try parsed.value("device").map(StateCommands.parseDevice) ?? .iphone
        options.issuer = parsed.value("issuer")
        if let select = parsed.value("select") {
            options.selection = select == "all" ? .all : .identifiers(select.split(separator: ",").map(String.init))
        }
        self.options = options
        userAgentFile = parsed.value("user-agent").map { URL(fileURLWithPath: $0) }
        interactive = parsed.has("interactive")
        guard !(interactive && userAgentFile != nil) else { throw UsageError("--user-agent and --interactive exclude each other") }
        json = parsed.has("json")
        configuration = try HostOptions.configuration(from: parsed)
    }

    func run() async throws -> Int32 {
        let installed = InstalledApps(directory: appsURL)
        let printer = TranscriptPrinter(enabled: !json)
        for finding in installed.findings where finding.isError { printer.line("! \(finding)") }
        let userAgent: (any UserAgent)?
        if let userAgentFile {
            userAgent = try ScriptedUserAgent(contentsOf: userAgentFile)
        } else if interactive {
            userAgent = InteractiveUserAgent()
        } else {
            userAgent = nil
        }
        let state = StateDirectory(url: stateURL)
        var configuration = configuration
        configuration.events = try EventLogFile(directory: state.logsURL)
        let flow = AddCardFlow(installed: installed, device: SimulatedDevice(state: state), configuration: configuration,
                               userAgent: userAgent, transcript: { printer.line($0) })
        let report = await flow.run(options)
        if json {
            print(try JSONOutput.encode(report))
        } else {
            printer.summary(report)
        }
        return report.succeeded ? 0 : 1
    }
}

/// Prints the human transcript as the flow goes.
struct TranscriptPrinter: Sendable {
    let enabled: Bool

    func line(_ text: String) {
        guard enabled else { return }
        // Line by line as the flow goes, also when stdout is a pipe (CI logs).
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    func summary(_ report: FlowReport) {
        let added = report.cards.filter(\.added).count
        if report.succeeded {
            line("Added \(added) card(s) to \(report.device.deviceName).")
        } else {
            line("FAILED: \(report.failure ?? "no card was added")")
        }
    }
}
