import Testing
import Wallet
import WalletHostRuntime

/// `--deadline` against Wallet's registry: the methods it knows are Wallet's points' methods.
@Suite("--deadline with Wallet's extension points")
struct DeadlineOptionTests {
    @Test("--deadline takes METHOD=DURATION for a method some extension point has")
    func deadlines() throws {
        let parsed = try HostConfiguration.parseDeadline("passEntries=2s", registry: .wallet)
        #expect(parsed.method == "passEntries" && parsed.deadline == .seconds(2))
        #expect(try HostConfiguration.parseDeadline("authorize=250", registry: .wallet).deadline == .milliseconds(250))
        #expect(throws: ConfigurationError("--deadline: \"frobnicate\" is not a method of any extension point; the methods are "
                                           + "status, passEntries, remotePassEntries, generateAddPaymentPassRequest, authorize")) {
            try HostConfiguration.parseDeadline("frobnicate=5ms", registry: .wallet)
        }
        #expect(throws: ConfigurationError("--deadline status: \"1e300s\" is longer than 24 h, the longest duration accepted")) {
            try HostConfiguration.parseDeadline("status=1e300s", registry: .wallet)
        }
        #expect(throws: ConfigurationError("--deadline status expects a duration such as 250ms or 2s, not \"nan\"")) {
            try HostConfiguration.parseDeadline("status=nan", registry: .wallet)
        }
        for malformed in ["status", "=5ms", ""] {
            #expect(throws: ConfigurationError.self) { try HostConfiguration.parseDeadline(malformed, registry: .wallet) }
        }
    }
}
