import Foundation
import Testing

/// What one run of the built `wallet-host` printed, and how it exited.
public struct WalletHostRun: Sendable {
    /// The exit status.
    public var status: Int32
    /// Everything written to stdout.
    public var standardOutput: String
    /// Everything written to stderr.
    public var standardError: String

    /// The `--json` output as an object.
    /// - Throws: When stdout is not one JSON object.
    public func json() throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(standardOutput.utf8))
        return try #require(object as? [String: Any], "not a JSON object: \(standardOutput)")
    }
}

/// Runs the built `wallet-host` (``BuildProducts/walletHost``), as a user or CI would.
public enum WalletHostCommand {
    /// Runs `wallet-host` with `arguments`, stdin `/dev/null`, and waits for it to exit.
    /// - Parameters:
    ///   - arguments: The command line after `wallet-host`.
    ///   - launcher: A command that runs `wallet-host` in turn (`/usr/bin/setpriv --reuid=...`),
    ///     its executable first; empty runs `wallet-host` directly.
    ///   - workingDirectory: Where it runs (default: this process's working directory).
    ///   - environment: Variables to set, or to remove (nil), in this process's environment.
    /// - Throws: When the executable cannot be started.
    public static func run(_ arguments: [String], launcher: [String] = [], workingDirectory: URL? = nil,
                           environment: [String: String?] = [:]) throws -> WalletHostRun {
        if let executable = launcher.first {
            return try runProcess(URL(fileURLWithPath: executable),
                                  arguments: launcher.dropFirst() + [BuildProducts.walletHost.path] + arguments,
                                  workingDirectory: workingDirectory, environment: environment)
        }
        return try runProcess(BuildProducts.walletHost, arguments: arguments, workingDirectory: workingDirectory,
                              environment: environment)
    }

    /// Runs `executable` with `arguments` and no input, and waits for it: its status and output.
    /// - Parameters:
    ///   - workingDirectory: Where it runs (default: this process's working directory).
    ///   - environment: Variables to set, or to remove (nil), in this process's environment.
    /// - Throws: When the executable cannot be started.
    public static func runProcess(_ executable: URL, arguments: [String], workingDirectory: URL? = nil,
                                  environment: [String: String?] = [:]) throws -> WalletHostRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let workingDirectory { process.currentDirectoryURL = workingDirectory }
        if !environment.isEmpty {
            var variables = ProcessInfo.processInfo.environment
            for (name, value) in environment { variables[name] = value }
            process.environment = variables
        }
        // stderr goes to a file, so that only one pipe is read and neither can fill up.
        let errorFile = TemporaryDirectory.uniqueURL(prefix: "wallet-host-stderr")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorData = (try? Data(contentsOf: errorFile)) ?? Data()
        return WalletHostRun(status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
                             standardError: String(decoding: errorData, as: UTF8.self))
    }
}
