import Foundation
import Testing
import WalletTestSupport

extension NewPackageEndToEndTests {
    @Test("serve --watch: an edit of status is answered through the daemon without a command; a broken edit prints the error and keeps the last good bundle")
    func watchRebuildsAndReloads() async throws {
        let package = try Self.bank.get()
        let bundled = try WalletHostCommand.run(["bundle", package.path])
        #expect(bundled.status == 0, "\(bundled.standardOutput)\(bundled.standardError.suffix(4000))")
        let state = try TemporaryDirectory(prefix: "wallet-host-watch-state")
        defer { state.remove() }
        let errors = TemporaryDirectory.uniqueURL(prefix: "wallet-host-watch-stderr")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        let daemon = Process()
        daemon.executableURL = BuildProducts.walletHost
        daemon.arguments = ["serve", "--watch", package.path, "--state", state.url.path, "--keep-warm", "--deadline", "status=20s",
                            // No App Group image mounted (a root host's quota), so that the state folder goes with the test.
                            "--container-quota", "none"]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = try FileHandle(forWritingTo: errors)
        try daemon.run()
        defer {
            daemon.terminate()
            daemon.waitUntilExit()
        }
        let log = { (try? String(contentsOf: errors, encoding: .utf8)) ?? "" }
        try await waitFor("the daemon serves", timeout: .seconds(60)) { log().contains("wallet-host serve: pid") || !daemon.isRunning }
        #expect(!log().contains("nothing assembled"), "bundle assembled the apps: \(log())")
        let appex = package.appendingPathComponent("apps/Bank.app/PlugIns/BankCards.appex").path
        let status = { () throws -> Bool? in
            let call = try WalletHostCommand.run(["call", appex, "status", "--state", state.url.path, "--json", "--deadline", "status=20s"])
            return (try? call.json()).flatMap { ($0["result"] as? [String: Any])?["requiresAuthentication"] as? Bool }
        }
        #expect(try status() == false, "no app opened on this device: \(log())")

        // The status answer changes in the source: the daemon rebuilds and answers with it, no command run.
        let handler = package.appendingPathComponent("Sources/BankCards/BankCardsHandler.swift")
        let original = try String(contentsOf: handler, encoding: .utf8)
        defer { try? Data(original.utf8).write(to: handler) }
        let edited = original.replacingOccurrences(of: "        return status\n", with: "        status.requiresAuthentication = true\n        return status\n")
        #expect(edited != original)
        try Data(edited.utf8).write(to: handler)
        try await waitFor("the new status answer", timeout: .seconds(600)) { try status() == true }

        // A broken edit: the compiler's error is printed, and the last good bundle still answers.
        try Data((edited + "\nthis is not Swift\n").utf8).write(to: handler)
        try await waitFor("the build error", timeout: .seconds(600)) { log().contains("the build failed; the last good bundles stay") }
        #expect(log().contains("BankCardsHandler.swift") && log().contains("error:"), "\(log())")
        #expect(try status() == true, "the last good bundle answers")
    }
}
