import Foundation
import WalletReports

extension ValidationReport {
    /// The report as JUnit XML for CI: one `<testcase>` per check that ran (``checksRun``,
    /// named by its id, findings without an id under ``sourceLayoutCheck``), a `<failure>`
    /// holding every error line of a check that found errors, and every finding line of the
    /// check in its `<system-out>`.
    /// - Parameter timestamp: When validation ran (ISO 8601 in the XML).
    public func renderJUnit(timestamp: Date = Date()) -> String {
        let byCheck = Dictionary(grouping: findings) { $0.check ?? Self.sourceLayoutCheck }
        let cases = checksRun.map { check in
            let found = byCheck[check] ?? []
            let title = DeviceBuildCheck(rawValue: check)?.title ?? "the manifests of a source layout (.app, .appex, directories of .app)"
            let errors = found.filter(\.isError)
            return JUnitDocument.TestCase(
                name: check, className: "validate",
                failure: errors.first.map { (message: $0.description, type: check, text: errors.map(\.description).joined(separator: "\n")) },
                output: ([title] + found.map(\.description)).joined(separator: "\n"))
        }
        let suite = JUnitDocument.Suite(name: "validate", timestamp: timestamp, properties: [(name: "summary", value: summary)], cases: cases)
        return JUnitDocument(name: "wallet-host validate", suites: [suite]).render()
    }
}
