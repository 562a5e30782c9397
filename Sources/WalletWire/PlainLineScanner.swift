import FoundationEssentials

/// A line that ``WireCodec/decodePlain(_:)`` classified without `JSONDecoder`.
public struct PlainLine: Sendable {
    /// What ``WireCodec/decode(_:)`` returns for the same line.
    public var message: WireMessage
    /// `params` is absent, `null` or `{}`: the params of a method that takes none (``NoParams``)
    /// need no decoding.
    public var hasEmptyParams: Bool
    /// Where a response's result value lies in the line (byte offsets from its start), so that
    /// ``WireCodec/result(_:from:at:)`` decodes the value without reading the envelope again;
    /// nil for requests and notifications.
    public var resultRange: Range<Int>?
}

extension WireCodec {
    /// ``decode(_:)`` without `JSONDecoder`, for lines in the plain shape peers write: a JSON
    /// object whose keys are only `jsonrpc` (`"2.0"`), `id` (an integer or a string), `method`,
    /// `params` and `result`, each at most once, with ASCII strings that have no escapes,
    /// integers without fraction or exponent and shallow nesting.
    ///
    /// The result is the message ``decode(_:)`` returns for that line. Any line outside the
    /// shape, including every line ``decode(_:)`` would refuse, gives nil: decode it with
    /// ``decode(_:)``, which says what is wrong.
    /// - Parameter line: One line without its newline.
    /// - Returns: The message and whether its params are empty, or nil.
    public func decodePlain(_ line: Data) -> PlainLine? {
        guard let envelope = line.withUnsafeBytes({ bytes in
            var scanner = PlainLineScanner(bytes: bytes)
            return scanner.scanEnvelope()
        }) else { return nil }
        let hasEmptyParams = envelope.params != .present
        if let method = envelope.method {
            guard !envelope.hasResult else { return nil }
            if let id = envelope.id {
                return PlainLine(message: .request(id: id, method: method, line: line), hasEmptyParams: hasEmptyParams,
                                 resultRange: nil)
            }
            return PlainLine(message: .notification(method: method, line: line), hasEmptyParams: hasEmptyParams, resultRange: nil)
        }
        guard let id = envelope.id, envelope.hasResult, envelope.params == .absent else { return nil }
        return PlainLine(message: .response(id: id, line: line), hasEmptyParams: true, resultRange: envelope.valueRange)
    }
}

/// A strict reader of the plain JSON-RPC subset: it accepts only canonical JSON that
/// `JSONDecoder` reads the same way, and gives up (nil) on anything else.
struct PlainLineScanner {
    enum Params: Equatable {
        case absent
        /// `null` or `{}`.
        case empty
        case present
    }

    struct Envelope {
        var id: RequestID?
        var method: String?
        var params = Params.absent
        var hasResult = false
        /// Where the present params' or the result's value lies in the line.
        var valueRange: Range<Int>?
    }

    /// Deeper values are left to `JSONDecoder`; a hostile line may nest a million levels.
    private static let maximumDepth = 16
    /// Longer integers might not fit an `Int`.
    private static let maximumIntegerDigits = 18

