import Foundation
import Wallet
import WalletBundleInspection

/// `wallet-host validate PATH...`: every finding as `severity: path: key: problem`.
struct ValidateCommand {
    let paths: [URL]
    let json: Bool
    let junitURL: URL?
    let options: DeviceBuildOptions

    static let spec = CommandSpec(
        "validate",
        arguments: [.init(name: "PATH...", help: """
            .ipa archives, .xcarchive directories, built .app bundles (Mach-O executable: checked as a device sees them, \
            entitlements from the code signature), .app bundles assembled for the host, lone .appex bundles or directories of .app bundles.
            """)],
        summary: """
            Check bundles and print every finding as severity: path: key: problem, then a summary; \
            exit 1 when any finding is an error.
            """,
        options: [
            CommonOptions.json.withHelp("Print the findings (each with its check id), the bundle count and the error and warning counts as one JSON object."),
            .valued("junit", "FILE", help: "Also write the checks as JUnit XML to FILE, one test case per check, failed when it found an error."),
            .valued("ios", "VERSION", help: """
                The target device's iOS version: a MinimumOSVersion above it is an error \
                (default \(DeviceBuildOptions.currentIOSRelease.map(String.init).joined(separator: "."))).
                """),
        ])

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, for: Self.spec)
        guard !parsed.positionals.isEmpty else { throw UsageError("validate needs at least one PATH") }
        paths = parsed.positionals.map { URL(fileURLWithPath: $0) }
        json = parsed.has("json")
        junitURL = parsed.value("junit").map { URL(fileURLWithPath: $0) }
        var options = DeviceBuildOptions()
        if let text = parsed.value("ios") {
            guard let version = DeviceBuildOptions.versionComponents(text) else {
                throw UsageError("--ios needs a version such as 17.4, not \"\(text)\"")
            }
            options.targetIOSVersion = version
        }
        self.options = options
    }

    func run() throws -> Int32 {
        let report = BundleLoader.wallet.validate(paths: paths, deviceBuildOptions: options)
        if let junitURL {
            try ReportFile.write(report.renderJUnit(), to: junitURL, report: "JUnit report")
        }
        if json {
            let findings: [[String: String]] = report.findings.map { finding in
                var object = ["severity": finding.severity.rawValue, "path": finding.path, "key": finding.key, "problem": finding.problem]
                object["check"] = finding.check
                return object
            }
            let object: [String: Any] = [
                "findings": findings, "bundles": report.bundleCount,
                "errors": report.count(of: .error), "warnings": report.count(of: .warning),
            ]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            printJSON(String(decoding: data, as: UTF8.self))
        } else {
            print(report.render(), terminator: "")
        }
        return report.hasErrors ? 1 : 0
    }
}
