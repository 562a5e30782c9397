import Foundation
import WalletReports

extension [ConformanceReport] {
    /// The run as JUnit XML, the format CI systems read: one `<testsuite>` per extension,
    /// one `<testcase>` per check (`classname` the bundle identifier, `name` the check id),
    /// `<failure message="evidence">` for a failed check, `<skipped message="why"/>` for a
    /// skipped one, and the title and evidence of every check in its `<system-out>`.
    /// - Parameter timestamp: When the run started (ISO 8601 in the XML).
    public func renderJUnit(timestamp: Date = Date()) -> String {
        let time = reduce(0.0) { $0 + $1.durationMilliseconds }
        return JUnitDocument(name: "wallet-host conform", time: JUnitXML.seconds(time), countsSkipped: true,
                             suites: map { $0.junitSuite(timestamp: timestamp) }).render()
    }
}

extension ConformanceReport {
    fileprivate func junitSuite(timestamp: Date) -> JUnitDocument.Suite {
        var properties = [(name: "bundlePath", value: bundlePath)]
        if let extensionPoint { properties.append((name: "extensionPoint", value: extensionPoint)) }
        properties += notes.map { (name: "note", value: $0) }
        let cases = checks.map { check in
            let line = "\(check.title): \(check.evidence)"
            return JUnitDocument.TestCase(
                name: check.id, className: suiteName, time: JUnitXML.seconds(check.durationMilliseconds),
                failure: check.status == .failed ? (message: check.evidence, type: check.id, text: line) : nil,
                skippedMessage: check.status == .skipped ? check.evidence : nil, output: line)
        }
        return JUnitDocument.Suite(name: suiteName, time: JUnitXML.seconds(durationMilliseconds), timestamp: timestamp,
                                   properties: properties, cases: cases)
    }
}
