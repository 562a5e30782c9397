import FoundationEssentials

/// One property list value as a `Sendable` Swift value.
///
/// The host reads bundle manifests and entitlements into it; the SDK keeps App Group defaults
/// in it. It lives here, in the one module both link, so that the SDK does not depend on the
/// host. Only FoundationEssentials is needed: reading it from a file is either
/// `PropertyListDecoder` (FoundationEssentials, see `PropertyListValue+Codable.swift`) or, in
/// the host, `PropertyListSerialization` (full Foundation, an extension in `WalletBundleInspection`).
public enum PropertyListValue: Sendable, Hashable {
    /// `<string>`
    case string(String)
    /// `<integer>`
    case integer(Int)
    /// `<real>`
    case real(Double)
    /// `<true/>` or `<false/>`
    case bool(Bool)
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
        if case .bool(let value) = self { return value }
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
        case .bool: "a Boolean"
        case .date: "a date"
        case .data: "data"
        case .array: "an array"
        case .dictionary: "a dictionary"
        }
    }
}
