import CWalletPoll
import CWalletSpawn
import Foundation
#if canImport(Glibc)
import Glibc
#endif

// The egress proxy's loop (``EgressProxy``): its state lives on its one thread, and only there.

/// An address a name resolved to, as a socket address and as text.
struct ResolvedAddress: Sendable {
    var storage: sockaddr_storage
    var length: socklen_t
    var text: String
    /// Not a public address: loopback, link-local, private or unique-local, multicast, reserved.
    var hostLocal: Bool
}

/// The proxy's state, touched only by its thread.
final class ProxyLoop {
    let proxy: EgressProxy
    let epoll: Int32
    let wakeup: Int32

    final class Listener {
        let fd: Int32
        let session: EgressSession
        let pid: Int32
        var connections: Set<Int> = []
        init(fd: Int32, session: EgressSession, pid: Int32) {
            self.fd = fd
            self.session = session
            self.pid = pid
        }
    }

    enum Phase { case header, resolving, connecting, relaying }

    final class Connection {
        let id: Int
        let listener: Listener
        let client: Int32
        var upstream: Int32 = -1
        var phase = Phase.header
        var header: [UInt8] = []
        var toUpstream: [UInt8] = []
        var toClient: [UInt8] = []
        var clientDone = false
        var upstreamDone = false
        var method = "?"
        var host = ""
        var port = 0
        var address: String?
        var allowed = false
        var reason: String?
        var bytesSent = 0
        var bytesReceived = 0
        let opened = ContinuousClock.now
        var deadline: ContinuousClock.Instant?
        /// Refused: only the error page is left to write.
        var closing = false
        /// Whether each socket is in the epoll set.
        var clientWatched = true
        var upstreamWatched = false
        init(id: Int, listener: Listener, client: Int32) {
            self.id = id
            self.listener = listener
            self.client = client
            deadline = .now + EgressProxy.Limits.headerTimeout
        }
    }

    enum Endpoint {
        case listener(Listener)
        case client(Connection)
        case upstream(Connection)
    }

    var endpoints: [Int32: Endpoint] = [:]
    var listeners: [Int32: Listener] = [:]
    var connections: [Int: Connection] = [:]
    var nextID = 1
    var buffer = [UInt8](repeating: 0, count: EgressProxy.Limits.bufferBytes)

    init(proxy: EgressProxy, epoll: Int32, wakeup: Int32) {
        self.proxy = proxy
        self.epoll = epoll
        self.wakeup = wakeup
    }

    func run() {
        var ready = [Int32](repeating: -1, count: 64)
        var events = [UInt32](repeating: 0, count: 64)
        while true {
            let timeout: Int32 = connections.values.contains { $0.deadline != nil } ? 200 : -1
            let count = wh_poll_wait(epoll, &ready, &events, Int32(ready.count), timeout)
            if count < 0 && errno != EINTR { return }
            for index in 0..<max(0, Int(count)) {
                let fd = ready[index]
                let flags = events[index]
                if fd == wakeup {
                    wh_poll_wakeup_drain(wakeup)
                    for command in proxy.takeCommands() { handle(command) }
                    continue
                }
                switch endpoints[fd] {
                case .listener(let listener): accept(on: listener)
                case .client(let connection): clientReady(connection, flags: flags)
                case .upstream(let connection): upstreamReady(connection, flags: flags)
                case nil: continue
                }
            }
            let now = ContinuousClock.now
            for connection in connections.values {
                guard connections[connection.id] != nil, let deadline = connection.deadline, deadline <= now else { continue }
                if connection.closing {
                    finish(connection)
                } else if connection.phase == .header {
                    refuse(connection, status: "408 Request Timeout", reason: "no complete request header within "
                           + "\(EgressProxy.Limits.headerTimeout)")
                } else {
                    refuse(connection, status: "504 Gateway Timeout", reason: "no connection within \(EgressProxy.Limits.connectTimeout)")
                }
            }
        }
    }

    // MARK: Commands

    func handle(_ command: EgressProxy.Command) {
        switch command {
        case .serve(let fd, let session, let pid):
            let listener = Listener(fd: fd, session: session, pid: pid)
            listeners[fd] = listener
            endpoints[fd] = .listener(listener)
            watch(fd, WH_POLL_IN, add: true)
        case .close(let fd):
            guard let listener = listeners.removeValue(forKey: fd) else { return }
            endpoints[fd] = nil
            _ = wh_poll_remove(epoll, fd)
            SystemCall.close(fd)
            for id in listener.connections {
                if let connection = connections[id] { finish(connection) }
            }
        case .resolved(let id, let addresses, let error):
            guard let connection = connections[id], connection.phase == .resolving else { return }
            resolved(connection, addresses: addresses, error: error)
        }
    }

    func watch(_ fd: Int32, _ events: UInt32, add: Bool = false) {
        _ = add ? wh_poll_add(epoll, fd, events) : wh_poll_modify(epoll, fd, events)
    }
}
