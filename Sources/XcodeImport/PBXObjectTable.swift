import Foundation

/// The `objects` of a `project.pbxproj`: identifier -> the object's keys, as
/// `PropertyListSerialization` read them from the OpenStep text.
struct PBXObjectTable {
    let objects: [String: [String: Any]]

    /// The object with this identifier.
    func object(_ identifier: String?) -> [String: Any]? {
        identifier.flatMap { objects[$0] }
    }

    /// The `isa` of the object with this identifier.
    func isa(_ identifier: String?) -> String? {
        object(identifier)?["isa"] as? String
    }

    /// Every identifier whose object has this `isa`, sorted.
    func identifiers(isa: String) -> [String] {
        objects.filter { $0.value["isa"] as? String == isa }.map(\.key).sorted()
    }

    static func string(_ object: [String: Any]?, _ key: String) -> String? {
        object?[key] as? String
    }

    static func strings(_ object: [String: Any]?, _ key: String) -> [String] {
        object?[key] as? [String] ?? []
    }

    /// A build settings dictionary: a list value joined with spaces, as Xcode passes it on.
    static func settings(_ object: [String: Any]?) -> [String: String] {
        guard let raw = object?["buildSettings"] as? [String: Any] else { return [:] }
        var settings: [String: String] = [:]
        for (key, value) in raw {
            if let string = value as? String {
                settings[key] = string
            } else if let list = value as? [Any] {
                settings[key] = list.compactMap { $0 as? String }.joined(separator: " ")
            } else if let number = value as? NSNumber {
                settings[key] = number.stringValue
            }
        }
        return settings
    }
}
