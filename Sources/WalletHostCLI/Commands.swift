/// Every command `wallet-host` has, in the order the top-level usage lists them.
enum Commands {
    static let all: [CommandSpec] = [
        CallCommand.spec, ValidateCommand.spec, ConformCommand.spec, AddCardCommand.spec, DemoCommand.spec, StressCommand.spec,
        StateCommands.appSpec, StateCommands.passesSpec, StateCommands.deviceSpec, KeychainCommand.spec, ProvisioningCommand.spec,
        ServeCommand.spec,
        PsCommand.spec,
        StudioCommand.spec,
        StopCommand.spec,
        LogsCommand.spec,
        DoctorCommand.spec,
        ImportCommand.spec,
        NewCommand.spec,
        BundleCommand.spec,
    ]

    /// The command called `name`, if there is one.
    static func named(_ name: String) -> CommandSpec? {
        all.first { $0.name == name }
    }

    /// What `wallet-host help` prints: every command's synopsis and summary, the host options once.
    static var usage: String {
        var text = "usage: wallet-host <command> [options]\n\ncommands:\n"
        for command in all {
            text += command.synopsis(indent: 2) + "\n"
            text += CommandSpec.wrap(CommandSpec.words(command.summary), firstIndent: 8, indent: 8) + "\n"
        }
        let hostCommands = all.filter(\.takesHostOptions).map(\.name)
        text += "\nhost options, taken by \(hostCommands.joined(separator: ", ")):\n"
        text += CommandSpec.table(HostOptions.options.map(\.usageRow))
        text += "\n`wallet-host help COMMAND` or `wallet-host COMMAND --help` describes a command's arguments and options;"
            + " `wallet-host --version` prints the version.\n"
        return text + CommandSpec.exitStatus
    }
}
