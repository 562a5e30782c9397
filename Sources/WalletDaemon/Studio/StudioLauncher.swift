import Foundation
import Synchronization
import WalletWire

/// The daemon's studio page, started by `serve --http` or on demand: `studio.open` (what
/// `wallet-host studio` calls) starts it on loopback, on a port the kernel picks, unless it
/// runs already, and answers its URL. One page server per daemon.
public final class StudioLauncher: Sendable {
    /// `studio.open`'s answer.
    public struct Opened: Codable, Sendable {
        /// The page's address with its token.
        public var url: String
    }

    /// The method `wallet-host studio` calls.
    public static let openMethod = "studio.open"

    private let daemon: DaemonServer
    private let running = Mutex<StudioServer?>(nil)

    /// Registers `studio.open` on `daemon`.
    public init(daemon: DaemonServer) {
        self.daemon = daemon
        daemon.register(Self.openMethod, answeringAtOnce: { [self] _ in
            Opened(url: try start(host: "127.0.0.1", port: 0).url)
        })
    }

    /// The page server, started on `host:port` unless one runs already (which is returned as it is).
    /// - Throws: when the address cannot be listened on.
    @discardableResult
    public func start(host: String, port: UInt16) throws -> StudioServer {
        try running.withLock { running in
            if let running { return running }
            let server = try StudioServer(daemon: daemon, host: host, port: port)
            try server.start()
            running = server
            return server
        }
    }

    /// The page server, if it runs.
    public var server: StudioServer? { running.withLock { $0 } }
}
