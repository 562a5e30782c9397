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
            Glibc.close(fd)
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

    // MARK: Accepting and reading the request

    func accept(on listener: Listener) {
        while true {
            let fd = wh_poll_accept(listener.fd)
            guard fd >= 0 else { return }
            let connection = Connection(id: nextID, listener: listener, client: fd)
            nextID += 1
            connections[connection.id] = connection
            listener.connections.insert(connection.id)
            endpoints[fd] = .client(connection)
            watch(fd, WH_POLL_IN, add: true)
            if listener.connections.count > EgressProxy.Limits.connectionsPerProcess {
                refuse(connection, status: "503 Service Unavailable",
                       reason: "more than \(EgressProxy.Limits.connectionsPerProcess) connections open at once")
            }
        }
    }

    func clientReady(_ connection: Connection, flags: UInt32) {
        if connection.closing {
            if flags & (WH_POLL_HUP | WH_POLL_ERR) != 0 {
                finish(connection)
                return
            }
            if flags & WH_POLL_OUT != 0 { flushToClient(connection) }
            // What the extension still sends is read and dropped until it closes (or the page's
            // time is up): closing with unread bytes would reset the connection, page and all.
            if flags & WH_POLL_IN != 0, connections[connection.id] != nil {
                let count = buffer.withUnsafeMutableBytes { recv(connection.client, $0.baseAddress, $0.count, 0) }
                if count == 0 || (count < 0 && errno != EAGAIN && errno != EINTR) { finish(connection) }
            }
            return
        }
        if flags & WH_POLL_OUT != 0 { flushToClient(connection) }
        guard connections[connection.id] != nil else { return }
        if flags & (WH_POLL_IN | WH_POLL_HUP | WH_POLL_ERR) != 0 {
            switch connection.phase {
            case .header: readHeader(connection)
            case .relaying: relay(from: connection.client, connection: connection, toUpstream: true)
            case .resolving, .connecting:
                // Only a hang-up matters before the destination answers.
                if flags & (WH_POLL_HUP | WH_POLL_ERR) != 0 {
                    connection.reason = connection.reason ?? "the extension closed the connection first"
                    finish(connection)
                }
            }
        }
    }

    func readHeader(_ connection: Connection) {
        let room = EgressProxy.Limits.headerBytes + 1 - connection.header.count
        let count = buffer.withUnsafeMutableBytes { recv(connection.client, $0.baseAddress, min(room, $0.count), 0) }
        if count < 0 && (errno == EAGAIN || errno == EINTR) { return }
        guard count > 0 else {
            connection.reason = "the extension closed the connection before its request"
            finish(connection)
            return
        }
        connection.header += buffer[0..<count]
        guard let end = Self.headerEnd(connection.header) else {
            if connection.header.count > EgressProxy.Limits.headerBytes {
                refuse(connection, status: "431 Request Header Fields Too Large",
                       reason: "a request header over \(EgressProxy.Limits.headerBytes) bytes")
            }
            return
        }
        let headerText = String(decoding: connection.header[..<end], as: UTF8.self)
        let rest = Array(connection.header[(end + 4)...])
        var lines = headerText.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1.") else {
            refuse(connection, status: "400 Bad Request", reason: "not an HTTP/1.1 proxy request")
            return
        }
        connection.method = requestLine[0]
        let target = requestLine[1]
        if connection.method == "CONNECT" {
            guard let (host, port) = Self.authority(target, defaultPort: nil) else {
                refuse(connection, status: "400 Bad Request", reason: "CONNECT to \"\(target.prefix(100))\", not HOST:PORT")
                return
            }
            connection.host = host
            connection.port = port
            connection.toUpstream = rest
            connection.toClient = Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8)
        } else {
            guard target.lowercased().hasPrefix("http://") else {
                refuse(connection, status: "400 Bad Request",
                       reason: "\(connection.method) \(target.prefix(100)): only CONNECT and http:// requests are proxied")
                return
            }
            let afterScheme = target.dropFirst(7)
            let slash = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
            guard let (host, port) = Self.authority(String(afterScheme[..<slash]), defaultPort: 80) else {
                refuse(connection, status: "400 Bad Request", reason: "no host in \(target.prefix(100))")
                return
            }
            connection.host = host
            connection.port = port
            let path = slash == afterScheme.endIndex ? "/" : String(afterScheme[slash...])
            var forwarded = "\(connection.method) \(path) \(requestLine[2])\r\n"
            for line in lines where !line.isEmpty {
                let name = line.prefix { $0 != ":" }.lowercased()
                if name == "connection" || name == "keep-alive" || name.hasPrefix("proxy-") { continue }
                forwarded += line + "\r\n"
            }
            forwarded += "Connection: close\r\n\r\n"
            connection.toUpstream = Array(forwarded.utf8) + rest
        }
        connection.header = []
        // What the extension sent so far counts (a plain request's header as forwarded).
        connection.bytesSent = connection.toUpstream.count
        if let refusal = connection.listener.session.policy.refusal(host: connection.host, port: connection.port) {
            refuse(connection, status: "403 Forbidden", reason: refusal)
            return
        }
        connection.phase = .resolving
        connection.deadline = .now + EgressProxy.Limits.connectTimeout
        // Stop reading the extension until the destination answers (a hang-up still wakes us).
        watch(connection.client, 0)
        resolve(connection)
    }

    static func headerEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }

    /// `host:port`, `[v6]:port`, or a host alone with a default port.
    static func authority(_ text: String, defaultPort: Int?) -> (String, Int)? {
        var host = text
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if rest.hasPrefix(":") { portText = rest.dropFirst() } else if !rest.isEmpty { return nil }
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        }
        if let at = host.lastIndex(of: "@") { host = String(host[host.index(after: at)...]) }
        guard !host.isEmpty, host.utf8.count <= 253 else { return nil }
        if let portText {
            guard let port = Int(portText), (1...65535).contains(port) else { return nil }
            return (host, port)
        }
        guard let defaultPort else { return nil }
        return (host, defaultPort)
    }

    // MARK: Resolving and connecting

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

    // MARK: Relaying

    func relay(from fd: Int32, connection: Connection, toUpstream: Bool) {
        let pending = toUpstream ? connection.toUpstream.count : connection.toClient.count
        let room = EgressProxy.Limits.bufferBytes - pending
        if room > 0 {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, room, 0) }
            if count > 0 {
                if toUpstream {
                    connection.toUpstream += buffer[0..<count]
                    connection.bytesSent += count
                } else {
                    connection.toClient += buffer[0..<count]
                    connection.bytesReceived += count
                }
            } else if count == 0 || (errno != EAGAIN && errno != EINTR) {
                if toUpstream { connection.clientDone = true } else { connection.upstreamDone = true }
            }
        }
        flushToUpstream(connection)
        guard connections[connection.id] != nil else { return }
        flushToClient(connection)
    }

    func flushToUpstream(_ connection: Connection) {
        guard connection.phase == .relaying else { return }
        if !connection.toUpstream.isEmpty {
            let written = connection.toUpstream.withUnsafeBytes { send(connection.upstream, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                connection.toUpstream.removeFirst(written)
            } else if written < 0 && errno != EAGAIN && errno != EINTR {
                connection.upstreamDone = true
                connection.clientDone = true
            }
        }
        if connection.clientDone && connection.toUpstream.isEmpty { _ = shutdown(connection.upstream, Int32(SHUT_WR)) }
        settle(connection)
    }

    func flushToClient(_ connection: Connection) {
        if !connection.toClient.isEmpty {
            let written = connection.toClient.withUnsafeBytes { send(connection.client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written > 0 {
                connection.toClient.removeFirst(written)
            } else if written < 0 && errno != EAGAIN && errno != EINTR {
                connection.upstreamDone = true
                connection.clientDone = true
                connection.toClient = []
            }
        }
        if connection.closing {
            // An error page: once it is out, the proxy is done writing; the extension's close ends it.
            if connection.toClient.isEmpty {
                _ = shutdown(connection.client, Int32(SHUT_WR))
                connection.clientWatched = setInterest(connection.client, WH_POLL_IN, watched: connection.clientWatched, finished: false)
            }
            return
        }
        guard connection.phase == .relaying else { return }
        if connection.upstreamDone && connection.toClient.isEmpty { _ = shutdown(connection.client, Int32(SHUT_WR)) }
        settle(connection)
    }

    /// Ends the connection once both directions are over and drained, else updates what epoll watches.
    func settle(_ connection: Connection) {
        guard connections[connection.id] != nil else { return }
        if connection.clientDone && connection.upstreamDone && connection.toClient.isEmpty && connection.toUpstream.isEmpty {
            finish(connection)
        } else if connection.upstreamDone && connection.toClient.isEmpty && connection.clientDone {
            finish(connection)
        } else {
            updateInterest(connection)
        }
    }

    func updateInterest(_ connection: Connection) {
        guard connection.phase == .relaying else { return }
        var client: UInt32 = 0
        if !connection.clientDone && connection.toUpstream.count < EgressProxy.Limits.bufferBytes { client |= WH_POLL_IN }
        if !connection.toClient.isEmpty { client |= WH_POLL_OUT }
        var upstream: UInt32 = 0
        if !connection.upstreamDone && connection.toClient.count < EgressProxy.Limits.bufferBytes { upstream |= WH_POLL_IN }
        if !connection.toUpstream.isEmpty { upstream |= WH_POLL_OUT }
        // A side with nothing left to read or write leaves the epoll set: a hung-up socket would
        // otherwise wake the loop (EPOLLHUP is always reported) until the other side is done.
        connection.clientWatched = setInterest(connection.client, client, watched: connection.clientWatched,
                                               finished: connection.clientDone)
        connection.upstreamWatched = setInterest(connection.upstream, upstream, watched: connection.upstreamWatched,
                                                 finished: connection.upstreamDone)
    }

    /// Watches `fd` for `events`, or stops watching it when it is `finished` and nothing is asked; whether it is watched now.
    func setInterest(_ fd: Int32, _ events: UInt32, watched: Bool, finished: Bool) -> Bool {
        if events == 0 && finished {
            if watched { _ = wh_poll_remove(epoll, fd) }
            return false
        }
        _ = watched ? wh_poll_modify(epoll, fd, events) : wh_poll_add(epoll, fd, events)
        return true
    }

    // MARK: Ending

    /// Answers `status` with a short page and ends the connection, recording why.
    func refuse(_ connection: Connection, status: String, reason: String) {
        guard !connection.closing else { return }
        connection.closing = true
        connection.reason = reason
        connection.allowed = false
        if connection.upstream >= 0 {
            endpoints[connection.upstream] = nil
            if connection.upstreamWatched { _ = wh_poll_remove(epoll, connection.upstream) }
            connection.upstreamWatched = false
            Glibc.close(connection.upstream)
            connection.upstream = -1
        }
        connection.phase = .header
        // The page has this long to be read.
        connection.deadline = .now + .seconds(2)
        let body = "wallet-host egress proxy: \(reason)\n"
        connection.toClient = Array(("HTTP/1.1 \(status)\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n"
                                     + "Connection: close\r\n\r\n" + body).utf8)
        // Write the page when the socket takes it (reading only to drop what comes).
        connection.clientWatched = setInterest(connection.client, WH_POLL_OUT | WH_POLL_IN, watched: connection.clientWatched,
                                               finished: false)
        flushToClient(connection)
    }

    func finish(_ connection: Connection) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        connection.listener.connections.remove(connection.id)
        for (fd, watched) in [(connection.client, connection.clientWatched), (connection.upstream, connection.upstreamWatched)] where fd >= 0 {
            endpoints[fd] = nil
            if watched { _ = wh_poll_remove(epoll, fd) }
            Glibc.close(fd)
        }
        let session = connection.listener.session
        let record = HostEvent.NetworkConnection(
            host: connection.host, port: connection.port, address: connection.address,
            allowed: connection.allowed, reason: connection.reason, method: connection.method,
            bytesSent: connection.bytesSent, bytesReceived: connection.bytesReceived,
            milliseconds: (ContinuousClock.now - connection.opened).milliseconds)
        session.events.record(HostEvent(.networkConnection(record), bundleIdentifier: session.bundleIdentifier,
                                         pid: connection.listener.pid))
    }
}
