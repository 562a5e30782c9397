import Foundation
import Wallet
import WalletDaemonClient
import WalletHostRuntime
import WalletWire

/// `wallet-host add-card`: Wallet's whole flow with the installed issuer apps.
struct AddCardCommand {
    let appsURL: URL
    /// `--apps` as given (nil: the default directory).
    let appsGiven: String?
    let stateURL: URL
    /// What `--issuer`, `--select` and `--device` state; a user agent script fills in the rest.
    let commandLine: UserPreferences
    let userAgentFile: URL?
    let interactive: Bool
    let json: Bool
    /// `--quiet`: the transcript's failures and the last line only.
    let quiet: Bool
    let htmlURL: URL?
    let configuration: HostConfiguration
    let route: DaemonRoute
    /// Whether a host option was given: the daemon's extensions run with the daemon's limits,
    /// so such a flow runs in this process.
    let hostOptionsGiven: Bool

    static let spec = CommandSpec(
        "add-card",
        summary: """
            Run Wallet's add-card flow with the installed issuer apps: discovery, authorization, entries, \
            then card by card the add-payment-pass request; exit 0 only when every selected card was added.
            """,
        options: [CommonOptions.apps,
                  CommonOptions.state,
                  .valued("issuer", "ID", help: """
                      The issuer to pick, by bundle identifier or app name (default: the user agent \
                      script's, else the first Wallet lists).
                      """),
                  CommonOptions.device.withHelp("""
                      Add to the iPhone or to the paired Apple Watch (default: the user agent script's, \
                      else iphone).
                      """),
                  .valued("user-agent", "FILE", help: """
                      Answer the UI extension from a script (JSON: answers, biometric, select, device, \
                      issuer; see docs/CLI.md). Excludes --interactive.
                      """),
                  .flag("interactive", help: """
                      Ask at the terminal: the bank and the cards from Wallet's lists (unless --issuer and \
                      --select chose them), passwords without echo, Face ID as [m]atch / [n]o match.
                      """),
                  .valued("select", "all|ID,...", help: """
                      The entries to add: all, or entry identifiers separated by commas (default: the \
                      user agent script's, else all).
                      """),
                  CommonOptions.json.withHelp("Print the flow's report as one JSON object; prompts then go to stderr."),
                  .flag("quiet", help: "Print only what failed (✘ lines, notes) and the last line, not every step."),
                  CommonOptions.html.withHelp("""
                      Also write Wallet's screens as the run went to a self-contained HTML page: the issuer                       list with each absent issuer's reason, the authorization form, the card art, the result per card.
                      """)] + CommonOptions.daemon,
        takesHostOptions: true)

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, for: Self.spec)
        guard parsed.positionals.isEmpty else { throw UsageError("add-card takes no positional arguments") }
        appsGiven = parsed.value("apps")
        appsURL = URL(fileURLWithPath: parsed.value("apps") ?? AppsDirectory.defaultPath)
        stateURL = StateCommands.stateURL(parsed)
        var commandLine = UserPreferences()
        commandLine.device = try parsed.value("device").map(StateCommands.parseDevice)
        commandLine.issuer = parsed.value("issuer")
        if let select = parsed.value("select") {
            commandLine.selection = select == "all" ? .all : .identifiers(try PassArguments.entryIdentifiers(select))
        }
        self.commandLine = commandLine
        userAgentFile = parsed.value("user-agent").map { URL(fileURLWithPath: $0) }
        interactive = parsed.has("interactive")
        guard !(interactive && userAgentFile != nil) else { throw UsageError("--user-agent and --interactive exclude each other") }
        json = parsed.has("json")
        quiet = parsed.has("quiet")
        htmlURL = parsed.value("html").map { URL(fileURLWithPath: $0) }
        configuration = try HostOptions.configuration(from: parsed)
        route = DaemonRoute(parsed)
        hostOptionsGiven = HostOptions.options.contains { parsed.value($0.name) != nil }
    }

    func run() async throws -> Int32 {
        try AppsDirectory.check(appsURL, given: appsGiven)
        let printer = TranscriptPrinter(enabled: !json, onlyProblems: quiet)
        let user = try AddCardUserChoice.choose(userAgentFile: userAgentFile, interactive: interactive, json: json)
        let options = AddCardOptions(commandLine.fillingGaps(from: user.preferences))
        // Each screen the UI extension shows is a transcript line, and in --json and the HTML page.
        let recorder = RecordingUserAgent(TranscribedUserAgent(user.agent, line: printer.line))
        let session = try await route.session(state: stateURL, configuration: configuration, daemonMay: !hostOptionsGiven,
                                              apps: appsURL)
        // The HTML page draws the offered entries' art, which the report does not carry.
        let request = AddCardRequest(options: options, user: user, answering: recorder, transcript: { printer.line($0) },
                                     wantsOffered: htmlURL != nil)
        let result = try await session.addCard(request)
        var report = result.report
        report.screens = recorder.screens
        if let htmlURL {
            var page = AddCardPage(report: report, offered: result.offered, exchanges: recorder.exchanges)
            page.notes = user.notes(issuer: report.issuer)
            try ReportFile.write(page.render(), to: htmlURL, report: "HTML report")
        }
        return finish(report, user: user, printer: printer)
    }

    /// Prints the report (the transcript was printed as the flow went) and gives the exit status.
    private func finish(_ report: FlowReport, user: AddCardUserChoice, printer: TranscriptPrinter) -> Int32 {
        if json {
            printJSON((try? JSONOutput.encode(report)) ?? "{}")
            // Only the hint on how to answer: the script's notes would be noise beside the JSON.
            let unanswered = user.unanswered?.hint(issuer: report.issuer) ?? []
            if !unanswered.isEmpty { StandardError.write(unanswered.map { $0 + "\n" }.joined()) }
        } else {
            user.notes(issuer: report.issuer).forEach(printer.line)
            printer.summary(report)
        }
        return report.succeeded ? 0 : 1
    }
}

/// Prints the human transcript as the flow goes.
struct TranscriptPrinter: Sendable {
    let enabled: Bool
    /// `--quiet`: only the lines that say something failed (✘, !), notes and the summary.
    var onlyProblems = false

    func line(_ text: String) {
        guard enabled else { return }
        if onlyProblems {
            let trimmed = text.drop { $0 == " " }
            guard trimmed.hasPrefix("✘") || trimmed.hasPrefix("!") || trimmed.hasPrefix("note:") else { return }
        }
        always(text)
    }

    /// Prints `text` whatever ``onlyProblems`` says.
    func always(_ text: String) {
        guard enabled else { return }
        // Line by line as the flow goes, also when stdout is a pipe (CI logs); a failed write
        // is reported when the command ends (StandardOutput.finish), not a crash here.
        StandardOutput.line(text)
    }

    func summary(_ report: FlowReport) {
        let added = report.cards.filter(\.added).count
        if report.succeeded {
            always("Added \(added) card(s) to \(report.device.deviceName).")
        } else {
            always("FAILED: \(report.failure ?? "no card was added")")
        }
    }
}