    private let bytes: UnsafeRawBufferPointer
    private var index = 0

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        // A framed line has no newline; JSON's other whitespace may appear.
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A { index += 1 }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    private mutating func take(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count,
              Self.equal(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]), literal) else { return false }
        index += count
        return true
    }

    private static func equal(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
        bytes.elementsEqual(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    mutating func scanEnvelope() -> Envelope? {
        var envelope = Envelope()
        var seen: UInt8 = 0
        var jsonrpcSeen = false
        skipWhitespace()
        guard take(UInt8(ascii: "{")) else { return nil }
        repeat {
            skipWhitespace()
            guard let member = readMember(), seen & member.rawValue == 0 else { return nil }
            seen |= member.rawValue
            skipWhitespace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipWhitespace()
            switch member {
            case .jsonrpc:
                guard take("\"2.0\"") else { return nil }
                jsonrpcSeen = true
            case .id:
                if !take("null") {
                    guard let id = readID() else { return nil }
                    envelope.id = id
                }
            case .method:
                guard let method = readString() else { return nil }
                envelope.method = String(decoding: method, as: UTF8.self)
            case .params:
                envelope.params = readParams()
                let start = index
                if envelope.params == .present {
                    guard skipValue(depth: 0) else { return nil }
                    envelope.valueRange = start..<index
                }
            case .result:
                let start = index
                guard skipValue(depth: 0) else { return nil }
                envelope.hasResult = true
                envelope.valueRange = start..<index
            }
            skipWhitespace()
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
        skipWhitespace()
        guard index == bytes.count, jsonrpcSeen else { return nil }
        return envelope
    }

    /// An object whose members are all strings, integers, booleans, `null` or `{}`, each key
    /// once; nil for anything else (nested values, duplicate keys, anything outside the subset).
    mutating func scanFlatObject() -> [String: PlainScalar]? {
        var members: [String: PlainScalar] = [:]
        skipWhitespace()
        guard take(UInt8(ascii: "{")) else { return nil }
        skipWhitespace()
        if !take(UInt8(ascii: "}")) {
            repeat {
                skipWhitespace()
                guard let key = readString() else { return nil }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipWhitespace()
                guard let value = readScalar(),
                      members.updateValue(value, forKey: String(decoding: key, as: UTF8.self)) == nil else { return nil }
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")) else { return nil }
        }
        skipWhitespace()
        return index == bytes.count ? members : nil
    }

    private mutating func readScalar() -> PlainScalar? {
        switch current {
        case UInt8(ascii: "\"")?:
            return readString().map { .string(String(decoding: $0, as: UTF8.self)) }
        case UInt8(ascii: "t")?:
            return take("true") ? .bool(true) : nil
        case UInt8(ascii: "f")?:
            return take("false") ? .bool(false) : nil
        case UInt8(ascii: "n")?:
            return take("null") ? .null : nil
        case UInt8(ascii: "{")?:
            index += 1
            skipWhitespace()
            return take(UInt8(ascii: "}")) ? .emptyObject : nil
        default:
            let negative = take(UInt8(ascii: "-"))
            guard let value = readInteger(), !(negative && value == 0) else { return nil }
            return .integer(negative ? -value : value)
        }
    }

    /// The envelope's keys, as bits of a set.
    private enum Member: UInt8 {
        case jsonrpc = 1, id = 2, method = 4, params = 8, result = 16
    }

    private mutating func readMember() -> Member? {
        guard let key = readString() else { return nil }
        if Self.equal(key, "id") { return .id }
        if Self.equal(key, "method") { return .method }
        if Self.equal(key, "params") { return .params }
        if Self.equal(key, "jsonrpc") { return .jsonrpc }
        if Self.equal(key, "result") { return .result }
        return nil
    }

    /// `null` and `{}` are empty params; anything else is left for ``skipValue(depth:)``.
    private mutating func readParams() -> Params {
        if take("null") { return .empty }
        let start = index
        if take(UInt8(ascii: "{")) {
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return .empty }
        }
        index = start
        return .present
    }

    /// An integer id, or a string id.
    private mutating func readID() -> RequestID? {
        if current == UInt8(ascii: "\"") {
            guard let text = readString() else { return nil }
            return .string(String(decoding: text, as: UTF8.self))
        }
        let negative = take(UInt8(ascii: "-"))
        guard let value = readInteger() else { return nil }
        if negative {
            // "-0" reads as 0 in JSONDecoder too, but leave the oddity to it.
            guard value != 0 else { return nil }
            return .number(-value)
        }
        return .number(value)
    }

    /// An integer without sign, leading zeros, fraction or exponent.
    private mutating func readInteger() -> Int? {
        let start = index
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { index += 1 }
        let count = index - start
        guard count > 0, count <= Self.maximumIntegerDigits else { return nil }
        guard count == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        if let byte = current, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            return nil
        }
        var value = 0
        for digit in bytes[start..<index] { value = value * 10 + Int(digit - UInt8(ascii: "0")) }
        return value
    }

    /// The bytes of a string of printable ASCII without escapes, quotes excluded.
    private mutating func readString() -> UnsafeRawBufferPointer? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        while let byte = current {
            if byte == UInt8(ascii: "\"") {
                index += 1
                return UnsafeRawBufferPointer(rebasing: bytes[start..<(index - 1)])
            }
            // Escapes, control characters and non-ASCII are JSONDecoder's to judge.
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    /// Skips one value of the plain subset; false when the value is outside it.
    private mutating func skipValue(depth: Int) -> Bool {
        guard depth < Self.maximumDepth, let byte = current else { return false }
        switch byte {
        case UInt8(ascii: "\""):
            return readString() != nil
        case UInt8(ascii: "{"):
            index += 1
            skipWhitespace()
            if take(UInt8(ascii: "}")) { return true }
            repeat {
                skipWhitespace()
                guard readString() != nil else { return false }
                skipWhitespace()
                guard take(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
                guard skipValue(depth: depth + 1) else { return false }
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "}"))
        case UInt8(ascii: "["):
            index += 1
            skipWhitespace()
            if take(UInt8(ascii: "]")) { return true }
            repeat {
                skipWhitespace()
                guard skipValue(depth: depth + 1) else { return false }
                skipWhitespace()
            } while take(UInt8(ascii: ","))
            return take(UInt8(ascii: "]"))
        case UInt8(ascii: "t"):
            return take("true")
        case UInt8(ascii: "f"):
            return take("false")
        case UInt8(ascii: "n"):
            return take("null")
        default:
            _ = take(UInt8(ascii: "-"))
            return readInteger() != nil
        }
    }
}
