import Foundation
import Testing
import WalletTestSupport

/// `scripts/install PREFIX`: the installed `wallet-host` has its sandbox init beside it and works
/// from any directory, sandboxed where the kernel allows. The test installs the debug products
/// `swift build` already built (`--products`): a release build takes minutes, and a `swift build`
/// from inside a test would wait on the build directory's lock.
@Suite("scripts/install", .serialized, .timeLimit(.minutes(2)))
struct InstallScriptTests {
    private static let script = BuildProducts.repositoryRoot.appendingPathComponent("scripts/install")

    /// Runs `command` with `arguments` in `directory`, stdin empty. - Returns: its status and output (stdout and stderr).
    private func run(_ command: URL, _ arguments: [String], in directory: URL,
                     environment: [String: String]? = nil) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = command
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        let output = TemporaryDirectory.uniqueURL(prefix: "install-output")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let handle = try FileHandle(forWritingTo: output)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    @Test func theInstalledHostRunsAnExtensionSandboxedFromAnotherDirectory() throws {
        let prefix = try TemporaryDirectory(prefix: "wallet-host-prefix")
        let elsewhere = try TemporaryDirectory(prefix: "wallet-host-elsewhere")
        defer { prefix.remove(); elsewhere.remove() }
        let installed = try run(Self.script, ["--products", BuildProducts.directory.path, prefix.url.path], in: elsewhere.url)
        try #require(installed.status == 0, "\(installed.output)")
        let bin = prefix.url.appendingPathComponent("bin")
        let host = bin.appendingPathComponent("wallet-host")
        #expect(FileManager.default.isExecutableFile(atPath: host.path))
        #expect(FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("WalletSandboxInit").path))
        // The script ends with the installed doctor, which finds the init beside the installed host.
        #expect(installed.output.contains("the sandbox's init is beside wallet-host: \(bin.path)/WalletSandboxInit"), "\(installed.output)")

        // From a directory with nothing of the checkout in it: a real call, sandboxed where the kernel allows.
        let state = elsewhere.url.appendingPathComponent("state")
        let call = try run(host, ["call", ExampleBundles.testHelperAppex.path, "status", "--deadline", "status=5s",
                                  "--state", state.path, "--json", "--no-daemon", "--sandbox", KernelNamespaces.available ? "required" : "auto"],
                           in: elsewhere.url)
        #expect(call.status == 0, "\(call.output)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(call.output.utf8)) as? [String: Any], "\(call.output)")
        #expect((object["result"] as? [String: Any])?["passEntriesAvailable"] as? Bool == true, "\(call.output)")
        #expect(object["sandboxed"] as? Bool == KernelNamespaces.available, "\(call.output)")
    }

    @Test func withoutThePrefixOrWithAnUnknownConfigurationItSaysHowToCallIt() throws {
        let elsewhere = try TemporaryDirectory(prefix: "wallet-host-elsewhere")
        defer { elsewhere.remove() }
        let bare = try run(Self.script, [], in: elsewhere.url)
        #expect(bare.status == 2)
        #expect(bare.output.contains("usage: scripts/install [--configuration release|debug] [--products DIR] PREFIX"))
        let wrong = try run(Self.script, ["--configuration", "fast", elsewhere.url.path], in: elsewhere.url)
        #expect(wrong.status == 2)
        #expect(wrong.output.contains("--configuration expects release or debug, not \"fast\""))
        let missing = try run(Self.script, ["--products", elsewhere.url.path, elsewhere.url.appendingPathComponent("p").path],
                              in: elsewhere.url)
        #expect(missing.status == 1)
        #expect(missing.output.contains("\(elsewhere.url.path)/wallet-host is missing or not executable"))
    }

    @Test func aRelativePrefixIsRelativeToWhereTheScriptRanNotToTheCheckout() throws {
        let elsewhere = try TemporaryDirectory(prefix: "wallet-host-elsewhere")
        defer { elsewhere.remove() }
        // A `swift` that builds nothing and shows the debug products: the script's build path, without a build.
        let bin = elsewhere.url.appendingPathComponent("fake-bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let swift = bin.appendingPathComponent("swift")
        try Data("""
            #!/bin/sh
            case "$*" in *--show-bin-path*) echo "\(BuildProducts.directory.path)" ;; esac
            exit 0

            """.utf8).write(to: swift)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: swift.path)
        let relative = "relative-prefix-\(UInt32.random(in: 0 ... .max))"
        let inCheckout = BuildProducts.repositoryRoot.appendingPathComponent(relative)
        defer { try? FileManager.default.removeItem(at: inCheckout) }
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = "\(bin.path):/usr/bin:/bin"
        let installed = try run(Self.script, ["--configuration", "debug", relative], in: elsewhere.url, environment: environment)
        try #require(installed.status == 0, "\(installed.output)")
        let host = elsewhere.url.appendingPathComponent("\(relative)/bin/wallet-host")
        #expect(FileManager.default.isExecutableFile(atPath: host.path), "\(installed.output)")
        #expect(installed.output.contains("installed \(elsewhere.url.path)/\(relative)/bin/wallet-host"), "\(installed.output)")
        #expect(!FileManager.default.fileExists(atPath: inCheckout.path), "installed inside the checkout")
    }
}
