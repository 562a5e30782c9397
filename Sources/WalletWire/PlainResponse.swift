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
    public static func isPlainJSONString(_ text: some StringProtocol) -> Bool {
        text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
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
