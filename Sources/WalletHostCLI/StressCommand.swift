import Foundation
import Wallet
import WalletHostRuntime
import WalletStress
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// `wallet-host stress APPEX|APP...`: load an extension and report latency per method warm and
/// cold against each deadline, memory growth projected to the limit, chaos survived, and the
/// host's own health; `--fail-on` sets the exit status, `--junit` and `--html` write reports.
struct StressCommand {
    let bundleURLs: [URL]
    let plan: StressPlan
    let searchCPUShare: Bool
    let findMemoryLimit: Bool
    let stateURL: URL?
    let json: Bool
    let htmlURL: URL?
    let junitURL: URL?
    let thresholds: [StressThreshold]
    let configuration: HostConfiguration

    static let spec = CommandSpec(
        "stress",
        arguments: [.init(name: "APPEX|APP...", help: "An .appex, or an .app standing for its non-UI extensions.")],
        summary: """
            Load an extension with calls and report latency per method (warm and cold, p50/p90/p99/max) \
            against each deadline, memory growth per call projected to the limit, faults survived and \
            the host's own descriptors, threads and memory. docs/STRESS.md describes the report.
            """,
        options: [
            .valued("method", "M[,M...]", help: """
                The methods called in rotation (default status): status, passEntries, remotePassEntries, \
                generateAddPaymentPassRequest, each with valid params as in the add-card flow.
                """),
            .valued("calls", "N", help: "How many calls in all (default 1000)."),
            .valued("duration", "D", help: "Call for this long instead, e.g. 10s."),
            .valued("concurrency", "C", help: "Callers calling at once on the warm process (default 1)."),
            .valued("cold-every", "K", help: "Every K-th call runs on a fresh process, launch counted in its latency (default 0: never)."),
            .valued("cpu-share", "P%|search", help: """
                Give the extension's process group P% of one core by stopping and continuing it every 20 ms \
                (the cpulimit technique), to emulate a slower device; `search` finds the share below which \
                status starts missing its deadline.
                """),
            .valued("chaos", "FAULT[,FAULT...]", help: """
                Inject faults during calls: kill (SIGKILL), stop (SIGSTOP held past the call's deadline), \
                close-fd4 (the extension's fd 4 closed inside it, through ptrace).
                """),
            .valued("chaos-rate", "R", help: "The probability that a call gets a fault, 0 to 1 (default 0.05)."),
            .valued("seed", "N", help: "Seeds the choice and timing of faults, to replay a run (default 1)."),
            .flag("find-memory-limit", help: """
                Also bisect the lowest memory limit under which every call of a short run (50 calls) still succeeds.
                """),
            CommonOptions.state.withHelp("""
                Run on this simulated device (default: a fresh temporary one, where each extension's app is \
                opened first; removed afterwards unless a threshold failed).
                """),
            CommonOptions.json.withHelp("Print the report as one JSON object (schema in docs/STRESS.md); no progress line."),
            CommonOptions.html.withHelp("Also write a self-contained HTML page with the charts and the failures (nothing fetched)."),
            .valued("junit", "FILE", help: "Also write JUnit XML: one <testcase> per --fail-on threshold."),
            .valued("fail-on", "EXPR", help: """
                Exit 1 when any condition holds, e.g. "status.p99>80ms,lost>0,leak>0" (default \
                lost>0,zombies>0,failed>0,misses>0; with --chaos or --tolerate-failures lost>0,zombies>0). \
                docs/STRESS.md lists the metrics.
                """),
            .flag("tolerate-failures", help: """
                Without --fail-on, let failed calls and missed deadlines pass: exit 1 only for lost calls or zombies.
                """),
        ],
        takesHostOptions: true)

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, for: Self.spec)
        guard !parsed.positionals.isEmpty else { throw UsageError("stress needs at least one APPEX or APP") }
        bundleURLs = parsed.positionals.map { URL(fileURLWithPath: $0) }
        var plan = StressPlan()
        if let text = parsed.value("method") {
            let methods = text.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
            for method in methods where !StressPlan.supportedMethods.contains(method) {
                throw UsageError("--method: \"\(method)\" is not one of \(StressPlan.supportedMethods.joined(separator: ", "))")
            }
            guard !methods.isEmpty else { throw UsageError("--method needs at least one method") }
            plan.methods = methods
        }
        plan.calls = try parsed.count("calls", minimum: 1) ?? plan.calls
        guard parsed.value("calls") == nil || parsed.value("duration") == nil else {
            throw UsageError("--calls and --duration exclude each other: give a number of calls or a time")
        }
        if let duration = try HostOptions.duration(parsed, "duration", example: "10s or 500ms", allowsZero: false) {
            plan.duration = duration
        }
        plan.concurrency = try parsed.count("concurrency", minimum: 1) ?? 1
        plan.coldEvery = try parsed.count("cold-every", minimum: 0) ?? 0
        searchCPUShare = parsed.value("cpu-share") == "search"
        if let text = parsed.value("cpu-share"), !searchCPUShare {
            guard let share = Double(text.hasSuffix("%") ? String(text.dropLast()) : text), share >= 1, share <= 100 else {
                throw UsageError("--cpu-share expects a share of one core from 1% to 100% (or search), not \"\(text)\"")
            }
            plan.cpuSharePercent = share
        }
        if let text = parsed.value("chaos") {
            for name in text.split(separator: ",") {
                guard let fault = ChaosFault(rawValue: String(name)) else {
                    throw UsageError("--chaos: \"\(name)\" is not a fault (kill, stop, close-fd4)")
                }
                plan.chaos.insert(fault)
            }
        }
        if let text = parsed.value("chaos-rate") {
            guard let rate = Double(text), rate >= 0, rate <= 1 else {
                throw UsageError("--chaos-rate expects a probability from 0 to 1, not \"\(text)\"")
            }
            plan.chaosRate = rate
        }
        if let text = parsed.value("seed") {
            guard let seed = UInt64(text) else { throw UsageError("--seed expects a whole number, not \"\(text)\"") }
            plan.seed = seed
        }
        self.plan = plan
        findMemoryLimit = parsed.has("find-memory-limit")
        stateURL = parsed.value("state").map { URL(fileURLWithPath: $0) }
        json = parsed.has("json")
        htmlURL = parsed.value("html").map { URL(fileURLWithPath: $0) }
        junitURL = parsed.value("junit").map { URL(fileURLWithPath: $0) }
        // Failed calls and missed deadlines fail a run, unless faults are injected on purpose.
        let tolerant = parsed.has("tolerate-failures") || !plan.chaos.isEmpty
        do {
            thresholds = try parsed.value("fail-on").map(StressThreshold.parseList)
                ?? (tolerant ? StressThreshold.defaults : StressThreshold.strictDefaults).map { try StressThreshold($0) }
        } catch {
            throw UsageError("\(error)")
        }
        configuration = try HostOptions.configuration(from: parsed)
    }

    func run() async throws -> Int32 {
        let bundles = try StressTargets.resolve(bundleURLs)
        let stateURL = stateURL ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("wallet-host-stress-\(getpid())-\(UUID().uuidString.prefix(8))")
        let temporary = self.stateURL == nil
        // A throwaway state directory: its containers' images are unmounted with the command.
        defer { if temporary { ContainerVolume.release(under: stateURL.path) } }
        let progress = ProgressLine(enabled: !json && isatty(STDERR_FILENO) == 1)
        let request = StressRequest(bundles: bundles, plan: plan, findMemoryLimit: findMemoryLimit, searchCPUShare: searchCPUShare,
                                    thresholds: thresholds, openContainingApps: temporary,
                                    onProgress: progress.isEnabled ? { @Sendable in progress.show($0) } : nil)
        // Stress runs here: it measures the host that runs the extensions beside them.
        let session = InProcessSession(stateURL: stateURL, configuration: configuration)
        let runs = try await session.stress(request, afterEach: { progress.clear() })
        let reports = runs.map(\.report)
        try write(reports: reports, results: runs.map(\.result))
        let passed = reports.allSatisfy { $0.thresholds.allSatisfy { !$0.violated } }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = reports.count == 1 ? try encoder.encode(reports[0]) : try encoder.encode(["reports": reports])
            printJSON(String(decoding: data, as: UTF8.self))
        } else {
            for report in reports {
                print(report.renderText(thresholds: report.thresholds))
                if let search = report.memoryLimitSearch { print(search.sentence) }
                if let search = report.cpuShareSearch { print(search.sentence) }
            }
            if let junitURL { print("JUnit XML: \(junitURL.path)") }
            if let htmlURL { print("HTML report: \(htmlURL.path)") }
        }
        let state = StateDirectory(url: stateURL)
        if temporary && passed {
            // Its containers' images first: a directory with a mount in it is not removed (every
            // passing run on a root host left its wallet-host-stress-PID-N behind).
            ContainerVolume.release(under: state.url.path)
            try? FileManager.default.removeItem(at: state.url)
        } else if temporary {
            StandardError.write("stress: event log and extension output kept in \(state.logsURL.path)\n")
        }
        return passed ? 0 : 1
    }

    private func write(reports: [StressReport], results: [StressResult]) throws {
        if let junitURL {
            let xml = reports.map { $0.renderJUnit($0.thresholds) }.joined()
            try ReportFile.write(xml, to: junitURL, report: "JUnit report")
        }
        if let htmlURL {
            let page = StressPage(results: results, reports: reports).render()
            try ReportFile.write(page, to: htmlURL, report: "HTML report")
        }
    }
}

/// The live progress line on a terminal (stderr): calls done, rate, p50 and p99 so far, misses, kills.
struct ProgressLine: Sendable {
    let isEnabled: Bool

    init(enabled: Bool) {
        isEnabled = enabled
    }

    func show(_ progress: StressRun.Progress) {
        guard isEnabled else { return }
        let seconds = progress.elapsed.milliseconds / 1000
        let rate = seconds > 0 ? Double(progress.done) / seconds : 0
        let sorted = progress.recentLatencies.sorted()
        let done = progress.total.map { "\(progress.done)/\($0)" } ?? "\(progress.done)"
        let line = "\(done) calls · \(String(format: "%.0f", rate))/s · p50 "
            + "\(HumanReadable.milliseconds(LatencySummary.percentile(50, of: sorted))) · p99 "
            + "\(HumanReadable.milliseconds(LatencySummary.percentile(99, of: sorted))) · misses \(progress.misses) · kills \(progress.kills)"
        FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
    }

    func clear() {
        guard isEnabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
