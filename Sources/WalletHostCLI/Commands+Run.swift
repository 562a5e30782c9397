/// The dispatch from the word after `wallet-host` to the command that runs.
extension Commands {
    /// Runs the command `name` with its `arguments`.
    /// - Returns: The exit status.
    /// - Throws: ``UsageError`` for a command line that does not parse, else the command's failure.
    static func run(_ name: String?, _ arguments: [String]) async throws -> Int32 {
        switch name {
        case "call": return try await CallCommand(arguments: arguments).run()
        case "validate": return try ValidateCommand(arguments: arguments).run()
        case "conform": return try await ConformCommand(arguments: arguments).run()
        case "add-card": return try await AddCardCommand(arguments: arguments).run()
        case "stress": return try await StressCommand(arguments: arguments).run()
        case "import": return try ImportCommand(arguments: arguments).run()
        case "new": return try NewCommand(arguments: arguments).run()
        case "bundle": return try BundleCommand(arguments: arguments).run()
        case "demo": return try await DemoCommand(arguments: arguments).run()
        case "app": return try await StateCommands.app(arguments)
        case "passes": return try await StateCommands.passes(arguments)
        case "device": return try await StateCommands.device(arguments)
        case "keychain": return try KeychainCommand.run(arguments)
        case "provisioning": return try ProvisioningCommand.run(arguments)
        case "serve": return try await ServeCommand(arguments: arguments).run()
        case "ps": return try await PsCommand(arguments: arguments).run()
        case "studio": return try await StudioCommand(arguments: arguments).run()
        case "stop": return try await StopCommand(arguments: arguments).run()
        case "logs": return try await LogsCommand(arguments: arguments).run()
        case "doctor": return try DoctorCommand(arguments: arguments).run()
        case "help":
            if let name = arguments.first {
                guard let described = named(name) else {
                    throw UsageError("help: unknown command \"\(name)\"" + NearestName.hint(name, among: all.map(\.name)))
                }
                print(described.usage)
            } else {
                print(usage)
            }
            return 0
        case "-h", "--help":
            print(usage)
            return 0
        case "--version", "version":
            print(HostVersion.line)
            return 0
        case nil:
            StandardError.write(usage + "\n")
            return 2
        case let other?:
            let known = all.map(\.name) + ["help"]
            if other.hasPrefix("-") {
                throw UsageError("unknown option \(other) before a command" + NearestName.hint(other, among: ["--help", "--version"]))
            }
            throw UsageError("unknown command \"\(other)\"" + NearestName.hint(other, among: known))
        }
    }

    /// What a usage error without a command prints after the error.
    static let shortUsage = "usage: wallet-host <command> [options]   (wallet-host help lists the commands)"
}
