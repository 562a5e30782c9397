import Foundation

/// A line on fd 4 that the host could not use as protocol, with a short escaped excerpt.
///
/// Logged as a `protocolError` event, counted against the extension's violation budget, and
/// attached to every call in flight as part of its ``CallDiagnostics``: a handler that writes
/// a garbage line instead of its answer is told so, not only that it missed its deadline.
public struct ProtocolViolation: Sendable, Equatable, Codable, CustomStringConvertible {
    /// What was wrong with the line.
    public enum Reason: String, Sendable, Codable, CaseIterable {
        /// The bytes are not UTF-8.
        case notUTF8
        /// Not JSON (or nested deeper than the parser allows).
        case notJSON
        /// JSON, but not a JSON-RPC 2.0 message of a usable shape.
        case wrongShape
        /// Longer than the 16 MiB line limit.
        case lineTooLong
        /// fd 4 ended in the middle of a line.
        case partialLine
        /// A notification the protocol does not define.
        case unknownNotification
        /// An error response without an id: no call can be matched to it.
        case errorWithoutID
    }

    public var reason: Reason
    /// The problem, as a sentence fragment ("not valid JSON: unexpected character at offset 0").
    public var detail: String
    /// The line's first bytes, escaped so that control characters and invalid UTF-8 show.
    public var excerpt: String?
    /// The request id, when the line got far enough to have one.
    public var requestID: String?

    public init(_ reason: Reason, detail: String, excerpt: String? = nil, requestID: String? = nil) {
        self.reason = reason
        self.detail = detail
        self.excerpt = excerpt
        self.requestID = requestID
    }

    public var description: String {
        excerpt.map { "\(detail): \($0)" } ?? detail
    }

    /// The first `limit` bytes of `line`, printable: `\n`, `\t`, `\"`... escaped, other control
    /// bytes and invalid UTF-8 as `\xNN`, and the full length when the line was cut.
    public static func excerpt(_ line: Data, limit: Int = 60) -> String {
        let prefix = line.prefix(limit)
        var text = ""
        var index = prefix.startIndex
        while index < prefix.endIndex {
            let byte = prefix[index]
            let scalarLength = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 0
            if scalarLength > 1, index + scalarLength <= prefix.endIndex,
               let scalar = String(validating: prefix[index..<(index + scalarLength)], as: UTF8.self) {
                text += scalar
                index += scalarLength
                continue
            }
            switch byte {
            case UInt8(ascii: "\n"): text += "\\n"
            case UInt8(ascii: "\r"): text += "\\r"
            case UInt8(ascii: "\t"): text += "\\t"
            case UInt8(ascii: "\\"): text += "\\\\"
            case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
            index += 1
        }
        return line.count > limit ? "\(text)... (\(line.count) bytes)" : text
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
