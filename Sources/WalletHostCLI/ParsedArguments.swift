/// A command line split into positionals, valued options and flags, as a ``CommandSpec`` declares them.
///
/// `--name value` and `--name=value` both work; a path option (``OptionSpec/takesPath``) refuses an empty value. A valued option given more than once keeps
/// every value (``values(_:)``); ``value(_:)`` is the last one. An option the command does not
/// declare is a usage error naming it and the command.
struct ParsedArguments {
    var positionals: [String] = []
    var options: [String: [String]] = [:]
    var flags: Set<String> = []

    init(_ arguments: [String], for command: CommandSpec) throws(UsageError) {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                positionals.append(argument)
                continue
            }
            var name = String(argument.dropFirst(2))
            var value: String?
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = command.option(named: name) else {
                throw UsageError("unknown option --\(name) for \(command.name)"
                                     + NearestName.hint(name, among: command.allOptions.map(\.name), prefix: "--"))
            }
            if !option.takesValue {
                guard value == nil else { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
            } else {
                if value == nil {
                    guard index < arguments.count else { throw UsageError("--\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                if option.takesPath, value!.isEmpty {
                    throw UsageError("--\(name) needs a path, not an empty value (an empty path would be the working directory)")
                }
                options[name, default: []].append(value!)
            }
        }
    }

    func value(_ name: String) -> String? { options[name]?.last }
    func values(_ name: String) -> [String] { options[name] ?? [] }
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// A whole-number option's value, nil when absent.
    /// - Throws: ``UsageError`` naming the option when it is not a whole number of at least `minimum`.
    func count(_ name: String, minimum: Int) throws(UsageError) -> Int? {
        guard let text = value(name) else { return nil }
        guard let number = Int(text), number >= minimum else {
            throw UsageError("--\(name) expects a whole number of at least \(minimum), not \"\(text)\"")
        }
        return number
    }
}

/// A mistake in how the command was called; printed with the usage and exit status 2.
struct UsageError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
