import Foundation
import WalletWire

/// Reads the top-level keys of a line that the JSON-RPC decoder rejected, to learn what it
/// was meant to be: a request (it has `method`) deserves an error response; a response (an
/// `id` without `method`) must never be answered, and if its id names a call in flight that
/// call fails at once instead of waiting for its deadline. Works where the full parser gives
/// up (a result nested past its depth limit, an `error` of the wrong shape).
struct EnvelopeScanner {
    /// What the scan found.
    struct Findings: Equatable {
        /// The top-level `id`, when it is an integer or a string.
        var id: RequestID?
        var hasMethod = false
        /// The object closed properly: the line is JSON of some shape (as far as the top level goes).
        var complete = false
    }

    /// Scans `line` (without its newline). Never throws: what cannot be read is simply not found.
    static func scan(_ line: Data) -> Findings {
        var scanner = EnvelopeScanner(bytes: [UInt8](line))
        return scanner.scanObject()
    }

    private let bytes: [UInt8]
    private var index = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    private mutating func scanObject() -> Findings {
        var findings = Findings()
        skipWhitespace()
        guard current == UInt8(ascii: "{") else { return findings }
        index += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            findings.complete = true
            return findings
        }
        while true {
            skipWhitespace()
            guard let key = readString() else { return findings }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { return findings }
            index += 1
            skipWhitespace()
            switch key {
            case "id":
                let start = index
                if let text = readString() {
                    findings.id = .string(text)
                } else {
                    index = start
                    guard skipValue() else { return findings }
                    if let number = Int(String(decoding: bytes[start..<index], as: UTF8.self)
                        .trimmingCharacters(in: .whitespaces)) {
                        findings.id = .number(number)
                    }
                }
            case "method":
                findings.hasMethod = true
                guard skipValue() else { return findings }
            default:
                guard skipValue() else { return findings }
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                skipWhitespace()
                findings.complete = current == nil
                return findings
            default: return findings
            }
        }
    }

    /// Reads a JSON string at the cursor (escapes kept as written, except `\"`); nil if there is none.
    private mutating func readString() -> String? {
        guard current == UInt8(ascii: "\"") else { return nil }
        index += 1
        var text: [UInt8] = []
        while let byte = current {
            index += 1
            if byte == UInt8(ascii: "\\") {
                guard let escaped = current else { return nil }
                index += 1
                text.append(escaped)
                continue
            }
            if byte == UInt8(ascii: "\"") { return String(decoding: text, as: UTF8.self) }
            text.append(byte)
        }
        return nil
    }

    /// Skips one value of any depth (no recursion: a hostile line may nest a million levels).
    private mutating func skipValue() -> Bool {
        var depth = 0
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                guard readString() != nil else { return false }
                if depth == 0 { return true }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return true }
                depth -= 1
                if depth == 0 {
                    index += 1
                    return true
                }
            case UInt8(ascii: ","):
                if depth == 0 { return true }
            default:
                break
            }
            index += 1
        }
        return depth == 0
    }
}
