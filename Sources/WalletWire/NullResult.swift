/// A result that is always JSON `null`, such as `shutdown`'s. Decoding anything else fails.
public struct NullResult: Codable, Sendable, Hashable {
    /// The `null` result.
    public init() {}

    /// Decodes `null`.
    /// - Throws: `DecodingError.typeMismatch` for any other value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard container.decodeNil() else {
            throw DecodingError.typeMismatch(NullResult.self, DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "expected null"))
        }
    }

    /// Encodes `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encodeNil()
    }
}
