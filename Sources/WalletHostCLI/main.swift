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
/// Whether the command was asked for JSON: its errors are then a JSON document on stdout too.
let wantsJSON = command?.option(named: "json") != nil && commandArguments.contains("--json")
var status: Int32
do {
    if let command, command.requestsHelp(commandArguments) {
        print(command.usage)
        status = 0
    } else {
        status = try await Commands.run(arguments.first, commandArguments)
    }
} catch let error as UsageError {
    StandardError.write("wallet-host: \(error)\n\(command?.shortUsage ?? Commands.shortUsage)\n")
    if wantsJSON { printJSON(CommandErrorDocument.render(error.description, kind: "usage", exitStatus: 2)) }
    status = 2
} catch {
    let sentence = ErrorMessage.sentence(error)
    StandardError.write("wallet-host: \(sentence)\n")
    if wantsJSON { printJSON(CommandErrorDocument.render(sentence, kind: "failure", exitStatus: 1)) }
    status = 1
}
// Whatever the command printed must have reached stdout: a report lost there is a failure
// (but a reader that stopped reading, as `head` does, is not worth a word).
if let problem = StandardOutput.finish() {
    StandardError.write("wallet-host: \(problem)\n")
    if status == 0 { status = 1 }
}
exit(status)
