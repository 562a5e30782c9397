import Foundation
import Testing
import WalletReports

/// The one JUnit writer: counts from the cases, optional attributes left out, text escaped.
@Suite("JUnit document")
struct JUnitDocumentTests {
    @Test("a suite with a passed, a failed and a skipped case, properties and times")
    func rendersEveryPart() {
        let cases = [
            JUnitDocument.TestCase(name: "passes", className: "suite", time: "0.001", output: "fine"),
            JUnitDocument.TestCase(name: "fails", className: "suite", time: "0.002",
                                   failure: (message: "a < b", type: "fails", text: "line 1\nline 2"), output: "title: a < b"),
            JUnitDocument.TestCase(name: "skips", className: "suite", skippedMessage: "not run"),
        ]
        let suite = JUnitDocument.Suite(name: "suite", time: "0.003", timestamp: Date(timeIntervalSince1970: 0),
                                        properties: [(name: "note", value: "\"quoted\"")], cases: cases)
        let xml = JUnitDocument(name: "wallet-host test", time: "0.003", countsSkipped: true, suites: [suite]).render()
        #expect(xml == """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="wallet-host test" tests="3" failures="1" errors="0" skipped="1" time="0.003">
              <testsuite name="suite" tests="3" failures="1" errors="0" skipped="1" time="0.003" timestamp="1970-01-01T00:00:00Z">
                <properties>
                  <property name="note" value="&quot;quoted&quot;"/>
                </properties>
                <testcase name="passes" classname="suite" time="0.001">
                  <system-out>fine</system-out>
                </testcase>
                <testcase name="fails" classname="suite" time="0.002">
                  <failure message="a &lt; b" type="fails">line 1&#10;line 2</failure>
                  <system-out>title: a &lt; b</system-out>
                </testcase>
                <testcase name="skips" classname="suite">
                  <skipped message="not run"/>
                </testcase>
              </testsuite>
            </testsuites>

            """)
    }

    @Test("no skipped count, times or properties unless given")
    func leavesOutWhatIsNotGiven() {
        let suite = JUnitDocument.Suite(name: "validate", timestamp: Date(timeIntervalSince1970: 0),
                                        cases: [JUnitDocument.TestCase(name: "check", className: "validate")])
        let xml = JUnitDocument(name: "wallet-host validate", suites: [suite]).render()
        #expect(xml.contains(#"<testsuites name="wallet-host validate" tests="1" failures="0" errors="0">"#))
        #expect(xml.contains(#"<testsuite name="validate" tests="1" failures="0" errors="0" skipped="0" timestamp="1970-01-01T00:00:00Z">"#))
        #expect(!xml.contains("<properties>"))
    }
}
