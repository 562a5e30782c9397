import ExtensionModel

/// The rules for the values of a project that `import` turns into file names and Swift names: a
/// target's `PRODUCT_NAME`, `EXECUTABLE_NAME` and `FULL_PRODUCT_NAME` name files and folders under
/// `--out`, `PRODUCT_MODULE_NAME` names a SwiftPM target and its folder, App Group identifiers name
/// seed files. A value that is not one plain path component (`../../x`, `..`, `a/b`) would put
/// them, or the folders `import` replaces, somewhere else.
enum ImportedNames {
    /// Why `value` cannot be one path component, or nil when it can.
    static func pathComponentProblem(_ value: String) -> String? {
        if value.isEmpty { return "is empty" }
        if value == "." || value == ".." { return "is \"\(value)\", a directory's own name" }
        if value.contains("/") { return "contains \"/\"" }
        if value.unicodeScalars.contains(where: { $0.value == 0 }) { return "contains a NUL character" }
        if value.utf8.count > 255 { return "is \(value.utf8.count) bytes long, over the 255 a file name can hold" }
        return nil
    }

    /// Why `value` cannot be a Swift identifier (and so a module or class name), or nil when it can.
    static func identifierProblem(_ value: String) -> String? {
        guard let first = value.first else { return "is empty" }
        if first.isNumber { return "starts with a digit" }
        let allowed = value.allSatisfy { $0 == "_" || $0.isLetter || $0.isNumber }
        return allowed ? nil : "is not a Swift identifier (letters, digits and _ only)"
    }

    /// Throws when `value` of `setting` is not one path component.
    /// - Throws: ``ImportError`` naming the target, the setting and the value.
    static func checkPathComponent(_ value: String, setting: String, target: String) throws {
        if let problem = pathComponentProblem(value) {
            throw ImportError("target \(target): \(setting) \(quoted(value)) \(problem); it names a file or folder under --out, "
                + "so it must be one plain file name")
        }
    }

    /// Throws when `value` of `setting` is not a Swift identifier.
    static func checkIdentifier(_ value: String, setting: String, target: String) throws {
        if let problem = identifierProblem(value) {
            throw ImportError("target \(target): \(setting) \(quoted(value)) \(problem); it names a Swift module and the package's target")
        }
    }

    /// Throws when an App Group identifier of the entitlements cannot name a file (``AppGroupIdentifier/problem(_:)``).
    static func checkAppGroup(_ group: String, target: String) throws {
        if let problem = AppGroupIdentifier.problem(group) {
            throw ImportError("target \(target): the App Group \(quoted(group)) of CODE_SIGN_ENTITLEMENTS "
                + "(com.apple.security.application-groups) \(problem)")
        }
    }

    /// `value` in double quotes with its control characters escaped, for an error message.
    static func quoted(_ value: String) -> String {
        "\"" + SwiftLiteral.escaped(value) + "\""
    }
}

/// Text that goes into generated Swift source.
enum SwiftLiteral {
    /// `text` as a Swift string literal, quotes included: `"` and `\` escaped, control characters as `\u{...}`.
    static func string(_ text: String) -> String {
        "\"" + escaped(text) + "\""
    }

    /// The inside of a Swift string literal holding `text`.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default:
                if scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .lineSeparator
                    || scalar.properties.generalCategory == .paragraphSeparator {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// `text` fit for a `//` comment: on one line (line breaks and other control characters become spaces).
    static func commentSafe(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            let category = scalar.properties.generalCategory
            return category == .control || category == .lineSeparator || category == .paragraphSeparator ? " " : scalar
        }))
    }
}
