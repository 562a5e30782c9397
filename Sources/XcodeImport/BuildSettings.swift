import Foundation

/// A target's build settings for one configuration, resolved as Xcode resolves them: levels from
/// lowest to highest (Xcode's defaults, the project's `.xcconfig`, the project, the target's
/// `.xcconfig`, the target), `$(inherited)` taking the value of the level below (and so does a
/// setting's reference to itself, `FLAGS = $(FLAGS) -x`), `$(NAME)` and `${NAME}` taking another
/// setting's value, with the `:c99extidentifier`, `:rfc1034identifier`, `:identifier`, `:lower`,
/// `:upper` and `:default=` operators. An undefined setting is empty, as in Xcode.
///
/// Each definition is expanded once per lookup (a setting used many times costs one expansion), a
/// cycle of settings (`A = $(B)`, `B = $(A)`) and a value over ``maximumExpandedLength`` are errors.
public struct BuildSettings: Sendable {
    /// The levels, lowest first.
    public private(set) var levels: [[String: String]]

    /// The longest expanded value, in UTF-8 bytes: a setting that doubles another many times
    /// (`A1 = $(A0)$(A0)`, `A2 = $(A1)$(A1)`, ...) stops here instead of filling memory.
    public static let maximumExpandedLength = 64 * 1024

    /// - Parameter levels: The settings at each level, lowest first; conditional names
    ///   (`NAME[sdk=iphoneos*]`) are already applied (``applyingConditions(_:configuration:)``).
    public init(levels: [[String: String]]) {
        self.levels = levels
    }

    /// The expanded value of `name`, or nil when no level sets it.
    /// - Throws: ``ImportError`` naming the settings of a cycle, or a setting whose value grows
    ///   over ``maximumExpandedLength``.
    public subscript(name: String) -> String? {
        get throws {
            guard levels.contains(where: { $0[name] != nil }) else { return nil }
            return try SettingExpansion(levels: levels).value(of: name, below: levels.count)
        }
    }

    /// Whether `name` is `YES` (Xcode's booleans).
    public func isEnabled(_ name: String) throws -> Bool {
        try self[name]?.uppercased() == "YES"
    }

    /// `string` with every `$(NAME)` and `${NAME}` replaced by its value.
    /// - Throws: As ``subscript(name:)``.
    public func expand(_ string: String) throws -> String {
        try SettingExpansion(levels: levels).expand(string, definition: nil)
    }

    /// Settings whose names carry conditions (`NAME[sdk=iphoneos*]`, `NAME[config=Debug]`) folded in:
    /// a condition that holds for an iOS device build of `configuration` overrides the plain name,
    /// any other is dropped.
    public static func applyingConditions(_ settings: [String: String], configuration: String) -> [String: String] {
        var plain = settings.filter { !$0.key.contains("[") }
        for (key, value) in settings.sorted(by: { $0.key < $1.key }) {
            guard let bracket = key.firstIndex(of: "[") else { continue }
            let conditions = key[bracket...].split(separator: "]").map { $0.drop { $0 == "[" } }
            let holds = conditions.allSatisfy { condition in
                let parts = condition.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { return false }
                let subject = ["sdk": "iphoneos", "config": configuration, "arch": "arm64"][parts[0]]
                return subject.map { Self.glob(parts[1], matches: $0) } ?? false
            }
            if holds { plain[String(key[..<bracket])] = value }
        }
        return plain
    }

    private static func glob(_ pattern: String, matches value: String) -> Bool {
        pattern.hasSuffix("*") ? value.hasPrefix(pattern.dropLast()) : pattern == value
    }

    static func closingBracket(in string: String, openingAt open: String.Index) -> String.Index? {
        let opening = string[open]
        let closing: Character = opening == "(" ? ")" : "}"
        var depth = 0
        var index = open
        while index < string.endIndex {
            if string[index] == opening { depth += 1 }
            if string[index] == closing {
                depth -= 1
                if depth == 0 { return index }
            }
            index = string.index(after: index)
        }
        return nil
    }

    static func apply(_ operation: String, to value: String) -> String {
        switch operation {
        case "c99extidentifier", "identifier": return identifier(value)
        case "rfc1034identifier":
            return String(value.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "-" })
        case "lower": return value.lowercased()
        case "upper": return value.uppercased()
        case "base": return ((value as NSString).lastPathComponent as NSString).deletingPathExtension
        case "file": return (value as NSString).lastPathComponent
        // Foundation's deletingLastPathComponent traps on a path without "/" (swift-corelibs-foundation, Swift 6.3).
        case "dir": return value.contains("/") ? (value as NSString).deletingLastPathComponent : ""
        case "suffix": return (value as NSString).pathExtension.isEmpty ? "" : "." + (value as NSString).pathExtension
        default:
            if operation.hasPrefix("default=") { return value.isEmpty ? String(operation.dropFirst("default=".count)) : value }
            return value
        }
    }

    /// Xcode's C99 extended identifier of a name: what cannot appear in an identifier becomes `_`,
    /// and so does a leading digit (`My-Ext` -> `My_Ext`).
    public static func identifier(_ name: String) -> String {
        var result = ""
        for character in name {
            let allowed = character == "_" || (character.isASCII && (character.isLetter || character.isNumber))
                || (!character.isASCII && character.isLetter)
            result.append(allowed && !(result.isEmpty && character.isNumber) ? character : "_")
        }
        return result.isEmpty ? "_" : result
    }
}
