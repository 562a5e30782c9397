import FoundationEssentials

extension WireCodec {
    /// ``result(_:from:)`` for a response line whose envelope was read already: `range` (its
    /// ``PlainLine/resultRange``) is where the result value lies, so only the value is decoded.
    /// Without a range, or when the value does not decode as `type`, this is
    /// ``result(_:from:)``, whose error names the `result` member as before.
    /// - Parameters:
    ///   - type: The result's type.
    ///   - line: The response line, without its newline.
    ///   - range: Where the result value lies in `line` (byte offsets from its start), or nil.
    public func result<Result: Decodable>(_ type: Result.Type, from line: Data, at range: Range<Int>?) throws(WireDecodingError) -> Result {
        guard let range, range.upperBound <= line.count else { return try result(type, from: line) }
        if let plainType = type as? any PlainJSONDecodable.Type {
            let members = line.withUnsafeBytes { bytes in
                var value = PlainLineScanner(bytes: UnsafeRawBufferPointer(rebasing: bytes[range]))
                return value.scanFlatObject()
            }
            if let members, let plain = plainType.init(plainMembers: members) as? Result { return plain }
        }
        let value = line[(line.startIndex + range.lowerBound)..<(line.startIndex + range.upperBound)]
        if let decoded = try? decoder.decode(Result.self, from: value) { return decoded }
        return try result(type, from: line)
    }
}
