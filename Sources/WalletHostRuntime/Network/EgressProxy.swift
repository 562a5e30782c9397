import CWalletPoll
import CWalletSpawn
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Whose connections a listener takes: one extension process, its policy and where its events go.
public struct EgressSession: Sendable {
    public var policy: NetworkPolicy
    public var events: any HostEventSink
    public var bundleIdentifier: String?

    public init(policy: NetworkPolicy = NetworkPolicy(), events: any HostEventSink = NullEventSink(), bundleIdentifier: String? = nil) {
        self.policy = policy
        self.events = events
        self.bundleIdentifier = bundleIdentifier
    }
}

/// The host's egress proxy for `--network proxy`: one thread, one epoll set, for every extension.
///
/// Each extension's network namespace holds a socket listening on 127.0.0.1:3128 (made in the
/// namespace at spawn, handed to the host: ``serve(listener:session:pid:)``). The proxy accepts
/// there and speaks HTTP/1.1 as a forward proxy: `CONNECT host:port` (a tunnel: HTTPS, what
/// libcurl sends for `https_proxy`) and absolute-form requests (`GET http://host:port/path`,
/// forwarded with `Connection: close`). It checks the destination against the extension's
/// ``NetworkPolicy``, resolves it off the proxy's thread, connects from the host's own network
/// namespace, and relays bytes both ways. Each connection, allowed or refused, is one
/// `networkConnection` event once it is over. Refusals are answered 403 (policy), 400 (not a
/// proxy request), 502 (could not connect), 503 (too many connections), 504 (connect timed out).
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

    /// The proxy every launch shares; nil when its thread or epoll set could not be made.
    public static let shared: EgressProxy? = EgressProxy()

    private let epoll: Int32
    private let wakeup: Int32
    private let inbox = Mutex<[Command]>([])

    enum Command {
        case serve(listener: Int32, session: EgressSession, pid: Int32)
        case close(listener: Int32)
        case resolved(connection: Int, addresses: [ResolvedAddress], error: String?)
    }

    private init?() {
        epoll = wh_poll_create()
        wakeup = wh_poll_wakeup_create()
        guard epoll >= 0, wakeup >= 0, wh_poll_add(epoll, wakeup, WH_POLL_IN) == 0 else { return nil }
        let epoll = epoll, wakeup = wakeup
        let started = DetachedThread.start(name: "egress-proxy") { [self] in
            ProxyLoop(proxy: self, epoll: epoll, wakeup: wakeup).run()
        }
        guard started == 0 else { return nil }
    }

    /// Takes `listener` (a listening socket in an extension's namespace; the proxy owns it now
    /// and closes it with ``close(listener:)``) and serves the connections made there.
    public func serve(listener: Int32, session: EgressSession, pid: Int32) {
        send(.serve(listener: listener, session: session, pid: pid))
    }

    /// Stops serving `listener` and ends its open connections (the extension's process is gone).
    public func close(listener: Int32) {
        send(.close(listener: listener))
    }

    func send(_ command: Command) {
        inbox.withLock { $0.append(command) }
        wh_poll_wakeup_signal(wakeup)
    }

    func takeCommands() -> [Command] {
        inbox.withLock { commands in
            defer { commands.removeAll() }
            return commands
        }
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
