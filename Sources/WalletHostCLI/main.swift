import Foundation
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

// A write to an extension that just died must be an EPIPE error, not the host's death.
signal(SIGPIPE, SIG_IGN)
// --sandbox auto where the kernel refuses the sandbox: one warning per run, on stderr.
SandboxStatus.onWarning { warning in StandardError.write("wallet-host: \(warning)\n") }

let arguments = Array(CommandLine.arguments.dropFirst())
let commandArguments = Array(arguments.dropFirst())
/// The command being run, whose usage a usage error prints; nil before one is recognised.
let command = arguments.first.flatMap(Commands.named)
var status: Int32
do {
    if let command, command.requestsHelp(commandArguments) {
        print(command.usage)
        status = 0
    } else {
        switch arguments.first {
        case "call":
            status = try await CallCommand(arguments: commandArguments).run()
        case "validate":
            status = try ValidateCommand(arguments: commandArguments).run()
        case "conform":
            status = try await ConformCommand(arguments: commandArguments).run()
        case "add-card":
            status = try await AddCardCommand(arguments: commandArguments).run()
        case "stress":
            status = try await StressCommand(arguments: commandArguments).run()
        case "import":
            status = try ImportCommand(arguments: commandArguments).run()
        case "new":
            status = try NewCommand(arguments: commandArguments).run()
        case "bundle":
            status = try BundleCommand(arguments: commandArguments).run()
        case "demo":
            status = try await DemoCommand(arguments: commandArguments).run()
        case "app":
            status = try await StateCommands.app(commandArguments)
        case "passes":
            status = try await StateCommands.passes(commandArguments)
        case "device":
            status = try await StateCommands.device(commandArguments)
        case "keychain":
            status = try KeychainCommand.run(commandArguments)
        case "provisioning":
            status = try ProvisioningCommand.run(commandArguments)
        case "serve":
            status = try await ServeCommand(arguments: commandArguments).run()
        case "ps":
            status = try await PsCommand(arguments: commandArguments).run()
        case "doctor":
            status = try DoctorCommand(arguments: commandArguments).run()
        case "help":
            if let name = commandArguments.first {
                guard let described = Commands.named(name) else { throw UsageError("help: unknown command \"\(name)\"") }
                print(described.usage)
            } else {
                print(Commands.usage)
            }
            status = 0
        case "-h", "--help":
            print(Commands.usage)
            status = 0
        case nil:
            FileHandle.standardError.write(Data((Commands.usage + "\n").utf8))
            status = 2
        case let other?:
            throw UsageError("unknown command \"\(other)\"")
        }
    }
} catch let error as UsageError {
    StandardError.write("wallet-host: \(error)\n\n\(command?.usage ?? Commands.usage)\n")
    status = 2
} catch {
    StandardError.write("wallet-host: \(ErrorMessage.sentence(error))\n")
    status = 1
}
// Whatever the command printed must have reached stdout: a report lost there is a failure.
if let problem = StandardOutput.finish() {
    StandardError.write("wallet-host: \(problem)\n")
    if status == 0 { status = 1 }
}
exit(status)
