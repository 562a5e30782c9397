import Foundation

/// A property list value as a `Sendable` Swift value, so bundles can carry their manifests across actors.
public enum PropertyListValue: Sendable, Hashable {
    /// `<string>`
    case string(String)
    /// `<integer>`
    case integer(Int)
    /// `<real>`
    case real(Double)
    /// `<true/>` or `<false/>`
    case boolean(Bool)
    /// `<date>`
    case date(Date)
    /// `<data>`
    case data(Data)
    /// `<array>`
    case array([PropertyListValue])
    /// `<dict>`
    case dictionary([String: PropertyListValue])

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The Boolean, if this is a Boolean.
    public var boolValue: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [PropertyListValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The entries, if this is a dictionary.
    public var dictionaryValue: [String: PropertyListValue]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// The property list type name people know from Xcode's plist editor, for messages.
    public var typeName: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .real: "a real number"
        case .boolean: "a Boolean"
        case .date: "a date"
        case .data: "data"
        case .array: "an array"
        case .dictionary: "a dictionary"
        }
    }

    /// Converts what `PropertyListSerialization` returns, or nil for a type no property list holds.
    init?(foundationValue value: Any) {
        // Checked before NSNumber: on Linux an integer NSNumber also casts to Bool.
        if type(of: value) == Bool.self, let boolean = value as? Bool {
            self = .boolean(boolean)
        } else if let string = value as? String {
            self = .string(string)
        } else if let number = value as? NSNumber {
            switch String(cString: number.objCType) {
            case "c", "B": self = .boolean(number.boolValue)
            case "d", "f": self = .real(number.doubleValue)
            default: self = .integer(number.intValue)
            }
        } else if let date = value as? Date {
            self = .date(date)
        } else if let data = value as? Data {
            self = .data(data)
        } else if let array = value as? [Any] {
            var elements: [PropertyListValue] = []
            for element in array {
                guard let converted = PropertyListValue(foundationValue: element) else { return nil }
                elements.append(converted)
            }
            self = .array(elements)
        } else if let dictionary = value as? [AnyHashable: Any] {
            var entries: [String: PropertyListValue] = [:]
            for (key, element) in dictionary {
                guard let key = key.base as? String,
                      let converted = PropertyListValue(foundationValue: element) else { return nil }
                entries[key] = converted
            }
            self = .dictionary(entries)
        } else {
            return nil
        }
    }
}
