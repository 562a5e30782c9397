import FoundationEssentials
import WalletWire

/// The bridge to the untyped objects of `UserDefaults`' API (`set(_:forKey:)`,
/// `object(forKey:)`), for ``SharedDefaults``.
///
/// Because a real number without a fraction reads back as an integer (see
/// `PropertyListValue+Codable.swift`), `3.0` stored comes back from ``object`` as `3`. Numeric
/// accessors convert either way, so this only shows through ``SharedDefaults/object(forKey:)``.
extension PropertyListValue {
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
}
