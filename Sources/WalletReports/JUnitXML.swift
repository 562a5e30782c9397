import Foundation

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
