import Foundation
import Testing
import WalletTestSupport

/// `--network` and `--allow-network`: bad values and combinations that mean nothing are usage
/// errors naming the value, before any extension runs.
@Suite("--network and --allow-network", .timeLimit(.minutes(1)))
struct NetworkOptionsTests {
    @Test("refused: a mode that does not exist, a malformed destination, network options with --sandbox off, an allow list without the proxy",
          arguments: [
            (["--network", "open"], "--network expects none, proxy or host, not \"open\""),
            (["--allow-network", "api.example.com:99999"], "not \"api.example.com:99999\""),
            (["--sandbox", "off", "--network", "none"], "need the sandbox"),
            (["--sandbox", "off", "--allow-network", "api.example.com"], "need the sandbox"),
            (["--network", "host", "--allow-network", "api.example.com"], "--allow-network needs --network proxy"),
          ])
    func usageErrors(options: [String], message: String) throws {
        let run = try WalletHostCommand.run(["call", "/nonexistent/Missing.appex", "status", "--no-daemon"] + options)
        #expect(run.status == 2, "\(run.standardError)")
        #expect(run.standardError.contains(message), "\(run.standardError)")
    }
}
