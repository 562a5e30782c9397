/// One lookup in ``BuildSettings``: each definition (a setting at one level) is expanded at most
/// once and remembered, so that `A = $(B)$(B)` chains cost linear work; a definition met again while
/// it is being expanded is a cycle.
final class SettingExpansion {
    /// A setting as defined at one level.
    struct Definition: Hashable {
        var name: String
        var level: Int
    }

    private let levels: [[String: String]]
    private var expanded: [Definition: String] = [:]
    private var inProgress: [Definition] = []
    /// How deep settings may refer to settings that refer to settings.
    static let maximumDepth = 256

    init(levels: [[String: String]]) {
        self.levels = levels
    }

    /// The value of `name` as set at the highest level below `below`, expanded; empty when unset.
    func value(of name: String, below: Int) throws -> String {
        guard let level = stride(from: below - 1, through: 0, by: -1).first(where: { levels[$0][name] != nil }),
              let raw = levels[level][name] else { return "" }
        let definition = Definition(name: name, level: level)
        if let value = expanded[definition] { return value }
        if let start = inProgress.firstIndex(of: definition) {
            let chain = (inProgress[start...].map(\.name) + [name]).joined(separator: " -> ")
            throw ImportError("build setting \(name) refers to itself (\(chain)); a setting may refer to its own "
                + "value below only as $(inherited) or $(\(name)) in its own definition")
        }
        guard inProgress.count < Self.maximumDepth else {
            throw ImportError("build setting \(name): settings refer to settings more than \(Self.maximumDepth) deep "
                + "(\(inProgress.suffix(4).map(\.name).joined(separator: " -> ")) -> \(name))")
        }
        inProgress.append(definition)
        defer { inProgress.removeLast() }
        let value = try expand(raw, definition: definition)
        expanded[definition] = value
        return value
    }

    /// `string` with its references replaced; `definition` is the setting it is the value of, whose
    /// `$(inherited)` and reference to itself mean its value at the levels below.
    func expand(_ string: String, definition: Definition?) throws -> String {
        guard string.contains("$") else { return string }
        var result = ""
        var index = string.startIndex
        while index < string.endIndex {
            let character = string[index]
            let next = string.index(after: index)
            guard character == "$", next < string.endIndex, string[next] == "(" || string[next] == "{",
                  let close = BuildSettings.closingBracket(in: string, openingAt: next) else {
                result.append(character)
                index = next
                continue
            }
            // A reference may hold references of its own: `$(PRODUCT_NAME:$(CASE))` is rare, `$($(A)_B)` rarer.
            let inner = try expand(String(string[string.index(after: next)..<close]), definition: definition)
            let parts = inner.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            let name = parts[0]
            var replacement: String
            if let definition, name == "inherited" || name == definition.name {
                replacement = try value(of: definition.name, below: definition.level)
            } else if name == "inherited" {
                replacement = ""
            } else {
                replacement = try value(of: name, below: levels.count)
            }
            for operation in parts.dropFirst() { replacement = BuildSettings.apply(operation, to: replacement) }
            result += replacement
            guard result.utf8.count <= BuildSettings.maximumExpandedLength else {
                throw ImportError("build setting \(definition?.name ?? name) expands to more than "
                    + "\(BuildSettings.maximumExpandedLength) bytes (through $(\(name)))")
            }
            index = string.index(after: close)
        }
        return result
    }
}
