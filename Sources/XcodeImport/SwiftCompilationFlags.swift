/// What of a target's Swift compiler settings the generated package carries: the conditions of
/// `SWIFT_ACTIVE_COMPILATION_CONDITIONS` and of `OTHER_SWIFT_FLAGS`' `-D NAME` / `-DNAME` become
/// `.define(NAME)`; any other flag gets a line.
struct SwiftCompilationFlags: Equatable {
    /// The conditions, in the order first met, each once.
    var conditions: [String] = []
    /// One line for each flag or condition not carried.
    var notCarried: [String] = []

    /// - Throws: ``ImportError`` from the settings' expansion.
    init(_ settings: BuildSettings) throws {
        for name in Self.words(try settings["SWIFT_ACTIVE_COMPILATION_CONDITIONS"] ?? "") {
            add(name, from: "SWIFT_ACTIVE_COMPILATION_CONDITIONS")
        }
        var others: [String] = []
        var words = Self.words(try settings["OTHER_SWIFT_FLAGS"] ?? "")[...]
        while let word = words.popFirst() {
            if word == "-D", let name = words.popFirst() {
                add(name, from: "OTHER_SWIFT_FLAGS")
            } else if word.hasPrefix("-D"), word.count > 2 {
                add(String(word.dropFirst(2)), from: "OTHER_SWIFT_FLAGS")
            } else {
                others.append(word)
            }
        }
        if !others.isEmpty {
            notCarried.append("OTHER_SWIFT_FLAGS \(others.joined(separator: " ")) not carried (only -D conditions are)")
        }
    }

    private mutating func add(_ name: String, from setting: String) {
        if let problem = ImportedNames.identifierProblem(name) {
            notCarried.append("\(setting): condition \(ImportedNames.quoted(name)) \(problem); not carried")
        } else if !conditions.contains(name) {
            conditions.append(name)
        }
    }

    /// A build setting's list value split into words, as Xcode splits it: at spaces outside quotes,
    /// `"` and `'` quoting, `\` escaping the next character.
    static func words(_ value: String) -> [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in value {
            if escaped {
                word.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
                inWord = true
            } else if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character == " " || character == "\t" || character == "\n" {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        if inWord { words.append(word) }
        return words
    }
}
