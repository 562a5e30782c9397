import Foundation
import WalletReports

extension [ConformanceReport] {
    /// The run as JUnit XML, the format CI systems read: one `<testsuite>` per extension,
    /// one `<testcase>` per check (`classname` the bundle identifier, `name` the check id),
    /// `<failure message="evidence">` for a failed check, `<skipped message="why"/>` for a
    /// skipped one, and the title and evidence of every check in its `<system-out>`.
    /// - Parameter timestamp: When the run started (ISO 8601 in the XML).
    public func renderJUnit(timestamp: Date = Date()) -> String {
        let tests = reduce(0) { $0 + $1.checks.count }
        let failures = reduce(0) { $0 + $1.count(.failed) }
        let skipped = reduce(0) { $0 + $1.count(.skipped) }
        let time = reduce(0.0) { $0 + $1.durationMilliseconds }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += "<testsuites name=\"wallet-host conform\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" "
            + "skipped=\"\(skipped)\" time=\"\(JUnitXML.seconds(time))\">\n"
        for report in self {
            xml += report.junitSuite(timestamp: timestamp)
        }
        xml += "</testsuites>\n"
        return xml
    }
}

extension ConformanceReport {
    fileprivate func junitSuite(timestamp: Date) -> String {
        let suite = JUnitXML.escape(suiteName)
        var xml = "  <testsuite name=\"\(suite)\" tests=\"\(checks.count)\" failures=\"\(count(.failed))\" errors=\"0\" "
            + "skipped=\"\(count(.skipped))\" time=\"\(JUnitXML.seconds(durationMilliseconds))\" "
            + "timestamp=\"\(timestamp.formatted(.iso8601))\">\n"
        xml += "    <properties>\n"
        var properties = [("bundlePath", bundlePath)]
        if let extensionPoint { properties.append(("extensionPoint", extensionPoint)) }
        properties += notes.map { ("note", $0) }
        for (name, value) in properties {
            xml += "      <property name=\"\(name)\" value=\"\(JUnitXML.escape(value))\"/>\n"
        }
        xml += "    </properties>\n"
        for check in checks {
            xml += "    <testcase name=\"\(JUnitXML.escape(check.id))\" classname=\"\(suite)\" "
                + "time=\"\(JUnitXML.seconds(check.durationMilliseconds))\">\n"
            switch check.status {
            case .passed:
                break
            case .failed:
                xml += "      <failure message=\"\(JUnitXML.escape(check.evidence))\" type=\"\(JUnitXML.escape(check.id))\">"
                    + "\(JUnitXML.escape(check.title)): \(JUnitXML.escape(check.evidence))</failure>\n"
            case .skipped:
                xml += "      <skipped message=\"\(JUnitXML.escape(check.evidence))\"/>\n"
            }
            xml += "      <system-out>\(JUnitXML.escape(check.title)): \(JUnitXML.escape(check.evidence))</system-out>\n"
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n"
        return xml
    }
}
