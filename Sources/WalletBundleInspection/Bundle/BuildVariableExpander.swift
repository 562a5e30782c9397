import WalletWire

/// Expands the Xcode build variables an Info.plist may still hold, `$(NAME)` or `${NAME}`.
///
/// Xcode substitutes these while building; bundles assembled by hand (or by our scripts) keep them,
/// so the host substitutes the few whose values it can derive from the bundle itself.
struct BuildVariableExpander {
    /// Something in a string the expander could not expand.
    enum Problem: Hashable {
        /// A variable the host has no value for, spelled as written (`$(DEVELOPMENT_TEAM)`).
        case unknownVariable(String)
        /// A `$(` or `${` without its closing bracket, with the rest of the string.
        case unterminatedReference(String)
    }

    /// Variables the host knows, by name, with their value (nil when the bundle lacks what it derives from).
    private let values: [String: String?]

    /// - Parameters:
    ///   - executableName: The bundle's `CFBundleExecutable`, if it has one.
    ///   - bundleIdentifier: The bundle's `CFBundleIdentifier`, if it has one.
    init(executableName: String?, bundleIdentifier: String?) {
        values = [
            "PRODUCT_MODULE_NAME": executableName.map(Self.moduleName(forExecutable:)),
            "PRODUCT_BUNDLE_IDENTIFIER": bundleIdentifier,
            "PRODUCT_NAME": executableName,
            "EXECUTABLE_NAME": executableName,
        ]
    }

    /// The spelled-out list of variables the host expands, for messages.
    static let knownVariableList = "$(PRODUCT_MODULE_NAME), $(PRODUCT_BUNDLE_IDENTIFIER), $(PRODUCT_NAME), $(EXECUTABLE_NAME)"

    /// Xcode's `PRODUCT_MODULE_NAME` for an executable: every character that cannot appear in an
    /// identifier becomes `_`, and so does a leading digit (`My-Ext` -> `My_Ext`, `2Pay` -> `_Pay`).
    static func moduleName(forExecutable executableName: String) -> String {
        var name = ""
        for character in executableName {
            let isIdentifierCharacter = character == "_"
                || (character.isASCII && (character.isLetter || character.isNumber))
                || (!character.isASCII && character.isLetter)
            let isLeadingDigit = name.isEmpty && character.isNumber
            name.append(isIdentifierCharacter && !isLeadingDigit ? character : "_")
        }
        return name.isEmpty ? "_" : name
    }

    /// Whether a string contains a build variable reference at all.
    static func containsReference(_ string: String) -> Bool {
        string.contains("$(") || string.contains("${")
    }

    /// Expands every variable with a value; leaves the others as written.
    /// - Returns: The expanded string and what could not be expanded. Known variables without a value
    ///   (for example `$(PRODUCT_MODULE_NAME)` in a bundle without `CFBundleExecutable`) are left as
    ///   written but not reported: the missing key is reported on its own.
    func expand(_ string: String) -> (expanded: String, problems: [Problem]) {
        guard Self.containsReference(string) else { return (string, []) }
        var result = ""
        var problems: [Problem] = []
        var index = string.startIndex
        while index < string.endIndex {
            let character = string[index]
            let next = string.index(after: index)
            guard character == "$", next < string.endIndex, string[next] == "(" || string[next] == "{" else {
                result.append(character)
                index = next
                continue
            }
            let closing: Character = string[next] == "(" ? ")" : "}"
            let nameStart = string.index(after: next)
            guard let nameEnd = string[nameStart...].firstIndex(of: closing) else {
                problems.append(.unterminatedReference(String(string[index...])))
                result.append(contentsOf: string[index...])
                break
            }
            let name = String(string[nameStart..<nameEnd])
            let reference = String(string[index...nameEnd])
            if let known = values[name] {
                result.append(known ?? reference)
            } else {
                problems.append(.unknownVariable(reference))
                result.append(reference)
            }
            index = string.index(after: nameEnd)
        }
        return (result, problems)
    }

    /// Expands every string in a dictionary, nested ones included.
    /// - Parameters:
    ///   - dictionary: An Info.plist's top-level dictionary.
    ///   - skippingKeys: Top-level keys to leave untouched (the ones the values derive from).
    ///   - report: Called with the dotted key path (`NSExtension.NSExtensionPrincipalClass`,
    ///     `Items[2]`) of every string that had a problem.
    func expand(
        _ dictionary: [String: PropertyListValue],
        skippingKeys: Set<String>,
        report: (String, [Problem]) -> Void
    ) -> [String: PropertyListValue] {
        var expanded: [String: PropertyListValue] = [:]
        // Sorted so findings come out in a stable order.
        for key in dictionary.keys.sorted() {
            let value = dictionary[key]!
            expanded[key] = skippingKeys.contains(key) ? value : expand(value, keyPath: key, report: report)
        }
        return expanded
    }

    private func expand(
        _ value: PropertyListValue,
        keyPath: String,
        report: (String, [Problem]) -> Void
    ) -> PropertyListValue {
        switch value {
        case .string(let string):
            let (expanded, problems) = expand(string)
            if !problems.isEmpty { report(keyPath, problems) }
            return .string(expanded)
        case .array(let elements):
            return .array(elements.enumerated().map { offset, element in
                expand(element, keyPath: "\(keyPath)[\(offset)]", report: report)
            })
        case .dictionary(let entries):
            var expanded: [String: PropertyListValue] = [:]
            for key in entries.keys.sorted() {
                expanded[key] = expand(entries[key]!, keyPath: "\(keyPath).\(key)", report: report)
            }
            return .dictionary(expanded)
        case .integer, .real, .bool, .date, .data:
            return value
        }
    }
}

extension BuildVariableExpander.Problem {
    /// The warning for this problem in the string at `keyPath` of the file at `path`.
    func finding(path: String, keyPath: String) -> ValidationFinding {
        switch self {
        case .unknownVariable(let reference):
            ValidationFinding(.warning, path: path, key: keyPath, problem:
                "uses the unknown build variable \(reference), which is kept as written "
                + "(the host expands \(BuildVariableExpander.knownVariableList))")
        case .unterminatedReference(let fragment):
            ValidationFinding(.warning, path: path, key: keyPath, problem:
                "has a build variable reference without its closing bracket (\"\(fragment)\"), which is kept as written")
        }
    }
}
