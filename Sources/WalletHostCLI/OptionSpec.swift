/// One `--name` a command accepts, declared once with its help: the parser, the usage lines and
/// `wallet-host help COMMAND` all read it from here.
struct OptionSpec: Sendable {
    /// The name without its dashes: `state` for `--state`.
    let name: String
    /// What the value looks like in usage (`DIR`, `METHOD=DURATION`); nil for a flag.
    let valueName: String?
    /// Whether the option may be given more than once (every value is kept).
    let repeatable: Bool
    /// One sentence for `wallet-host help COMMAND`.
    let help: String

    /// An option that takes a value, as `--name VALUE` or `--name=VALUE`. Given twice, the last
    /// value counts unless the option is `repeatable`.
    static func valued(_ name: String, _ valueName: String, repeatable: Bool = false, help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, repeatable: repeatable, help: help)
    }

    /// An option that takes no value.
    static func flag(_ name: String, help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: nil, repeatable: false, help: help)
    }

    /// Whether the next argument (or the text after `=`) is this option's value.
    var takesValue: Bool { valueName != nil }

    /// The value names of options whose value is a path (`--state DIR`, `--junit FILE`).
    static let pathValueNames: Set<String> = ["DIR", "FILE", "PATH", "SOCKET", "CHECKOUT", "APP"]

    /// Whether the value is a path: an empty one is refused, since every call that takes a
    /// path reads "" as the working directory (`--state ""` would fill it with state files).
    var takesPath: Bool { valueName.map(Self.pathValueNames.contains) ?? false }

    /// `--state DIR`, `--json`.
    var label: String {
        valueName.map { "--\(name) \($0)" } ?? "--\(name)"
    }

    /// How a usage line shows it: `[--state DIR]`, `[--deadline METHOD=DURATION]...`.
    var synopsis: String {
        "[\(label)]" + (repeatable ? "..." : "")
    }

    /// Its row in a usage table: the label and the help, which says when it is repeatable.
    var usageRow: (label: String, help: String) {
        (label, repeatable ? help + " Repeatable." : help)
    }

    /// The same option with help that fits one command better.
    func withHelp(_ help: String) -> OptionSpec {
        OptionSpec(name: name, valueName: valueName, repeatable: repeatable, help: help)
    }
}
