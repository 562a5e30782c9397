import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The proxy loop: resolving the requested host and connecting to it, within the policy.
extension ProxyLoop {
    /// Resolves the connection's host: a literal address at once, a name by ``NameResolver``
    /// (getaddrinfo blocks on DNS: never on the loop), whose answer comes back to the loop.
    func resolve(_ connection: Connection) {
        if let literal = NameResolver.literal(connection.host, port: connection.port) {
            resolved(connection, addresses: [literal], error: nil)
            return
        }
        let id = connection.id
        NameResolver.resolve(host: connection.host, port: connection.port) { [self] addresses, error in
            loop.execute { [self] in
                guard let connection = connections[id], connection.phase == .resolving else { return }
                resolved(connection, addresses: addresses, error: error)
            }
        }
    }

    /// The destination's addresses are known: each must pass the policy, then the first is connected to.
    func resolved(_ connection: Connection, addresses: [ResolvedAddress], error: String?) {
        guard let address = addresses.first else {
            refuse(connection, status: "502 Bad Gateway", reason: error ?? "no address for \(connection.host)")
            return
        }
        connection.address = address.text
        let ownAddresses = NameResolver.hostAddresses()
        for candidate in addresses {
            if let refusal = connection.listener.session.policy.refusal(host: connection.host, address: candidate.text,
                                                                        hostLocal: candidate.hostLocal || ownAddresses.contains(candidate.text)) {
                connection.address = candidate.text
                refuse(connection, status: "403 Forbidden", reason: refusal)
                return
            }
        }
        connect(connection, to: address)
    }

    /// Connects to `address` without blocking; the loop says when the connection is made (writable).
    private func connect(_ connection: Connection, to address: ResolvedAddress) {
        let fd = socket(Int32(address.storage.ss_family), Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            refuse(connection, status: "502 Bad Gateway", reason: "socket: \(String(cString: strerror(errno)))")
            return
        }
        var storage = address.storage
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, address.length) }
        }
        let failure = result == 0 ? 0 : errno
        connection.upstream = fd
        endpoints[fd] = .upstream(connection)
        if failure != 0 && failure != EINPROGRESS {
            refuse(connection, status: "502 Bad Gateway", reason: "connect to \(address.text): \(String(cString: strerror(failure)))")
            return
        }
        connection.phase = .connecting
        connection.upstreamWatched = watch(fd, .writable)
        if !connection.upstreamWatched {
            refuse(connection, status: "502 Bad Gateway", reason: "the host cannot watch the connection to \(address.text) (epoll's limits)")
        }
    }

    func upstreamReady(_ connection: Connection, events: HostLoop.Events) {
        if connection.phase == .connecting {
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            _ = getsockopt(connection.upstream, SOL_SOCKET, SO_ERROR, &error, &length)
            guard error == 0 else {
                refuse(connection, status: "502 Bad Gateway",
                       reason: "connect to \(connection.address ?? connection.host): \(String(cString: strerror(error)))")
                return
            }
            connection.phase = .relaying
            connection.allowed = true
            disarm(connection)
            updateInterest(connection)
            flushToUpstream(connection)
            flushToClient(connection)
            return
        }
        if events.contains(.writable) { flushToUpstream(connection) }
        guard connections[connection.id] != nil else { return }
        if !events.isDisjoint(with: [.readable, .hangUp, .error]) {
            relay(from: connection.upstream, connection: connection, toUpstream: false)
        }
    }
}
