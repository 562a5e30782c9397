import FoundationEssentials

/// A JSON-RPC request id: a number or a string, compared exactly, and written back as it came.
public enum RequestID: Hashable, Sendable, Codable, CustomStringConvertible {
    case number(Int)
    case string(String)
    /// A number that is not an `Int` (past 64 bits, or with a fraction), kept as a decimal so
    /// that it goes back as sent (`123456789012345678901234567890`, not `1.23e+29`), to 38
    /// significant digits.
    case decimal(Decimal)

    /// Reads a number or a string.
    /// - Throws: `DecodingError.typeMismatch` for anything else (`null`, a boolean, an object, an
    ///   array): JSON-RPC ids are numbers or strings.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let decimal = try? container.decode(Decimal.self), decimal.isFinite {
            self = .decimal(decimal)
        } else {
            throw DecodingError.typeMismatch(RequestID.self, DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "an id must be a number or a string"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let number): try container.encode(number)
        case .string(let string): try container.encode(string)
        case .decimal(let decimal): try container.encode(decimal)
        }
    }

    public var description: String {
        switch self {
        case .number(let number): return String(number)
        case .string(let string): return "\"\(string)\""
        case .decimal(let decimal): return decimal.description
        }
    }
}
