import Foundation

/// `wallet-host doctor`: what this machine allows the host, and what follows from each.
struct DoctorCommand {
    let json: Bool

    static let spec = CommandSpec(
        "doctor",
        summary: """
            Say what this machine allows and what follows from it: namespaces for the sandbox, seccomp and cgroups \
            for per-extension limits, open files for the daemon, Chromium for the page checks, python3 for Python \
            issuers; each ok, warning or problem, with the fix. Exit 1 when any is a problem.
            """,
        options: [CommonOptions.json.withHelp("""
            Print {"findings": [{"capability", "verdict", "detail", "fix"}], "ok", "warnings", "problems"}.
            """)])

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, for: Self.spec)
        guard parsed.positionals.isEmpty else { throw UsageError("doctor takes no positional arguments") }
        json = parsed.has("json")
    }

    /// The JSON document `--json` prints.
    struct Report: Encodable {
        let findings: [DoctorFinding]
        let ok: Int
        let warnings: Int
        let problems: Int

        init(_ findings: [DoctorFinding]) {
            self.findings = findings
            ok = findings.filter { $0.verdict == .ok }.count
            warnings = findings.filter { $0.verdict == .warning }.count
            problems = findings.filter { $0.verdict == .problem }.count
        }
    }

    func run() throws -> Int32 {
        let report = Report(DoctorChecks.all())
        if json {
            printJSON(try JSONOutput.encode(report))
        } else {
            let width = (report.findings.map(\.capability.count).max() ?? 0) + 2
            for finding in report.findings {
                let verdict = finding.verdict.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)
                let name = finding.capability.padding(toLength: width, withPad: " ", startingAt: 0)
                print(verdict + name + finding.detail + (finding.fix.map { ". Fix: \($0)" } ?? ""))
            }
            print("\(report.findings.count) capabilities: \(report.ok) ok, \(report.warnings) warning(s), \(report.problems) problem(s)")
        }
        return report.problems > 0 ? 1 : 0
    }
}
