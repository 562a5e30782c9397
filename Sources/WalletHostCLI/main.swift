import Foundation
#if canImport(Glibc)
import Glibc
#endif

// A write to an extension that just died must be an EPIPE error, not the host's death.
signal(SIGPIPE, SIG_IGN)

let usage = """
usage: wallet-host <command> [options]

commands:
  call APPEX METHOD [--params JSON] [--state DIR] [--json]
                    [--deadline METHOD=DURATION]... [--memory-limit SIZE]
        Run one call on an extension and report result, launch time, call time and peak footprint.
  validate PATH... [--json]
        Check .app/.appex bundles (or directories of .app) and print every finding.
  conform APPEX... [--junit FILE] [--json] [--state DIR]
                   [--deadline METHOD=DURATION]... [--memory-limit SIZE] [--hang-grace DURATION]
        Run the conformance checks against each extension (an .app means its extensions);
        exit 0 only when every check passed. docs/CONFORMANCE.md lists the checks.
  add-card [--apps DIR] [--state DIR] [--issuer ID] [--device iphone|watch]
           [--user-agent FILE | --interactive] [--select all|ID,...] [--json]
        Run Wallet's add-card flow: discovery, authorization, entries, card-by-card requests.
  demo [--apps DIR] [--state DIR]
        The sample issuer end to end on a fresh simulated device: iPhone, then the paired watch.
  app open APP [--apps DIR] [--state DIR]
        Run a containing app (it logs in and writes its cards) and mark it opened once.
  passes list|add ID|remove ID|reset [--device iphone|watch] [--state DIR] [--json]
  device [--watch paired|unpaired] [--state DIR] [--json]

Exit status: 0 success, 1 the extension or bundle failed, 2 usage error.
"""

let arguments = Array(CommandLine.arguments.dropFirst())
let status: Int32
do {
    switch arguments.first {
    case "call":
        status = try await CallCommand(arguments: Array(arguments.dropFirst())).run()
    case "validate":
        status = try ValidateCommand(arguments: Array(arguments.dropFirst())).run()
    case "conform":
        status = try await ConformCommand(arguments: Array(arguments.dropFirst())).run()
    case "add-card":
        status = try await AddCardCommand(arguments: Array(arguments.dropFirst())).run()
    case "demo":
        status = try await DemoCommand(arguments: Array(arguments.dropFirst())).run()
    case "app":
        status = try StateCommands.app(Array(arguments.dropFirst()))
    case "passes":
        status = try StateCommands.passes(Array(arguments.dropFirst()))
    case "device":
        status = try StateCommands.device(Array(arguments.dropFirst()))
    case "-h", "--help", "help":
        print(usage)
        status = 0
    case nil:
        FileHandle.standardError.write(Data(usage.utf8))
        status = 2
    case let other?:
        throw UsageError("unknown command \"\(other)\"")
    }
} catch let error as UsageError {
    FileHandle.standardError.write(Data("wallet-host: \(error)\n\n\(usage)\n".utf8))
    status = 2
} catch {
    FileHandle.standardError.write(Data("wallet-host: \(error)\n".utf8))
    status = 1
}
exit(status)
