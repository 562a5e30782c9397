import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One `--allow-network HOST[:PORT]` entry: a destination the egress proxy connects extensions to.
/// `HOST` is a name (matched without case) or an address (`[::1]` for IPv6 with a port); without
/// `PORT` every port of the host is allowed.
public struct NetworkAllowance: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int?

    public init(host: String, port: Int? = nil) {
        self.host = host.lowercased()
        self.port = port
    }

    public var description: String {
        let shown = host.contains(":") ? "[\(host)]" : host
        return port.map { "\(shown):\($0)" } ?? shown
    }

    /// Parses `example.com`, `example.com:443`, `127.0.0.1:8080`, `[::1]:8443`, `::1`.
    /// - Throws: ``ConfigurationError`` naming the value.
    public static func parse(_ text: String) throws(ConfigurationError) -> NetworkAllowance {
        let problem = ConfigurationError("--allow-network expects HOST or HOST:PORT (a port from 1 to 65535), "
                                         + "such as api.example.com:443 or 127.0.0.1:8080, not \"\(text)\"")
        var host = text
        var portText: String?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw problem }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw problem }
                portText = String(rest.dropFirst())
            }
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            host = String(text[..<colon])
            portText = String(text[text.index(after: colon)...])
        }
        let allowedCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:_")
        guard !host.isEmpty, host.utf8.count <= 253, host.unicodeScalars.allSatisfy(allowedCharacters.contains) else { throw problem }
        var port: Int?
        if let portText {
            guard let value = Int(portText), (1...65535).contains(value), String(value) == portText else { throw problem }
            port = value
        }
        return NetworkAllowance(host: host, port: port)
    }

    /// Whether this entry allows `host` (as the extension named it) at `port`.
    public func allows(host other: String, port otherPort: Int) -> Bool {
        host == other.lowercased() && (port == nil || port == otherPort)
    }
}

/// Which destinations the egress proxy connects an extension to.
///
/// With no entries, any public destination (checked after resolution): not the host's own
/// addresses (its interfaces, loopback, link-local), not private or unique-local networks
/// (RFC 1918, RFC 6598, fc00::/7), not multicast: egress is logged, not bounded. With entries,
/// only those; a non-public address only when the entry names it as an address or `localhost`
/// (so that a name that resolves to 127.0.0.1 or 10.0.0.5 does not open what lies there).
public struct NetworkPolicy: Sendable, Equatable {
    public var allowances: [NetworkAllowance]

    public init(allowances: [NetworkAllowance] = []) {
        self.allowances = allowances
    }

    /// Why `host:port` is refused before resolution, or nil.
    public func refusal(host: String, port: Int) -> String? {
        guard !allowances.isEmpty else { return nil }
        return allowances.contains { $0.allows(host: host, port: port) } ? nil
            : "\(NetworkAllowance(host: host, port: port)) is not in --allow-network (\(allowances.map(\.description).joined(separator: ", ")))"
    }

    /// Why the resolved `address` of `host` is refused, or nil.
    public func refusal(host: String, address: String, hostLocal: Bool) -> String? {
        guard hostLocal else { return nil }
        let namedLocal = ["localhost", "127.0.0.1", "::1"].contains(host.lowercased()) || host.hasPrefix("127.") || host == address
        if !allowances.isEmpty, namedLocal { return nil }
        return "\(address) is the host's own address or a private one: allow it by address with --allow-network "
            + "\(address.contains(":") ? "[\(address)]" : address):PORT"
    }

    /// Whether an address (as text) is not a public one: loopback, "this network", link-local,
    /// private (RFC 1918), shared (RFC 6598), unique-local (fc00::/7), multicast or reserved,
    /// IPv4-mapped ones included. Text that is no address counts as non-public.
    public static func isNonPublic(_ text: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        func nonPublic(_ first: UInt8, _ second: UInt8) -> Bool {
            first == 127 || first == 0 || (first == 169 && second == 254) || first >= 224 || first == 10
                || (first == 172 && (16...31).contains(second)) || (first == 192 && second == 168)
                || (first == 100 && (64...127).contains(second))
        }
        if inet_pton(AF_INET, text, &v4) == 1 {
            let bytes = withUnsafeBytes(of: v4) { Array($0) }
            return nonPublic(bytes[0], bytes[1])
        }
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return true }
        let bytes = withUnsafeBytes(of: v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff { return nonPublic(bytes[12], bytes[13]) }
        let loopbackOrUnspecified = bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] <= 1
        let linkLocal = bytes[0] == 0xfe && bytes[1] & 0xc0 == 0x80
        let uniqueLocal = bytes[0] & 0xfe == 0xfc
        return loopbackOrUnspecified || linkLocal || uniqueLocal || bytes[0] == 0xff
    }
}
