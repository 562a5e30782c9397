import Foundation
import WalletHostRuntime
import WalletWire

/// Which entries the user selects.
public enum EntrySelection: Sendable, Equatable {
    case all
    case identifiers([String])
}

/// Options of one add-card run: everything the flow is told, the user's preferences included
/// (the flow never asks its user agent for them).
public struct AddCardOptions: Sendable {
    /// The device to add cards to.
    public var device: DeviceKind = .iphone
    /// The issuer to pick (bundle id or app name); nil picks the first Wallet lists.
    public var issuer: String?
    /// The entries to add; nil adds every usable entry.
    public var selection: EntrySelection?

    /// Creates the options of one run.
    public init(device: DeviceKind = .iphone, issuer: String? = nil, selection: EntrySelection? = nil) {
        self.device = device
        self.issuer = issuer
        self.selection = selection
    }

    /// The options that carry out `preferences`: the device they name (else the iPhone), their
    /// issuer and their selection.
    public init(_ preferences: UserPreferences) {
        self.init(device: preferences.device ?? .iphone, issuer: preferences.issuer, selection: preferences.selection)
    }
}

/// Wallet's "add card" flow (DESIGN §9) against the simulated device: discovery through every
/// issuer's `status`, authorization through the UI extension, entries for the chosen device,
/// then card by card `generateAddPaymentPassRequest`, each valid request adding a pass.
public struct AddCardFlow: Sendable {
    public let installed: InstalledApps
    public let device: SimulatedDevice
    public let configuration: HostConfiguration
    public let userAgent: (any UserAgent)?
    /// Receives one line per step as it happens (the human transcript).
    public let transcript: @Sendable (String) -> Void
    /// Makes the runners for one run; nil makes fresh ones, stopped when the run ends.
    public let runnerSource: (@Sendable () -> any IssuerRunnerSource)?
    /// Receives the entries the extension offered, art included, before they are validated
    /// (the `--html` page draws them as Wallet shows them).
    public var offeredEntries: (@Sendable ([WirePassEntry]) -> Void)?
    /// Asks the user which listed issuer to pick when the options name none (`add-card
    /// --interactive` lists them); it answers a bundle identifier, or nil for Wallet's first.
    public var chooseIssuer: (@Sendable ([DiscoveredIssuer]) async -> String?)?
    /// Asks the user which usable entries to add when the options select none; nil adds all.
    public var chooseEntries: (@Sendable ([WirePassEntry]) async -> EntrySelection?)?

    public init(installed: InstalledApps, device: SimulatedDevice, configuration: HostConfiguration,
                userAgent: (any UserAgent)?, transcript: @escaping @Sendable (String) -> Void = { _ in },
                runnerSource: (@Sendable () -> any IssuerRunnerSource)? = nil) {
        self.installed = installed
        self.device = device
        self.configuration = configuration
        self.userAgent = userAgent
        self.transcript = transcript
        self.runnerSource = runnerSource
    }

    private func makeRunners() -> any IssuerRunnerSource {
        runnerSource?() ?? IssuerRunners(installed: installed, device: device, configuration: configuration, userAgent: userAgent)
    }

    /// Runs the whole flow. Never throws: every failure is in the report.
    public func run(_ options: AddCardOptions) async -> FlowReport {
        var report = FlowReport(device: options.device)
        let runners = makeRunners()
        await runFlow(options, runners: runners, report: &report)
        await runners.stopAll()
        return report
    }

    /// Discovery alone: what Wallet would list for `kind` right now.
    public func discover(_ kind: DeviceKind) async -> [DiscoveredIssuer] {
        await discoverTimed(kind).issuers
    }

    /// Discovery alone, with how long the whole of it took.
    public func discoverTimed(_ kind: DeviceKind) async -> (issuers: [DiscoveredIssuer], milliseconds: Double) {
        let runners = makeRunners()
        let result = await Discovery(installed: installed, device: device, runners: runners, transcript: { _ in }).run(for: kind)
        await runners.stopAll()
        return (result.issuers, result.milliseconds)
    }

    private func runFlow(_ options: AddCardOptions, runners: any IssuerRunnerSource, report: inout FlowReport) async {
        var options = options
        // A library that cannot be read would look empty: every card would look new.
        do {
            try device.checkStateReadable()
        } catch {
            report.failure = "\(error)"
            transcript("✘ \(error)")
            return
        }
        // 1-2. Discovery.
        let discovery = await Discovery(installed: installed, device: device, runners: runners, transcript: transcript)
            .run(for: options.device)
        report.discovery = discovery.issuers
        report.steps.append(FlowStep(step: "discovery", ok: discovery.issuers.contains { $0.listed },
                                     milliseconds: discovery.milliseconds,
                                     detail: "\(discovery.issuers.filter(\.listed).count) of \(discovery.issuers.count) issuers listed"))
        if options.issuer == nil, let chooser = chooseIssuer, discovery.issuers.contains(where: \.listed) {
            options.issuer = await chooser(discovery.issuers.filter(\.listed))
        }
        guard let chosen = chooseIssuer(options, discovery.issuers, report: &report) else { return }
        report.issuer = chosen.bundleIdentifier
        guard let app = installed.apps.first(where: { $0.bundleIdentifier == chosen.bundleIdentifier }),
              let status = chosen.status else { return }
        transcript("User picks \(chosen.name).")

        // 3. Authorization.
        if status.requiresAuthentication {
            guard await authorize(app, runners: runners, report: &report) else { return }
        }

        // A flow run for a client that left (the daemon cancels its task) adds nothing more.
        guard !cancelled(&report) else { return }
        // 4. Entries.
        guard let entries = await fetchEntries(app, device: options.device, runners: runners, report: &report) else { return }
        if options.selection == nil, let chooser = chooseEntries { options.selection = await chooser(entries) }
        guard let selected = select(entries, options: options, report: &report) else { return }

        // 5-6. Card by card.
        var issuedNonces: [Data] = []
        for entry in selected {
            guard !cancelled(&report) else { return }
            let outcome = await provision(entry, app: app, device: options.device, runners: runners, issuedNonces: &issuedNonces,
                                          report: &report)
            report.cards.append(outcome)
        }
        if report.cards.contains(where: { !$0.added }) {
            report.failure = "\(report.cards.filter { !$0.added }.count) of \(report.cards.count) cards were not added"
        }
    }

    /// Whether the flow's task was cancelled; if so the report says the flow stopped there.
    private func cancelled(_ report: inout FlowReport) -> Bool {
        guard Task.isCancelled else { return false }
        report.failure = "the flow was cancelled"
        return true
    }

    private func chooseIssuer(_ options: AddCardOptions, _ issuers: [DiscoveredIssuer], report: inout FlowReport) -> DiscoveredIssuer? {
        let listed = issuers.filter(\.listed)
        if let wanted = options.issuer {
            guard let issuer = issuers.first(where: { $0.bundleIdentifier == wanted || $0.name == wanted }) else {
                report.failure = "no installed issuer app is called \(wanted)"
                transcript("✘ \(report.failure!)")
                return nil
            }
            guard issuer.listed else {
                report.failure = "Wallet does not list \(issuer.name): \(issuer.reason ?? "not listed")"
                transcript("✘ \(report.failure!)")
                return nil
            }
            return issuer
        }
        guard let first = listed.first else {
            report.failure = "Wallet would list no issuer app for \(report.device.deviceName)"
            transcript("✘ \(report.failure!)")
            return nil
        }
        return first
    }
}
