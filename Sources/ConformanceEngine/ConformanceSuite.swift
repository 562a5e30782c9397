import Foundation
import WalletHostRuntime

/// Runs the conformance battery against extension bundles: every check runs the extension for
/// real through ``ExtensionRunner`` and reports passed, failed or skipped with evidence.
///
/// The engine is generic: the point's methods and deadlines come from the registry, and a
/// ``ConformanceProfile`` says how to call each method and adds the platform's own checks.
/// In order:
///
/// 1. `manifest-valid`: the bundle loads (no error finding).
/// 2. `handshake`: `initialize` succeeds on a fresh process.
/// 3. `result-shape-<method>`: every method of the point answers with its documented shape.
/// 4. `<method>-cold-deadline`, `<method>-warm-deadline`: methods with a short deadline meet it.
/// 5. `honours-cancel`, `concurrent-calls`.
/// 6. The profile's checks.
/// 7. `exits-on-exit`.
/// 8. Over the whole run: `memory-limit`, `fd4-protocol-only`, `exactly-once`.
///
/// When the bundle does not load or the handshake fails, the checks that need a running
/// extension are skipped and say why.
public struct ConformanceSuite: Sendable {
    public var profile: ConformanceProfile
    public var options: ConformanceOptions

    /// Creates a suite.
    public init(profile: ConformanceProfile, options: ConformanceOptions) {
        self.profile = profile
        self.options = options
    }

    /// Runs every check against one `.appex`. Never throws: every problem is a check result.
    /// - Parameters:
    ///   - url: The `.appex` directory.
    ///   - onLine: Receives the report's text a line at a time as the checks run (the heading,
    ///     the notes, each check as it ends, the summary), so that a person sees the run go.
    /// - Returns: The report, checks in the order they ran.
    public func run(appex url: URL, onLine: (@Sendable (String) -> Void)? = nil) async -> ConformanceReport {
        let report = await runChecks(appex: url, onLine: onLine ?? { _ in })
        onLine?(report.summary)
        return report
    }

    private func runChecks(appex url: URL, onLine: @Sendable (String) -> Void) async -> ConformanceReport {
        let started = ContinuousClock.now
        let name = url.deletingPathExtension().lastPathComponent
        var report = ConformanceReport(bundlePath: url.path, name: name, bundleIdentifier: nil, extensionPoint: nil, notes: [],
                                       checks: [], durationMilliseconds: 0)
        let manifestStarted = ContinuousClock.now
        let (bundle, findings) = profile.loader.loadExtension(at: url)
        let manifest = Self.result(StandardChecks.manifestID, StandardChecks.manifestTitle,
                                   StandardChecks.manifestVerdict(bundle: bundle, findings: findings), since: manifestStarted)
        report.checks.append(manifest)
        guard let bundle else {
            let skip = "skipped: the bundle does not load (see manifest-valid)"
            report.checks += Self.skipped(StandardChecks.withoutManifest(point: nil, options: options), reason: skip)
            report.durationMilliseconds = Self.milliseconds(since: started)
            onLine(ConformanceReport.heading(name: name, bundleIdentifier: nil, extensionPoint: nil))
            let width = report.checks.map(\.id.count).max() ?? 0
            for check in report.checks { onLine(ConformanceReport.line(check, width: width)) }
            return report
        }
        report.bundleIdentifier = bundle.bundleIdentifier
        report.extensionPoint = bundle.extensionPointIdentifier
        let checks = StandardChecks.withoutManifest(point: bundle.extensionPoint, options: options,
                                                    profileChecks: profile.checks(bundle.extensionPoint))
        let width = ([manifest.id] + checks.map(\.definition.id)).map(\.count).max() ?? 0
        onLine(ConformanceReport.heading(name: name, bundleIdentifier: bundle.bundleIdentifier, extensionPoint: bundle.extensionPointIdentifier))
        onLine(ConformanceReport.line(manifest, width: width))

        let environment: ConformanceEnvironment
        do {
            environment = try await profile.prepare(bundle)
        } catch {
            report.notes.append("the run could not be set up: \(error)")
            onLine(ConformanceReport.noteLine("the run could not be set up: \(error)"))
            report.checks += Self.skipped(checks, reason: "skipped: the run could not be set up: \(error)")
            for check in report.checks.dropFirst() { onLine(ConformanceReport.line(check, width: width)) }
            report.durationMilliseconds = Self.milliseconds(since: started)
            return report
        }
        report.notes += environment.notes
        environment.notes.map(ConformanceReport.noteLine).forEach(onLine)
        let context = ConformanceContext(bundle: bundle, environment: environment, options: options,
                                         exercises: profile.exercises)
        for check in checks {
            let checkStarted = ContinuousClock.now
            let verdict: ConformanceVerdict
            if check.needsHandshake && context.initialize == nil {
                verdict = .skipped("skipped: the extension did not complete its handshake (see handshake)")
            } else {
                if check.runWide { await context.stopAllRunners() }
                verdict = await check.definition.run(context)
            }
            let result = Self.result(check.definition.id, check.definition.title, verdict, since: checkStarted)
            report.checks.append(result)
            onLine(ConformanceReport.line(result, width: width))
        }
        await context.stopAllRunners()
        if let sandbox = SandboxSummary.note(context.events.events(.spawn)) {
            report.notes.append(sandbox)
            onLine(ConformanceReport.noteLine(sandbox))
        }
        report.durationMilliseconds = Self.milliseconds(since: started)
        return report
    }

    private static func result(_ id: String, _ title: String, _ verdict: ConformanceVerdict,
                               since started: ContinuousClock.Instant) -> ConformanceCheck {
        ConformanceCheck(id: id, title: title, status: verdict.status, evidence: verdict.evidence,
                         durationMilliseconds: milliseconds(since: started))
    }

    private static func skipped(_ checks: [StandardChecks.Planned], reason: String) -> [ConformanceCheck] {
        checks.map { ConformanceCheck(id: $0.definition.id, title: $0.definition.title, status: .skipped, evidence: reason,
                                      durationMilliseconds: 0) }
    }

    private static func milliseconds(since started: ContinuousClock.Instant) -> Double {
        ((.now - started).milliseconds * 1000).rounded() / 1000
    }
}
