import Foundation
import Testing
import WalletTestSupport

/// `wallet-host help`, `wallet-host help COMMAND`, `wallet-host COMMAND --help` and usage
/// errors, run on the built executable as a user runs it.
@Suite("wallet-host help and usage errors", .timeLimit(.minutes(2)))
struct CommandHelpTests {
    static let commands = ["call", "validate", "conform", "add-card", "demo", "stress", "app", "passes", "device", "keychain",
                           "serve", "ps", "stop", "logs", "new", "bundle"]
    static let hostOptions = ["--deadline METHOD=DURATION", "--memory-limit SIZE", "--hang-grace DURATION"]

    /// The options a command's help lists, as `(name, takesValue)`: lines `  --name VALUE  help`.
    static func listedOptions(_ help: String) -> [(name: String, takesValue: Bool)] {
        help.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  --") else { return nil }
            let words = line.dropFirst(2).split(separator: " ", omittingEmptySubsequences: false)
            let takesValue = words.count > 1 && !words[1].isEmpty
            return (String(words[0].dropFirst(2)), takesValue)
        }
    }

    @Test("wallet-host help lists every command and the host options once")
    func topLevel() throws {
        let run = try WalletHostCommand.run(["help"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.isEmpty)
        for command in Self.commands {
            #expect(run.standardOutput.contains("\n  \(command) "), "\(command) is missing from:\n\(run.standardOutput)")
        }
        for option in Self.hostOptions {
            #expect(run.standardOutput.components(separatedBy: option).count == 2, "\(option) should be listed once")
        }
        #expect(try WalletHostCommand.run(["--help"]).standardOutput == run.standardOutput)
    }

    @Test("help COMMAND prints the command's usage on stdout and exits 0", arguments: commands)
    func helpCommand(command: String) throws {
        let run = try WalletHostCommand.run(["help", command])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardError.isEmpty)
        #expect(run.standardOutput.hasPrefix("usage: wallet-host \(command)"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains("Exit status:"))
    }

    @Test("COMMAND --help and COMMAND -h print the same as help COMMAND, whatever else is on the line",
          arguments: commands)
    func dashDashHelp(command: String) throws {
        let help = try WalletHostCommand.run(["help", command]).standardOutput
        for arguments in [[command, "--help"], [command, "-h"], [command, "--state", "/nonexistent", "--help"]] {
            let run = try WalletHostCommand.run(arguments)
            #expect(run.status == 0, "\(arguments): \(run.standardError)")
            #expect(run.standardOutput == help, "\(arguments)")
        }
    }

    @Test("the commands that run extensions, and only they, list the host options", arguments: commands)
    func hostOptionsWhereTheyApply(command: String) throws {
        let help = try WalletHostCommand.run(["help", command]).standardOutput
        let takesThem = ["call", "conform", "add-card", "stress", "serve"].contains(command)
        for option in Self.hostOptions {
            #expect(help.contains(option) == takesThem, "\(command): \(option)")
        }
    }

    @Test("every option a command's help lists is one its parser knows, valued or a flag as listed",
          arguments: commands)
    func listedOptionsParse(command: String) throws {
        let options = Self.listedOptions(try WalletHostCommand.run(["help", command]).standardOutput)
        #expect(!options.isEmpty)
        for option in options {
            // Neither form gets past the parser, so nothing runs.
            let run = try WalletHostCommand.run(option.takesValue ? [command, "--\(option.name)"] : [command, "--\(option.name)=1"])
            let expected = option.takesValue ? "--\(option.name) needs a value" : "--\(option.name) takes no value"
            #expect(run.status == 2)
            #expect(run.standardError.contains(expected), "\(command) --\(option.name): \(run.standardError)")
        }
    }

    @Test("an unknown option is a usage error naming it and the command, with that command's usage", arguments: commands)
    func unknownOption(command: String) throws {
        let run = try WalletHostCommand.run([command, "--no-such-option", "value"])
        #expect(run.status == 2)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.hasPrefix("wallet-host: unknown option --no-such-option for \(command)\n"), "\(run.standardError)")
        #expect(run.standardError.contains("usage: wallet-host \(command)"))
    }

    @Test("help for an unknown command, and an unknown command, are usage errors")
    func unknownCommand() throws {
        let help = try WalletHostCommand.run(["help", "frobnicate"])
        #expect(help.status == 2)
        #expect(help.standardError.contains("unknown command \"frobnicate\""))
        let run = try WalletHostCommand.run(["frobnicate"])
        #expect(run.status == 2)
        #expect(run.standardError.contains("unknown command \"frobnicate\""))
        #expect(run.standardError.contains("usage: wallet-host <command>"))
    }

    @Test("no command at all prints the usage on stderr and exits 2")
    func noCommand() throws {
        let run = try WalletHostCommand.run([])
        #expect(run.status == 2)
        #expect(run.standardOutput.isEmpty)
        #expect(run.standardError.contains("usage: wallet-host <command>"))
    }
}
