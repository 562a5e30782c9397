import ConformanceEngine
import Foundation
import Wallet
import WalletDaemonClient
import WalletHostRuntime

/// `wallet-host conform APPEX...`: the conformance battery against each extension, every check
/// reported passed, failed or skipped with its evidence; JUnit XML for CI with `--junit FILE`.
/// Exit status 0 only when no check of any extension failed.
struct ConformCommand {
    let bundleURLs: [URL]
    let junitURL: URL?
    let htmlURL: URL?
    let json: Bool
    /// `--quiet`: only failed checks and the summaries.
    let quiet: Bool
    let stateURL: URL?
    let configuration: HostConfiguration
    let route: DaemonRoute
    /// Whether a host option was given: the daemon's extensions run with the daemon's limits.
    let hostOptionsGiven: Bool

    static let spec = CommandSpec(
        "conform",
        arguments: [.init(name: "APPEX...", help: "An .appex, or an .app standing for the extensions in its PlugIns.")],
        summary: """
            Run the conformance checks against each extension and print PASS, FAIL or SKIP with the \
            evidence; exit 0 only when no check failed. docs/CONFORMANCE.md lists the checks.
            """,
        options: [.valued("junit", "FILE", help: "Also write JUnit XML: one <testsuite> per extension, one <testcase> per check."),
                  CommonOptions.json.withHelp("Print the reports as one JSON object."),
                  .flag("quiet", help: "Print only the failed checks and each extension's summary line."),
                  CommonOptions.html.withHelp("Also write the checks with their evidence and timings to a self-contained HTML page."),
                  CommonOptions.state.withHelp("""
                      Run on this simulated device (default: a fresh temporary one, removed when every \
                      check passed and kept for diagnosis when one failed).
                      """)] + CommonOptions.daemon,
        takesHostOptions: true)

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, for: Self.spec)
        guard !parsed.positionals.isEmpty else { throw UsageError("conform needs at least one APPEX") }
        bundleURLs = parsed.positionals.map { URL(fileURLWithPath: $0) }
        junitURL = parsed.value("junit").map { URL(fileURLWithPath: $0) }
        htmlURL = parsed.value("html").map { URL(fileURLWithPath: $0) }
        json = parsed.has("json")
        quiet = parsed.has("quiet")
        stateURL = parsed.value("state").map { URL(fileURLWithPath: $0) }
        configuration = try HostOptions.configuration(from: parsed)
        route = DaemonRoute(parsed)
        hostOptionsGiven = HostOptions.options.contains { parsed.value($0.name) != nil }
    }

    func run() async throws -> Int32 {
        let appexes = try bundleURLs.flatMap(Self.extensions(in:))
        let state = StateDirectory(url: stateURL ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("wallet-host-conform-\(getpid())-\(UUID().uuidString.prefix(8))"))
        // A throwaway state directory: its containers' images are unmounted with the command.
        defer { if stateURL == nil { ContainerVolume.release(under: state.url.path) } }
        // Without --state the checks run on a fresh device that no daemon serves.
        let session = try await route.session(state: state.url, configuration: configuration,
                                              daemonMay: stateURL != nil && !hostOptionsGiven)
        let printer = TranscriptPrinter(enabled: !json)
        let started = Date()
        let reports = try await session.conform(appexes, onLine: quiet ? Self.quietLines(printer) : printer.line)
        if let junitURL {
            try ReportFile.write(reports.renderJUnit(timestamp: started), to: junitURL, report: "JUnit report")
        }
        if let htmlURL {
            try ReportFile.write(ConformancePage(reports: reports).render(), to: htmlURL, report: "HTML report")
        }
        let passed = reports.allSatisfy(\.passed)
        if json {
            printJSON(try reports.renderJSON())
        } else {
            summarize(extensions: reports.count, failed: reports.filter { !$0.passed }.map(\.failureName), printer: printer)
        }
        if stateURL == nil && passed {
            // Its containers' images first: a directory with a mount in it is not removed (every
            // passing run on a root host left its wallet-host-conform-PID-N behind).
            ContainerVolume.release(under: state.url.path)
            try? FileManager.default.removeItem(at: state.url)
        } else if stateURL == nil {
            // Kept for diagnosis: the event log and each extension's output.
            StandardError.write("conform: event log and extension output kept in \(state.logsURL.path)\n")
        }
        return passed ? 0 : 1
    }

    private func summarize(extensions: Int, failed: [String], printer: TranscriptPrinter) {
        if failed.isEmpty {
            printer.line("conform: every check passed for \(HumanReadable.counted(extensions, "extension"))")
        } else {
            printer.line("conform FAILED: \(failed.joined(separator: "; "))")
        }
        if let junitURL { printer.line("JUnit XML: \(junitURL.path)") }
    }

    /// With `--quiet`: the report's lines that say something went wrong, and its summary.
    private static func quietLines(_ printer: TranscriptPrinter) -> @Sendable (String) -> Void {
        { line in
            if line.hasPrefix("  FAIL ") || line.contains(": ") && line.contains(" checks, ") { printer.line(line) }
        }
    }

    /// An `.appex` as it is; an `.app` stands for the extensions in its `PlugIns`.
    private static func extensions(in url: URL) throws -> [URL] {
        guard url.pathExtension == "app" else { return [url] }
        let plugIns = url.appendingPathComponent("PlugIns")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: plugIns.path)) ?? []
        let appexes = names.filter { $0.hasSuffix(".appex") }.sorted().map { plugIns.appendingPathComponent($0) }
        guard !appexes.isEmpty else { throw CommandFailure("\(url.path) has no .appex in PlugIns to check") }
        return appexes
    }
}
