import Foundation
import Testing
@testable import WalletHostRuntime

/// `--allow-network` entries and what the egress proxy lets through with them.
@Suite("--allow-network and the egress proxy's policy")
struct NetworkPolicyTests {
    @Test("HOST[:PORT] parses names, IPv4 and bracketed IPv6, with and without a port",
          arguments: [("api.example.com", "api.example.com", nil), ("API.example.com:443", "api.example.com", 443),
                      ("127.0.0.1:8080", "127.0.0.1", 8080), ("[::1]:8443", "::1", 8443), ("::1", "::1", nil)] as [(String, String, Int?)])
    func parses(text: String, host: String, port: Int?) throws {
        let allowance = try NetworkAllowance.parse(text)
        #expect(allowance.host == host)
        #expect(allowance.port == port)
    }

    @Test("bad entries are refused, naming the value", arguments: ["", ":443", "example.com:0", "example.com:65536",
                                                                   "example.com:x", "exa mple.com", "[::1", "[::1]x"])
    func refusesBadEntries(text: String) {
        #expect(throws: ConfigurationError.self) { try NetworkAllowance.parse(text) }
        do {
            _ = try NetworkAllowance.parse(text)
        } catch {
            #expect(error.description.contains("\"\(text)\""))
        }
    }

    @Test("with entries only they pass; without, anything but the host's own addresses")
    func policy() {
        let open = NetworkPolicy()
        #expect(open.refusal(host: "api.example.com", port: 443) == nil)
        #expect(open.refusal(host: "api.example.com", address: "93.184.216.34", hostLocal: false) == nil)
        #expect(open.refusal(host: "127.0.0.1", address: "127.0.0.1", hostLocal: true) != nil)
        let listed = NetworkPolicy(allowances: [NetworkAllowance(host: "api.example.com", port: 443),
                                                NetworkAllowance(host: "127.0.0.1", port: 8080)])
        #expect(listed.refusal(host: "API.example.com", port: 443) == nil)
        #expect(listed.refusal(host: "api.example.com", port: 80) != nil)
        #expect(listed.refusal(host: "other.example.com", port: 443) != nil)
        #expect(listed.refusal(host: "127.0.0.1", address: "127.0.0.1", hostLocal: true) == nil)
        // A listed name that resolves to the host's loopback does not open it.
        #expect(listed.refusal(host: "api.example.com", address: "127.0.0.1", hostLocal: true) != nil)
    }

    @Test("addresses that are not public are told apart from public ones",
          arguments: [("127.0.0.1", true), ("10.1.2.3", true), ("172.16.0.1", true), ("172.32.0.1", false), ("192.168.1.1", true),
                      ("169.254.1.1", true), ("100.64.0.1", true), ("0.0.0.0", true), ("224.0.0.1", true), ("93.184.216.34", false),
                      ("::1", true), ("::", true), ("fe80::1", true), ("fd00::1", true), ("::ffff:127.0.0.1", true),
                      ("::ffff:93.184.216.34", false), ("2606:2800:220:1::1", false), ("not an address", true)])
    func nonPublicAddresses(address: String, nonPublic: Bool) {
        #expect(NetworkPolicy.isNonPublic(address) == nonPublic)
    }
}
