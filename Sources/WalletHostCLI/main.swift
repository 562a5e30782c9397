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
  validate PATH...  Check .app/.appex bundles (or directories of .app) and print every finding.

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
