import Foundation
import Synchronization

/// Whose connections a listener takes: one extension process, its policy, where its events go,
/// and the loop that serves them.
public struct EgressSession: Sendable {
    public var policy: NetworkPolicy
    public var events: any HostEventSink
    public var bundleIdentifier: String?
    /// The loop that owns the listener, its connections and their timeouts (on its clock); nil:
    /// the host's shared loop (``HostLoop/shared()``), as for a one-shot `call` or a containing app.
    public var loop: HostLoop?

    public init(policy: NetworkPolicy = NetworkPolicy(), events: any HostEventSink = NullEventSink(), bundleIdentifier: String? = nil,
                loop: HostLoop? = nil) {
        self.policy = policy
        self.events = events
        self.bundleIdentifier = bundleIdentifier
        self.loop = loop
    }
}

/// The host's egress proxy for `--network proxy`, served on the host loop: no thread of its own.
///
/// Each extension's network namespace holds a socket listening on 127.0.0.1:3128 (made in the
/// namespace at spawn, handed to the host: ``serve(listener:session:pid:)``). The proxy accepts
/// there and speaks HTTP/1.1 as a forward proxy: `CONNECT host:port` (a tunnel: HTTPS, what
/// libcurl sends for `https_proxy`) and absolute-form requests (`GET http://host:port/path`,
/// forwarded with `Connection: close`). It checks the destination against the extension's
/// ``NetworkPolicy``, resolves it off the loop (``NameResolver``), connects without blocking from
/// the host's own network namespace, and relays bytes both ways. Each connection, allowed or
/// refused, is one `networkConnection` event once it is over. Refusals are answered 403 (policy),
/// 400 (not a proxy request), 502 (could not connect), 503 (too many connections), 504 (connect
/// timed out).
///
/// The listener, its connections and their timeouts live on the session's ``HostLoop``
/// (``EgressSession/loop``), their times on its clock: one ``ProxyLoop`` per loop.
///
/// Bounded per ``Limits``: what one extension can hold in the host is its connections times two
/// buffers and a header.
public final class EgressProxy: Sendable {
    /// The proxy's bounds.
    public enum Limits {
        /// Open connections one extension process may have through the proxy; past it, 503.
        public static let connectionsPerProcess = 32
        /// Bytes buffered in each direction of one connection (reading stops while it is full).
        public static let bufferBytes = 64 << 10
        /// The longest request header (request line and headers) the proxy reads; past it, 400.
        public static let headerBytes = 8 << 10
        /// How long the extension has to send its whole request header.
        public static let headerTimeout: Duration = .seconds(10)
        /// How long resolving and connecting to the destination may take; past it, 504.
        public static let connectTimeout: Duration = .seconds(10)
    }

    /// The proxy every launch shares (always there: its state is made per loop, on first use).
    public static let shared: EgressProxy? = EgressProxy()

    /// Listener -> the proxy state serving it (nil: no loop could be had; the listener is only
    /// closed by ``close(listener:)``).
    private let serving = Mutex<[Int32: ProxyLoop?]>([:])

    private init() {}

    /// Takes `listener` (a listening socket in an extension's namespace; the proxy owns it now
    /// and closes it with ``close(listener:)``) and serves the connections made there on the
    /// session's loop. When no loop can be had the listener is kept unserved (the extension's
    /// connections wait, then time out) until it is closed.
    public func serve(listener: Int32, session: EgressSession, pid: Int32) {
        let proxyLoop = try? ProxyLoop.on(session.loop)
        serving.withLock { $0[listener] = .some(proxyLoop) }
        proxyLoop?.loop.execute { proxyLoop?.serve(listener: listener, session: session, pid: pid) }
    }

    /// Stops serving `listener` and ends its open connections (the extension's process is gone).
    public func close(listener: Int32) {
        guard let entry = serving.withLock({ $0.removeValue(forKey: listener) }) else { return }
        guard let proxyLoop = entry else {
            SystemCall.close(listener)
            return
        }
        proxyLoop.loop.execute { proxyLoop.close(listener: listener) }
    }
}

extension HostEvent.NetworkConnection {
    /// One sentence: `CONNECT api.example.com:443 (93.184.216.34): 812 bytes sent, 5.2 KB received in 140 ms`.
    public var summary: String {
        let destination = (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        let at = address.map { $0 == host ? "" : " (\($0))" } ?? ""
        if allowed {
            let closedEarly = reason.map { "; \($0)" } ?? ""
            return "\(method) \(destination)\(at): \(bytesSent) bytes sent, \(bytesReceived) received in "
                + "\(HumanReadable.milliseconds(milliseconds))\(closedEarly)"
        }
        return "\(method) \(destination)\(at) refused: \(reason ?? "refused")"
    }
}
