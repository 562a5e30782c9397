import Foundation

/// What network a sandboxed extension has (`--network`).
///
/// The default is ``proxy``: issuers' extensions call their servers (URLSession), so egress must
/// stay possible, but only through the host, where each connection is an event on the timeline
/// and an allow list (`--allow-network`) can bound it. Nothing of the host's network namespace
/// is shared: not its abstract Unix sockets (a session bus, another issuer's listener), not its
/// loopback services, not its interfaces.
public enum NetworkMode: String, Sendable, CaseIterable, Equatable {
    /// A network namespace of its own with only `lo`: no connection leaves the sandbox.
    case none
    /// A network namespace of its own with only `lo`, where the host's egress proxy listens on
    /// 127.0.0.1:3128 (``EgressProxy``); `http_proxy` and `https_proxy` point there.
    case proxy
    /// The host's network namespace, as before this option existed (abstract sockets still
    /// closed by Landlock where the kernel has its scopes).
    case host

    /// Where the proxy listens inside the extension's namespace.
    public static let proxyPort = 3128

    /// Parses `none`, `proxy` or `host`.
    /// - Throws: ``ConfigurationError`` naming the value and the choices.
    public static func parse(_ text: String) throws(ConfigurationError) -> NetworkMode {
        guard let mode = NetworkMode(rawValue: text) else {
            throw ConfigurationError("--network expects none, proxy or host, not \"\(text)\"")
        }
        return mode
    }

    /// The environment that points an extension's HTTP clients (libcurl under URLSession, Python's
    /// urllib, curl) at the proxy. `no_proxy` is left unset: the extension's own loopback holds
    /// nothing but the proxy, so a backend on the host's 127.0.0.1 is reached through it too.
    public static var proxyEnvironment: [String: String] {
        let address = "http://127.0.0.1:\(proxyPort)"
        return ["http_proxy": address, "https_proxy": address, "HTTP_PROXY": address, "HTTPS_PROXY": address]
    }
}
