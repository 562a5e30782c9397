import Foundation

/// A JUnit XML report, the format CI systems read: the one writer behind `validate`,
/// `conform` and `stress --junit`. Counts (tests, failures, skipped) come from the cases.
public struct JUnitDocument: Sendable {
    /// One `<testcase>`.
    public struct TestCase: Sendable {
        public var name: String
        public var className: String
        /// The `time` attribute as written (``JUnitXML/seconds(_:)``), or nil for none.
        public var time: String?
        /// `<failure message type>text</failure>`, for a case that failed.
        public var failure: (message: String, type: String, text: String)?
        /// `<skipped message/>`, for a case that did not run.
        public var skippedMessage: String?
        /// `<system-out>`, when there is any.
        public var output: String?

        public init(name: String, className: String, time: String? = nil, failure: (message: String, type: String, text: String)? = nil,
                    skippedMessage: String? = nil, output: String? = nil) {
            self.name = name
            self.className = className
            self.time = time
            self.failure = failure
            self.skippedMessage = skippedMessage
            self.output = output
        }
    }

    /// One `<testsuite>`.
    public struct Suite: Sendable {
        public var name: String
        /// The `time` attribute as written, or nil for none.
        public var time: String?
        public var timestamp: Date
        /// `<property name value/>` rows, in order; no `<properties>` when empty.
        public var properties: [(name: String, value: String)]
        public var cases: [TestCase]

        public init(name: String, time: String? = nil, timestamp: Date, properties: [(name: String, value: String)] = [],
                    cases: [TestCase]) {
            self.name = name
            self.time = time
            self.timestamp = timestamp
            self.properties = properties
            self.cases = cases
        }

        var failures: Int { cases.count { $0.failure != nil } }
        var skipped: Int { cases.count { $0.skippedMessage != nil } }
    }

    /// The `<testsuites>` name ("wallet-host conform").
    public var name: String
    /// The `<testsuites>` `time` attribute as written, or nil for none.
    public var time: String?
    /// Whether `<testsuites>` carries a `skipped` count.
    public var countsSkipped: Bool
    public var suites: [Suite]

    public init(name: String, time: String? = nil, countsSkipped: Bool = false, suites: [Suite]) {
        self.name = name
        self.time = time
        self.countsSkipped = countsSkipped
        self.suites = suites
    }

    /// The document as XML.
    public func render() -> String {
        let tests = suites.reduce(0) { $0 + $1.cases.count }
        let failures = suites.reduce(0) { $0 + $1.failures }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        xml += "<testsuites name=\"\(JUnitXML.escape(name))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\""
        if countsSkipped { xml += " skipped=\"\(suites.reduce(0) { $0 + $1.skipped })\"" }
        if let time { xml += " time=\"\(time)\"" }
        xml += ">\n"
        for suite in suites { xml += Self.render(suite) }
        xml += "</testsuites>\n"
        return xml
    }

    private static func render(_ suite: Suite) -> String {
        let suiteName = JUnitXML.escape(suite.name)
        var xml = "  <testsuite name=\"\(suiteName)\" tests=\"\(suite.cases.count)\" failures=\"\(suite.failures)\" errors=\"0\" "
            + "skipped=\"\(suite.skipped)\" "
        if let time = suite.time { xml += "time=\"\(time)\" " }
        xml += "timestamp=\"\(suite.timestamp.formatted(.iso8601))\">\n"
        if !suite.properties.isEmpty {
            xml += "    <properties>\n"
            for (name, value) in suite.properties {
                xml += "      <property name=\"\(JUnitXML.escape(name))\" value=\"\(JUnitXML.escape(value))\"/>\n"
            }
            xml += "    </properties>\n"
        }
        for testCase in suite.cases {
            xml += "    <testcase name=\"\(JUnitXML.escape(testCase.name))\" classname=\"\(JUnitXML.escape(testCase.className))\""
            if let time = testCase.time { xml += " time=\"\(time)\"" }
            xml += ">\n"
            if let failure = testCase.failure {
                xml += "      <failure message=\"\(JUnitXML.escape(failure.message))\" type=\"\(JUnitXML.escape(failure.type))\">"
                    + "\(JUnitXML.escape(failure.text))</failure>\n"
            }
            if let skipped = testCase.skippedMessage {
                xml += "      <skipped message=\"\(JUnitXML.escape(skipped))\"/>\n"
            }
            if let output = testCase.output {
                xml += "      <system-out>\(JUnitXML.escape(output))</system-out>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n"
        return xml
    }
}
