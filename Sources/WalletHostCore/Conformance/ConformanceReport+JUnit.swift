import Foundation

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

/// Text made safe for XML 1.0 attributes and character data.
public enum JUnitXML {
    /// Escapes `& < > " '`, writes tabs and line breaks as character references (so attribute
    /// values keep them), and replaces characters XML 1.0 cannot carry at all (other control
    /// characters, unpaired surrogates cannot occur in a Swift string, U+FFFE, U+FFFF) with U+FFFD.
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\t": escaped += "&#9;"
            case "\n": escaped += "&#10;"
            case "\r": escaped += "&#13;"
            default:
                let value = scalar.value
                if value < 0x20 || value == 0xFFFE || value == 0xFFFF {
                    escaped += "\u{FFFD}"
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
        }
        return escaped
    }

    /// Milliseconds as JUnit's seconds with three decimals.
    public static func seconds(_ milliseconds: Double) -> String {
        String(format: "%.3f", milliseconds / 1000)
    }
}
