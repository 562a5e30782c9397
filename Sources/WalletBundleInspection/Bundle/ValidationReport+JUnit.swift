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
        let failures = checksRun.count { byCheck[$0]?.containsErrors == true }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += "<testsuites name=\"wallet-host validate\" tests=\"\(checksRun.count)\" failures=\"\(failures)\" errors=\"0\">\n"
        xml += "  <testsuite name=\"validate\" tests=\"\(checksRun.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" "
            + "timestamp=\"\(timestamp.formatted(.iso8601))\">\n"
        xml += "    <properties>\n      <property name=\"summary\" value=\"\(JUnitXML.escape(summary))\"/>\n    </properties>\n"
        for check in checksRun {
            let found = byCheck[check] ?? []
            let title = DeviceBuildCheck(rawValue: check)?.title ?? "the manifests of a source layout (.app, .appex, directories of .app)"
            xml += "    <testcase name=\"\(JUnitXML.escape(check))\" classname=\"validate\">\n"
            let errors = found.filter(\.isError)
            if let first = errors.first {
                xml += "      <failure message=\"\(JUnitXML.escape(first.description))\" type=\"\(JUnitXML.escape(check))\">"
                    + JUnitXML.escape(errors.map(\.description).joined(separator: "\n")) + "</failure>\n"
            }
            let lines = [title] + found.map(\.description)
            xml += "      <system-out>\(JUnitXML.escape(lines.joined(separator: "\n")))</system-out>\n"
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }
}
