import Foundation
import WalletHostRuntime
import WalletReports

extension StressReport {
    /// JUnit XML: one `<testcase>` per threshold, failed when its condition held.
    public func renderJUnit(_ outcomes: [ThresholdOutcome], timestamp: Date = Date()) -> String {
        let suite = JUnitXML.escape("stress \(target.bundleIdentifier)")
        let failures = outcomes.filter(\.violated).count
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += "<testsuites name=\"wallet-host stress\" tests=\"\(outcomes.count)\" failures=\"\(failures)\" errors=\"0\" "
            + "time=\"\(JUnitXML.seconds(elapsedSeconds * 1000))\">\n"
        xml += "  <testsuite name=\"\(suite)\" tests=\"\(outcomes.count)\" failures=\"\(failures)\" errors=\"0\" skipped=\"0\" "
            + "time=\"\(JUnitXML.seconds(elapsedSeconds * 1000))\" timestamp=\"\(timestamp.formatted(.iso8601))\">\n"
        for outcome in outcomes {
            let measured = outcome.measured.map(Self.number) ?? "not measured"
            let evidence = "\(outcome.threshold.expression): measured \(measured) over \(HumanReadable.counted(calls, "call"))"
            xml += "    <testcase name=\"\(JUnitXML.escape(outcome.threshold.expression))\" classname=\"\(suite)\" time=\"0\">\n"
            if outcome.violated {
                xml += "      <failure message=\"\(JUnitXML.escape(evidence))\" type=\"threshold\">\(JUnitXML.escape(evidence))</failure>\n"
            }
            xml += "      <system-out>\(JUnitXML.escape(evidence))</system-out>\n"
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }
}
