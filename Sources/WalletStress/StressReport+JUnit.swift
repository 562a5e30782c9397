import Foundation
import WalletHostRuntime
import WalletReports

extension StressReport {
    /// JUnit XML: one `<testcase>` per threshold, failed when its condition held.
    public func renderJUnit(_ outcomes: [ThresholdOutcome], timestamp: Date = Date()) -> String {
        let time = JUnitXML.seconds(elapsedSeconds * 1000)
        let cases = outcomes.map { outcome in
            let measured = outcome.measured.map(Self.number) ?? "not measured"
            let evidence = "\(outcome.threshold.expression): measured \(measured) over \(HumanReadable.counted(calls, "call"))"
            return JUnitDocument.TestCase(name: outcome.threshold.expression, className: "stress \(target.bundleIdentifier)", time: "0",
                                          failure: outcome.violated ? (message: evidence, type: "threshold", text: evidence) : nil,
                                          output: evidence)
        }
        let suite = JUnitDocument.Suite(name: "stress \(target.bundleIdentifier)", time: time, timestamp: timestamp, cases: cases)
        return JUnitDocument(name: "wallet-host stress", time: time, suites: [suite]).render()
    }
}
