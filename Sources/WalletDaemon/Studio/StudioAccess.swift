import Foundation
import WalletHostRuntime

/// Who may drive the page: a request must name this server in its `Host` header (a page of
/// another site that a DNS name rebinds to this address names that site) and carry the token
/// that is in the URL the daemon printed (others on the machine can reach the port, not the
/// token). Pure: given a request, it says whether it passes and why not.
public struct StudioAccess: Sendable {
    /// The secret the page sends on every request.
    public let token: String
    /// `Host` header values accepted: the bound address and port, and `localhost:PORT` on loopback.
    public let allowedHosts: Set<String>

    /// The header that carries the token on `POST /rpc`.
    public static let tokenHeader = "X-Wallet-Token"

    /// - Parameters:
    ///   - host: the numeric address the server is bound to.
    ///   - port: its port.
    ///   - token: the secret (``makeToken()`` for a fresh one).
    public init(host: String, port: UInt16, token: String) {
        self.token = token
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        var hosts: Set<String> = [authority]
        if Self.isLoopback(host) { hosts.formUnion(["localhost:\(port)", "127.0.0.1:\(port)", "[::1]:\(port)"]) }
        allowedHosts = hosts
    }

    /// 128 random bits as 32 hex digits, from the system's generator.
    public static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }.joined()
    }

    /// Whether `host` is a loopback address (127.0.0.0/8 or ::1).
    public static func isLoopback(_ host: String) -> Bool {
        host == "::1" || host.hasPrefix("127.")
    }

    /// Why `request` is refused (a 403's message), or nil when it may proceed.
    /// - Parameter tokenInQuery: the token may come as `?token=` (the page itself and its event
    ///   stream, which a browser fetches without custom headers) instead of the header.
    public func refusal(_ request: HTTPRequest, tokenInQuery: Bool) -> String? {
        guard let host = request.header("Host") else { return "the request has no Host header" }
        guard allowedHosts.contains(host.lowercased()) else {
            return "Host \(host.prefix(80)) is not this server (\(allowedHosts.sorted().joined(separator: ", "))): refused against DNS rebinding"
        }
        let sent = request.header(Self.tokenHeader) ?? (tokenInQuery ? request.queryValue("token") : nil)
        guard let sent else { return "no token: open the URL wallet-host printed, which carries it" }
        guard Self.constantTimeEqual(sent, token) else { return "wrong token: open the URL wallet-host printed" }
        return nil
    }

    /// Compares without stopping at the first difference, so timing does not tell how much of a guess was right.
    static func constantTimeEqual(_ left: String, _ right: String) -> Bool {
        let a = Array(left.utf8)
        let b = Array(right.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
