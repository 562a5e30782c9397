/// A command's declaration, made once: its name, positional arguments, options and summary.
///
/// The parser takes its option names from here (``ParsedArguments/init(_:for:)``), and so do
/// the top-level usage and `wallet-host help COMMAND` (``CommandSpec+Usage.swift``), so an
/// option cannot work without being documented, nor be documented without working. In the
/// spirit of swift-argument-parser's `@OptionGroup`: options several commands share are
/// declared once (``HostOptions/options``, ``CommonOptions``) and listed by each command.
struct CommandSpec: Sendable {
    /// One positional argument, as usage shows it (`APPEX`, `PATH...`, `open APP`).
    struct Argument: Sendable {
        let name: String
        let help: String
    }

    /// The word after `wallet-host`.
    let name: String
    /// The positional arguments in order.
    let arguments: [Argument]
    /// What the command does, in one or two sentences.
    let summary: String
    /// The command's own options, in the order usage lists them.
    let options: [OptionSpec]
    /// Whether it also takes the host options (`--deadline`, `--memory-limit`, `--hang-grace`).
    let takesHostOptions: Bool

    init(_ name: String, arguments: [Argument] = [], summary: String, options: [OptionSpec] = [],
         takesHostOptions: Bool = false) {
        self.name = name
        self.arguments = arguments
        self.summary = summary
        self.options = options
        self.takesHostOptions = takesHostOptions
    }

    /// Every option the parser accepts for this command.
    var allOptions: [OptionSpec] {
        options + (takesHostOptions ? HostOptions.options : [])
    }

    /// The option called `name` (without dashes), if the command takes it.
    func option(named name: String) -> OptionSpec? {
        allOptions.first { $0.name == name }
    }

    /// Whether `arguments` ask for this command's help (`--help` or `-h` where an option could
    /// stand, not as the value of another option), checked before anything else is parsed.
    func requestsHelp(_ arguments: [String]) -> Bool {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" { return true }
            guard argument.hasPrefix("--"), !argument.contains("=") else { continue }
            if option(named: String(argument.dropFirst(2)))?.takesValue == true { index += 1 }
        }
        return false
    }
}
