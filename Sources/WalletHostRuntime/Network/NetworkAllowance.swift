import Foundation

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
/// With no entries, any destination except the host's own (loopback, unspecified, link-local
/// and multicast addresses, checked after resolution): egress is logged, not bounded. With
/// entries, only those; a host-local address only when the entry names one (so that a name
/// that resolves to 127.0.0.1 does not open the host's loopback services).
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
        return "\(address) is the host's own address: allow it by name with --allow-network \(host.contains(":") ? "[\(host)]" : host):PORT"
    }
}
