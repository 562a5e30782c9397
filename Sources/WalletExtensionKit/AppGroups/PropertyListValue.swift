import FoundationEssentials

/// One value of a property list, so that heterogeneous dictionaries can go through
/// `PropertyListEncoder` / `PropertyListDecoder` (FoundationEssentials has no
/// `PropertyListSerialization`).
///
/// A real number without a fraction (`3.0`) reads back as the integer `3`: the decoder
/// does not say which it was. Numeric accessors convert either way, so this only shows
/// through ``SharedDefaults/object(forKey:)``.
enum PropertyListValue: Codable, Equatable, Sendable {
    case string(String)
    case integer(Int)
    case real(Double)
    case bool(Bool)
    case data(Data)
    case date(Date)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])

    /// The value for a Swift property-list object; nil for anything else.
    init?(_ object: Any) {
        switch object {
        case let value as PropertyListValue: self = value
        case let value as Bool: self = .bool(value)
        case let value as String: self = .string(value)
        case let value as Substring: self = .string(String(value))
        case let value as Int: self = .integer(value)
        case let value as any BinaryInteger:
            guard let integer = Int(exactly: value) else { return nil }
            self = .integer(integer)
        case let value as Double: self = .real(value)
        case let value as Float: self = .real(Double(value))
        case let value as Data: self = .data(value)
        case let value as Date: self = .date(value)
        case let value as [Any]:
            var elements: [PropertyListValue] = []
            for element in value {
                guard let converted = PropertyListValue(element) else { return nil }
                elements.append(converted)
            }
            self = .array(elements)
        case let value as [String: Any]:
            var entries: [String: PropertyListValue] = [:]
            for (key, element) in value {
                guard let converted = PropertyListValue(element) else { return nil }
                entries[key] = converted
            }
            self = .dictionary(entries)
        default:
            return nil
        }
    }

    /// The value as the Swift object `UserDefaults.object(forKey:)` would return.
    var object: Any {
        switch self {
        case .string(let value): return value
        case .integer(let value): return value
        case .real(let value): return value
        case .bool(let value): return value
        case .data(let value): return value
        case .date(let value): return value
        case .array(let value): return value.map(\.object)
        case .dictionary(let value): return value.mapValues(\.object)
        }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Order matters: a plist <true/> must not read as 1, nor <integer> as a real.
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .real(value)
        } else if let value = try? container.decode(Date.self) {
            self = .date(value)
        } else if let value = try? container.decode(Data.self) {
            self = .data(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([PropertyListValue].self) {
            self = .array(value)
        } else {
            self = .dictionary(try container.decode([String: PropertyListValue].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .real(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .data(let value): try container.encode(value)
        case .date(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .dictionary(let value): try container.encode(value)
        }
    }
}
