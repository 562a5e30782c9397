import CWalletPoll
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The proxy loop: accepting an extension's connections and reading its request's header.
extension ProxyLoop {
    func accept(on listener: Listener) {
        while true {
            let fd = wh_poll_accept(listener.fd)
            guard fd >= 0 else { return }
            let connection = Connection(id: nextID, listener: listener, client: fd, opened: loop.clock.now())
            nextID += 1
            connections[connection.id] = connection
            listener.connections.insert(connection.id)
            endpoints[fd] = .client(connection)
            arm(connection, after: EgressProxy.Limits.headerTimeout)
            connection.clientWatched = watch(fd, .readable)
            if !connection.clientWatched {
                connection.reason = "the host cannot watch the connection (epoll's limits)"
                finish(connection)
            } else if listener.connections.count > EgressProxy.Limits.connectionsPerProcess {
                refuse(connection, status: "503 Service Unavailable",
                       reason: "more than \(EgressProxy.Limits.connectionsPerProcess) connections open at once")
            }
        }
    }

    func clientReady(_ connection: Connection, events: HostLoop.Events) {
        let endOrFailure: HostLoop.Events = [.hangUp, .error]
        if connection.closing {
            if !events.isDisjoint(with: endOrFailure) {
                finish(connection)
                return
            }
            if events.contains(.writable) { flushToClient(connection) }
            // What the extension still sends is read and dropped until it closes (or the page's
            // time is up): closing with unread bytes would reset the connection, page and all.
            if events.contains(.readable), connections[connection.id] != nil {
                let received = Result { try buffer.withUnsafeMutableBytes { try SystemCall.receive(connection.client, into: $0) } }
                switch received {
                case .success(.none): break  // would block
                case .success(.some(let count)) where count > 0: break  // dropped
                default: finish(connection)  // the end of the stream, or a failure
                }
            }
            return
        }
        if events.contains(.writable) { flushToClient(connection) }
        guard connections[connection.id] != nil else { return }
        if !events.isDisjoint(with: endOrFailure.union(.readable)) {
            switch connection.phase {
            case .header: readHeader(connection)
            case .relaying: relay(from: connection.client, connection: connection, toUpstream: true)
            case .resolving, .connecting:
                // Only a hang-up matters before the destination answers.
                if !events.isDisjoint(with: endOrFailure) {
                    connection.reason = connection.reason ?? "the extension closed the connection first"
                    finish(connection)
                }
            }
        }
    }

    /// Reads what the extension sent of its request header; once it is whole, takes the request.
    func readHeader(_ connection: Connection) {
        let room = EgressProxy.Limits.headerBytes + 1 - connection.header.count
        let received = Result {
            try buffer.withUnsafeMutableBytes { bytes in
                try SystemCall.receive(connection.client, into: UnsafeMutableRawBufferPointer(rebasing: bytes[..<min(room, bytes.count)]))
            }
        }
        if case .success(.none) = received { return }  // would block
        guard case .success(.some(let count)) = received, count > 0 else {
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
        let taken = connection.method == "CONNECT"
            ? takeTunnel(connection, target: requestLine[1], rest: rest)
            : takePlainRequest(connection, target: requestLine[1], version: requestLine[2], headerLines: lines, rest: rest)
        if taken { startConnecting(connection) }
    }

    /// `CONNECT host:port`: the tunnel's destination, and the bytes already sent past the header
    /// to go up once it is open. - Returns: false when refused.
    private func takeTunnel(_ connection: Connection, target: String, rest: [UInt8]) -> Bool {
        guard let (host, port) = Self.authority(target, defaultPort: nil) else {
            refuse(connection, status: "400 Bad Request", reason: "CONNECT to \"\(target.prefix(100))\", not HOST:PORT")
            return false
        }
        connection.host = host
        connection.port = port
        connection.toUpstream = rest
        connection.toClient = Array("HTTP/1.1 200 Connection established\r\n\r\n".utf8)
        return true
    }

    /// `GET http://host:port/path`: the destination, and the request as forwarded (origin form,
    /// without hop-by-hop headers, `Connection: close`). - Returns: false when refused.
    private func takePlainRequest(_ connection: Connection, target: String, version: String, headerLines: [String],
                                  rest: [UInt8]) -> Bool {
        guard target.lowercased().hasPrefix("http://") else {
            refuse(connection, status: "400 Bad Request",
                   reason: "\(connection.method) \(target.prefix(100)): only CONNECT and http:// requests are proxied")
            return false
        }
        let afterScheme = target.dropFirst(7)
        let slash = afterScheme.firstIndex(of: "/") ?? afterScheme.endIndex
        guard let (host, port) = Self.authority(String(afterScheme[..<slash]), defaultPort: 80) else {
            refuse(connection, status: "400 Bad Request", reason: "no host in \(target.prefix(100))")
            return false
        }
        connection.host = host
        connection.port = port
        let path = slash == afterScheme.endIndex ? "/" : String(afterScheme[slash...])
        var forwarded = "\(connection.method) \(path) \(version)\r\n"
        for line in headerLines where !line.isEmpty {
            let name = line.prefix { $0 != ":" }.lowercased()
            if name == "connection" || name == "keep-alive" || name.hasPrefix("proxy-") { continue }
            forwarded += line + "\r\n"
        }
        forwarded += "Connection: close\r\n\r\n"
        connection.toUpstream = Array(forwarded.utf8) + rest
        return true
    }

    /// The request is taken: checks its destination's name against the policy, then resolves it.
    private func startConnecting(_ connection: Connection) {
        connection.header = []
        // What the extension sent so far counts (a plain request's header as forwarded).
        connection.bytesSent = connection.toUpstream.count
        if let refusal = connection.listener.session.policy.refusal(host: connection.host, port: connection.port) {
            refuse(connection, status: "403 Forbidden", reason: refusal)
            return
        }
        connection.phase = .resolving
        arm(connection, after: EgressProxy.Limits.connectTimeout)
        // Stop reading the extension until the destination answers (a hang-up still wakes us).
        loop.reregister(connection.client, for: [])
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
}
