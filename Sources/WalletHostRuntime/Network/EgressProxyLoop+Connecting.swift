import CWalletPoll
import CWalletSpawn
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The proxy loop: resolving the requested host and connecting to it, within the policy.
extension ProxyLoop {
    func resolve(_ connection: Connection) {
        let host = connection.host, port = connection.port, id = connection.id
        if let literal = Self.literal(host, port: port) {
            resolved(connection, addresses: [literal], error: nil)
            return
        }
        // getaddrinfo blocks (DNS): off the proxy's thread, so that one slow name stalls nobody else.
        let proxy = self.proxy
        let started = DetachedThread.start(name: "egress-resolve", stackBytes: 256 << 10) {
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            hints.ai_flags = AI_ADDRCONFIG
            var list: UnsafeMutablePointer<addrinfo>?
            let status = getaddrinfo(host, String(port), &hints, &list)
            guard status == 0, let first = list else {
                proxy.send(.resolved(connection: id, addresses: [], error: "cannot resolve \(host): \(String(cString: gai_strerror(status)))"))
                return
            }
            defer { freeaddrinfo(list) }
            var addresses: [ResolvedAddress] = []
            var cursor: UnsafeMutablePointer<addrinfo>? = first
            while let entry = cursor, addresses.count < 8 {
                if let address = Self.resolvedAddress(entry.pointee.ai_addr, length: entry.pointee.ai_addrlen) { addresses.append(address) }
                cursor = entry.pointee.ai_next
            }
            proxy.send(.resolved(connection: id, addresses: addresses, error: addresses.isEmpty ? "no address for \(host)" : nil))
        }
        if started != 0 { resolved(connection, addresses: [], error: "cannot start a thread to resolve \(host)") }
    }

    static func literal(_ host: String, port: Int) -> ResolvedAddress? {
        var storage = sockaddr_storage()
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr = v4
            withUnsafeBytes(of: address) { source in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
            }
            return withUnsafePointer(to: storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { resolvedAddress($0, length: socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        if inet_pton(AF_INET6, host, &v6) == 1 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            address.sin6_addr = v6
            withUnsafeBytes(of: address) { source in
                withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
            }
            return withUnsafePointer(to: storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { resolvedAddress($0, length: socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        }
        return nil
    }

    static func resolvedAddress(_ pointer: UnsafePointer<sockaddr>?, length: socklen_t) -> ResolvedAddress? {
        guard let pointer, Int(length) <= MemoryLayout<sockaddr_storage>.size else { return nil }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: UnsafeRawBufferPointer(start: pointer, count: Int(length))) }
        var text = [CChar](repeating: 0, count: 64)
        let family = Int32(pointer.pointee.sa_family)
        if family == AF_INET {
            var address = UnsafeRawPointer(pointer).load(as: sockaddr_in.self).sin_addr
            _ = inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
        } else if family == AF_INET6 {
            var address = UnsafeRawPointer(pointer).load(as: sockaddr_in6.self).sin6_addr
            _ = inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
        } else {
            return nil
        }
        let hostLocal = NetworkPolicy.isNonPublic(String(cString: text))
        return ResolvedAddress(storage: storage, length: length, text: String(cString: text), hostLocal: hostLocal)
    }

    /// The addresses of the host's own interfaces (getifaddrs), as text: a destination there is
    /// the host itself, whatever range it is in.
    static func hostAddresses() -> Set<String> {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var addresses = Set<String>()
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            if let address = entry.pointee.ifa_addr {
                let family = Int32(address.pointee.sa_family)
                let length = family == AF_INET ? MemoryLayout<sockaddr_in>.size : MemoryLayout<sockaddr_in6>.size
                if family == AF_INET || family == AF_INET6, let resolved = resolvedAddress(address, length: socklen_t(length)) {
                    addresses.insert(resolved.text)
                }
            }
            cursor = entry.pointee.ifa_next
        }
        return addresses
    }

    func resolved(_ connection: Connection, addresses: [ResolvedAddress], error: String?) {
        guard let address = addresses.first else {
            refuse(connection, status: "502 Bad Gateway", reason: error ?? "no address for \(connection.host)")
            return
        }
        connection.address = address.text
        let ownAddresses = Self.hostAddresses()
        for candidate in addresses {
            if let refusal = connection.listener.session.policy.refusal(host: connection.host, address: candidate.text,
                                                                        hostLocal: candidate.hostLocal || ownAddresses.contains(candidate.text)) {
                connection.address = candidate.text
                refuse(connection, status: "403 Forbidden", reason: refusal)
                return
            }
        }
        let fd = socket(Int32(address.storage.ss_family), Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            refuse(connection, status: "502 Bad Gateway", reason: "socket: \(String(cString: strerror(errno)))")
            return
        }
        var storage = address.storage
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, address.length) }
        }
        connection.upstream = fd
        endpoints[fd] = .upstream(connection)
        if result != 0 && errno != EINPROGRESS {
            let reason = String(cString: strerror(errno))
            watch(fd, 0, add: true)
            connection.upstreamWatched = true
            refuse(connection, status: "502 Bad Gateway", reason: "connect to \(address.text): \(reason)")
            return
        }
        connection.phase = .connecting
        watch(fd, WH_POLL_OUT, add: true)
        connection.upstreamWatched = true
    }

    func upstreamReady(_ connection: Connection, flags: UInt32) {
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
            connection.deadline = nil
            updateInterest(connection)
            flushToUpstream(connection)
            flushToClient(connection)
            return
        }
        if flags & WH_POLL_OUT != 0 { flushToUpstream(connection) }
        guard connections[connection.id] != nil else { return }
        if flags & (WH_POLL_IN | WH_POLL_HUP | WH_POLL_ERR) != 0 {
            relay(from: connection.upstream, connection: connection, toUpstream: false)
        }
    }
}
