/// The result of validating bundles: every finding, what loaded, and the text `wallet-host validate` prints.
public struct ValidationReport: Sendable {
    /// Every finding, in the order the paths and bundles were read.
    public var findings: [ValidationFinding]
    /// How many bundles (apps and extensions) were read, loaded or not.
    public var bundleCount: Int
    /// The apps that loaded.
    public var apps: [AppBundle]
    /// The extensions that loaded from `.appex` paths given on their own (an app's are in ``apps``).
    public var extensions: [ExtensionBundle]
    /// The ids of the checks that ran, in order, each once: every ``DeviceBuildCheck`` when a
    /// device build was validated, and ``sourceLayoutCheck`` when a source layout was.
    public var checksRun: [String] = []

    /// The check id JUnit output files the findings of source layouts under (they have no id of their own).
    public static let sourceLayoutCheck = "source-layout"

    /// Creates a report.
    /// - Parameters:
    ///   - findings: Every finding.
    ///   - bundleCount: How many bundles were read.
    ///   - apps: The apps that loaded.
    ///   - extensions: The extensions that loaded on their own.
    public init(findings: [ValidationFinding], bundleCount: Int, apps: [AppBundle], extensions: [ExtensionBundle]) {
        self.findings = findings
        self.bundleCount = bundleCount
        self.apps = apps
        self.extensions = extensions
    }

    /// Whether any finding is an error (the `validate` command then exits non-zero).
    public var hasErrors: Bool { findings.containsErrors }

    /// How many findings have this severity.
    public func count(of severity: ValidationFinding.Severity) -> Int {
        findings.count { $0.severity == severity }
    }

    /// The last line of ``render()``: `3 bundles, 1 error, 2 warnings` (`, 1 note` when there are notes).
    public var summary: String {
        var parts = [
            Self.counted(bundleCount, "bundle"),
            Self.counted(count(of: .error), "error"),
            Self.counted(count(of: .warning), "warning"),
        ]
        let notes = count(of: .note)
        if notes > 0 {
            parts.append(Self.counted(notes, "note"))
        }
        return parts.joined(separator: ", ")
    }

    /// The text for people: one line per finding (`error: path: key: problem`), then ``summary``,
    /// each line ending in a newline.
    public func render() -> String {
        (findings.map(\.description) + [summary]).map { $0 + "\n" }.joined()
    }

    private static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
