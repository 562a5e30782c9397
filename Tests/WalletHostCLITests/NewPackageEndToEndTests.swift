import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import WalletTestSupport

/// Issue 35's "done when": from `wallet-host new Bank` in an empty directory to a card added and a
/// passing `conform`, running nothing but the commands the generated README shows (one `swift build`
/// of the generated package, which compiles the SDK: minutes on a small machine).
@Suite("wallet-host new, from an empty folder to a card added", .serialized, .timeLimit(.minutes(30)))
struct NewPackageEndToEndTests {
    /// `wallet-host new Bank` in an empty temporary directory, made once for both tests (whichever runs
    /// first builds it; the folder goes when the test process exits, as every ``TemporaryDirectory``).
    static let bank = Result { () throws -> URL in
        let directory = try TemporaryDirectory(prefix: "wallet-host-new-e2e")
        let made = try WalletHostCommand.run(["new", "Bank", "--out", directory.url.appendingPathComponent("Bank").path,
                                              "--sdk", BuildProducts.repositoryRoot.path, "--backend-port", "\(try freePort())"])
        guard made.status == 0, made.standardOutput.contains("  Sources/BankCards/BankCardsHandler.swift"),
              made.standardOutput.contains("next: cd ") else {
            throw Failure(description: "new Bank: \(made.standardOutput)\(made.standardError)")
        }
        return directory.url.appendingPathComponent("Bank")
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    @Test("new Bank, then the README's commands: bundle, the development backend, app open, conform, add-card")
    func newPackageToCardAdded() throws {
        let package = try Self.bank.get()
        let readme = try String(contentsOf: package.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("stands in for the bank's server"))
        #expect(readme.contains("`demo` with password `demo`"))
        let commands = try #require(Self.shellBlock(in: readme), "README.md has no sh block")

        // The README's block as it is, in the package's folder; what it starts in the background (the backend, the
        // daemon) is stopped, and waited for, when the shell exits. add-card launches the extension cold and holds it
        // to Wallet's 100 ms for status, which a debug build on a machine this loaded (2 cores, several builds) can
        // miss by a few milliseconds: the last line runs up to five times (conform tries three launches), and only
        // that miss may make it run again.
        var lines = commands.split(separator: "\n").map(String.init)
        try #require(!lines.isEmpty)
        let addCard = lines.removeLast()
        #expect(addCard.hasPrefix("wallet-host add-card "))
        let script = "set -e\ntrap 'kill $(jobs -p) 2>/dev/null; wait' EXIT\n" + lines.joined(separator: "\n")
            + "\nfor attempt in 1 2 3 4 5; do if \(addCard); then exit 0; fi; done; exit 1\n"
        let run = try Self.shell(script, in: package)
        // The README keeps the simulated iPhone in .state/, whose App Group containers a root host mounts (ext4
        // images, the quota): a child unmounts them, in the namespace the commands mounted them in, so the folder goes.
        _ = try Self.shell(#"grep -F " $PWD/.state/" /proc/self/mountinfo | cut -d" " -f5 | sort -r | xargs -r -n1 umount -l"#, in: package)
        let output = run.standardOutput
        #expect(run.status == 0, "\(output.suffix(6000))\n\(run.standardError.suffix(8000))")
        let failedAttempts = output.split(separator: "\n").filter { $0.hasPrefix("FAILED: ") }
        #expect(failedAttempts.allSatisfy { $0.contains("status too slow") }, "\(failedAttempts)")
        #expect(!run.standardError.contains("warning:"), "the generated package builds without warnings: \(run.standardError.suffix(6000))")
        #expect(output.contains("assembled \(package.path)/apps/Bank.app/PlugIns/BankCards.appex"), "\(output.prefix(3000))")
        #expect(output.contains("BankApp: signed in as Jane Appleseed; wrote 2 cards into group.com.example.bank"), "\(output.prefix(4000))")
        let failures = output.split(separator: "\n").filter { $0.hasPrefix("  FAIL") }
        #expect(failures.isEmpty, "conform: \(failures)")
        #expect(output.contains("BankCards: ") && output.contains("0 failed"), "\(output.suffix(6000))")
        #expect(output.contains("Bank Visa added to iPhone") && output.contains("card •••• 4242"), "\(output.suffix(6000))")
        #expect(output.contains("Added 2 card(s) to iPhone."), "\(output.suffix(6000))")
        #expect(output.contains("fields username, password (secure) · actions [Sign In] [Cancel] -> Sign In"),
                "the scripted user signed in: \(output.suffix(6000))")

        // The unit tests the README names (`swift test`) build without warnings and pass.
        let tested = try Self.shell("swift test 2>&1", in: package)
        #expect(tested.status == 0, "\(tested.standardOutput.suffix(6000))")
        #expect(!tested.standardOutput.contains("warning:"), "\(tested.standardOutput.suffix(6000))")
        #expect(tested.standardOutput.contains("afterSignInTheCardsAreOfferedBehindAuthentication() passed"), "\(tested.standardOutput.suffix(3000))")

        // Nothing asks twice: a package folder that is not empty is refused, naming it.
        let again = try WalletHostCommand.run(["new", "Bank", "--out", package.path, "--sdk", BuildProducts.repositoryRoot.path])
        #expect(again.status == 1)
        #expect(again.standardError.contains("\(package.path) is not empty"), "\(again.standardError)")
    }

    /// The text of the first ```sh block.
    static func shellBlock(in markdown: String) -> String? {
        guard let start = markdown.range(of: "```sh\n"), let end = markdown.range(of: "\n```", range: start.upperBound..<markdown.endIndex) else {
            return nil
        }
        return String(markdown[start.upperBound..<end.lowerBound]) + "\n"
    }

    /// Runs `script` with `bash` in `directory`, with the built `wallet-host` first on `PATH`.
    static func shell(_ script: String, in directory: URL) throws -> (status: Int32, standardOutput: String, standardError: String) {
        let path = BuildProducts.directory.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let run = try WalletHostCommand.runProcess(URL(fileURLWithPath: "/bin/bash"), arguments: ["-c", script],
                                                   workingDirectory: directory, environment: ["PATH": path])
        return (run.status, run.standardOutput, run.standardError)
    }

    /// A loopback port nothing listens on now.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
