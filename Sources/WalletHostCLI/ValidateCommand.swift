import Foundation
import WalletHostCore

/// `wallet-host validate PATH...`: every finding as `severity: path: key: problem`.
struct ValidateCommand {
    let paths: [URL]
    let json: Bool

    static let spec = CommandSpec(
        "validate",
        arguments: [.init(name: "PATH...", help: ".app bundles, lone .appex bundles or directories of .app bundles.")],
        summary: """
            Check bundles and print every finding as severity: path: key: problem, then a summary; \
            exit 1 when any finding is an error.
            """,
        options: [CommonOptions.json.withHelp("Print the findings, the bundle count and the error count as one JSON object.")])

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, for: Self.spec)
        guard !parsed.positionals.isEmpty else { throw UsageError("validate needs at least one PATH") }
        paths = parsed.positionals.map { URL(fileURLWithPath: $0) }
        json = parsed.has("json")
    }

    func run() throws -> Int32 {
        let report = BundleLoader().validate(paths: paths)
        if json {
            let findings: [[String: String]] = report.findings.map {
                ["severity": $0.severity.rawValue, "path": $0.path, "key": $0.key, "problem": $0.problem]
            }
            let object: [String: Any] = ["findings": findings, "bundles": report.bundleCount, "errors": report.count(of: .error)]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(report.render(), terminator: "")
        }
        return report.hasErrors ? 1 : 0
    }
}
