import Foundation
import Testing
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A report that cannot be written is a failure naming the file, exit 1: `--junit` and `--html`
/// to a full device or into a directory the user may not write, and stdout itself (issue 16).
@Suite("wallet-host reports that cannot be written", .serialized, .timeLimit(.minutes(2)))
struct ReportWriteFailureTests {
    /// A device that refuses every write with ENOSPC, as /dev/full does. As root, a private node
    /// (1, 7) in a temporary directory: a regression that replaced the device by a regular file
    /// (the atomic write did) must not replace the machine's /dev/full.
    private static func fullDevice(in directory: TemporaryDirectory) throws -> String {
        try device("full", minor: 7, in: directory)
    }

    /// `/dev/NAME`, or as root a private node of the memory devices' major 1 with `minor`.
    private static func device(_ name: String, minor: UInt64, in directory: TemporaryDirectory) throws -> String {
        guard geteuid() == 0 else { return "/dev/\(name)" }
        let path = directory.url.appendingPathComponent(name).path
        try #require(mknod(path, S_IFCHR | 0o666, dev_t((1 << 8) | minor)) == 0, "mknod: \(String(cString: strerror(errno)))")
        return path
    }

    private static func isCharacterDevice(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFCHR
    }

    @Test("validate --junit to a full device exits 1 naming it, and leaves the device in place")
    func junitToFullDevice() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-full")
        defer { directory.remove() }
        let full = try Self.fullDevice(in: directory)
        let run = try WalletHostCommand.run(["validate", ExampleBundles.sampleIssuerApp.path, "--junit", full])
        #expect(run.status == 1, "\(run.standardOutput)")
        #expect(run.standardError == "wallet-host: cannot write the JUnit report to \(full): No space left on device\n")
        #expect(Self.isCharacterDevice(full), "the report replaced the device by a file")
    }

    @Test("validate --junit to a null device writes there, succeeds and leaves the device in place")
    func junitToNullDevice() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-null")
        defer { directory.remove() }
        let null = try Self.device("null", minor: 3, in: directory)
        let run = try WalletHostCommand.run(["validate", ExampleBundles.sampleIssuerApp.path, "--junit", null])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(Self.isCharacterDevice(null), "the report replaced the device by a file")
    }

    @Test("validate --junit into a directory the user may not write exits 1 naming the file",
          .enabled(if: RunAsNobody.isPossible, RunAsNobody.impossible))
    func junitIntoReadOnlyDirectory() throws {
        // Root writes into a mode 555 directory: run wallet-host as nobody then.
        let launcher = RunAsNobody.launcher
        let directory = try TemporaryDirectory(prefix: "wallet-host-read-only")
        defer { directory.remove() }
        #expect(chmod(directory.url.path, 0o555) == 0)
        let junit = directory.url.appendingPathComponent("report.xml").path
        let run = try WalletHostCommand.run(["validate", ExampleBundles.sampleIssuerApp.path, "--junit", junit], launcher: launcher)
        #expect(run.status == 1)
        #expect(run.standardError == "wallet-host: cannot write the JUnit report to \(junit): Permission denied\n")
    }

    @Test("add-card --html to a full device exits 1 naming it, after a flow that succeeded")
    func htmlToFullDevice() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-full")
        defer { directory.remove() }
        let full = try Self.fullDevice(in: directory)
        let state = directory.url.appendingPathComponent("state")
        let script = directory.url.appendingPathComponent("user-agent.json")
        try Data("""
            {"issuer": "com.example.sampleissuer",
             "answers": [{"action": "Log In", "values": {"username": "jappleseed", "password": "wallet-demo"}}],
             "biometric": ["match"], "select": "all"}
            """.utf8).write(to: script)
        #expect(try WalletHostCommand.run(["app", "open", ExampleBundles.sampleIssuerApp.path, "--state", state.path]).status == 0)
        let run = try WalletHostCommand.run(["add-card", "--apps", ExampleBundles.directory.path, "--state", state.path,
                                             "--user-agent", script.path, "--deadline", "status=5s", "--html", full])
        #expect(run.status == 1, "\(run.standardOutput)")
        #expect(run.standardError.hasSuffix("wallet-host: cannot write the HTML report to \(full): No space left on device\n"),
                "\(run.standardError)")
        #expect(Self.isCharacterDevice(full))
    }

    @Test("stdout to a full device: validate exits 1 saying so, add-card's transcript does not trap", arguments: [
        ["validate", "SAMPLE"], ["validate", "SAMPLE", "--json"], ["passes", "--state", "STATE"], ["add-card", "--apps", "EMPTY", "--state", "STATE"],
    ])
    func standardOutputToFullDevice(_ template: [String]) throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-full")
        defer { directory.remove() }
        let full = try Self.fullDevice(in: directory)
        let empty = directory.url.appendingPathComponent("apps")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let arguments = template.map {
            ["SAMPLE": ExampleBundles.sampleIssuerApp.path, "STATE": directory.url.appendingPathComponent("state").path,
             "EMPTY": empty.path][$0] ?? $0
        }
        let (status, reason, standardError) = try Self.run(arguments, standardOutput: full)
        #expect(reason == .exit, "wallet-host died of a signal: \(standardError)")
        #expect(status == 1)
        #expect(standardError.hasSuffix("wallet-host: cannot write to standard output (\(full)): No space left on device\n"),
                "\(standardError)")
    }

    /// Runs wallet-host with stdout opened on `standardOutput`.
    private static func run(_ arguments: [String], standardOutput: String) throws
        -> (status: Int32, reason: Process.TerminationReason, standardError: String) {
        let process = Process()
        process.executableURL = BuildProducts.walletHost
        process.arguments = arguments
        let errors = Pipe()
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: standardOutput))
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason, String(decoding: data, as: UTF8.self))
    }
}
