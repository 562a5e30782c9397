import FoundationEssentials

/// A result whose JSON is a few fixed bytes, written by ``WireCodec/plainResponse(id:result:)``
/// without `JSONEncoder`.
public protocol PlainJSONEncodable: Encodable, Sendable {
    /// Appends the bytes that ``WireCodec``'s encoder writes for this value (sorted keys, no
    /// whitespace, slashes unescaped).
    /// - Parameter line: The line being built.
    func appendPlainJSON(to line: inout [UInt8])
}

extension WireCodec {
    /// ``response(id:result:)`` written by hand: the same bytes, newline-terminated.
    /// - Parameters:
    ///   - id: The request's id.
    ///   - result: The result.
    /// - Returns: The line, or nil when `id` is a string the encoder would escape (quotes,
    ///   backslashes, control characters, non-ASCII) or a decimal: use ``response(id:result:)`` then.
    public func plainResponse(id: RequestID, result: some PlainJSONEncodable) -> [UInt8]? {
        // Bytes in an array, not Data: each Data.append costs more than the rest of the line.
        var line: [UInt8] = []
        line.reserveCapacity(128)
        line.appendPlain("{\"id\":")
        switch id {
        case .number(let number):
            line.append(contentsOf: String(number).utf8)
        case .string(let string):
            guard Self.isPlainJSONString(string) else { return nil }
            line.append(UInt8(ascii: "\""))
            line.append(contentsOf: string.utf8)
            line.append(UInt8(ascii: "\""))
        case .decimal:
            return nil
        }
        line.appendPlain(",\"jsonrpc\":\"2.0\",\"result\":")
        result.appendPlainJSON(to: &line)
        line.appendPlain("}\n")
        return line
    }
}

extension WireCodec {
    /// Whether `text` goes into JSON as it is, between quotes: printable ASCII without `"` or
    /// `\`, so that a line written by hand is byte for byte what the encoder writes.
    public static func isPlainJSONString(_ text: String) -> Bool {
        // Over the contiguous UTF-8 (native strings always are): a generic walk of `utf8`
        // cost several microseconds per event.
        text.utf8.withContiguousStorageIfAvailable(isPlain) ?? text.utf8.allSatisfy(isPlainByte)
    }

    /// A double as the encoder writes it: its shortest decimal form without a trailing `.0`;
    /// nil for the forms this does not vouch for (exponents, infinities, NaN).
    public static func plainJSONNumber(_ value: Double) -> String? {
        guard value.isFinite else { return nil }
        var text = value.description
        guard !text.utf8.contains(UInt8(ascii: "e")) else { return nil }
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    private static func isPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in bytes where !isPlainByte(byte) { return false }
        return true
    }

    private static func isPlainByte(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
    }
}

extension StatusResult: PlainJSONEncodable {
    public func appendPlainJSON(to line: inout [UInt8]) {
        line.appendPlain("{\"passEntriesAvailable\":")
        line.appendPlain(passEntriesAvailable)
        line.appendPlain(",\"remotePassEntriesAvailable\":")
        line.appendPlain(remotePassEntriesAvailable)
        line.appendPlain(",\"requiresAuthentication\":")
        line.appendPlain(requiresAuthentication)
        line.append(UInt8(ascii: "}"))
    }
}

extension NullResult: PlainJSONEncodable {
    public func appendPlainJSON(to line: inout [UInt8]) {
        line.appendPlain("null")
    }
}

extension [UInt8] {
    fileprivate mutating func appendPlain(_ text: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    fileprivate mutating func appendPlain(_ value: Bool) {
        appendPlain(value ? "true" : "false")
    }
}
