import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The proxy loop: relaying bytes both ways, and ending a connection (refused or finished).
extension ProxyLoop {
    func relay(from fd: Int32, connection: Connection, toUpstream: Bool) {
        let pending = toUpstream ? connection.toUpstream.count : connection.toClient.count
        let room = EgressProxy.Limits.bufferBytes - pending
        if room > 0 {
            let received = Result {
                try buffer.withUnsafeMutableBytes { bytes in
                    try SystemCall.receive(fd, into: UnsafeMutableRawBufferPointer(rebasing: bytes[..<min(room, bytes.count)]))
                }
            }
            switch received {
            case .success(.some(let count)) where count > 0:
                if toUpstream {
                    connection.toUpstream += buffer[0..<count]
                    connection.bytesSent += count
                } else {
                    connection.toClient += buffer[0..<count]
                    connection.bytesReceived += count
                }
            case .success(.none): break  // would block
            default:  // the end of the stream, or a failure
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
            if let written = try? connection.toUpstream.withUnsafeBytes({ try SystemCall.send(connection.upstream, $0) }) {
                connection.toUpstream.removeFirst(written)
            } else {
                connection.upstreamDone = true
                connection.clientDone = true
            }
        }
        if connection.clientDone && connection.toUpstream.isEmpty { SystemCall.shutdown(connection.upstream, Int32(SHUT_WR)) }
        settle(connection)
    }

    func flushToClient(_ connection: Connection) {
        if !connection.toClient.isEmpty {
            if let written = try? connection.toClient.withUnsafeBytes({ try SystemCall.send(connection.client, $0) }) {
                connection.toClient.removeFirst(written)
            } else {
                connection.upstreamDone = true
                connection.clientDone = true
                connection.toClient = []
            }
        }
        if connection.closing {
            // An error page: once it is out, the proxy is done writing; the extension's close ends it.
            if connection.toClient.isEmpty {
                SystemCall.shutdown(connection.client, Int32(SHUT_WR))
                connection.clientWatched = setInterest(connection.client, .readable, watched: connection.clientWatched, finished: false)
            }
            return
        }
        guard connection.phase == .relaying else { return }
        if connection.upstreamDone && connection.toClient.isEmpty { SystemCall.shutdown(connection.client, Int32(SHUT_WR)) }
        settle(connection)
    }

    /// Ends the connection once both directions are over and drained, else updates what the loop watches.
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
        var client: HostLoop.Events = []
        if !connection.clientDone && connection.toUpstream.count < EgressProxy.Limits.bufferBytes { client.insert(.readable) }
        if !connection.toClient.isEmpty { client.insert(.writable) }
        var upstream: HostLoop.Events = []
        if !connection.upstreamDone && connection.toClient.count < EgressProxy.Limits.bufferBytes { upstream.insert(.readable) }
        if !connection.toUpstream.isEmpty { upstream.insert(.writable) }
        // A side with nothing left to read or write leaves the loop: a hung-up socket would
        // otherwise wake it (EPOLLHUP is always reported) until the other side is done.
        connection.clientWatched = setInterest(connection.client, client, watched: connection.clientWatched,
                                               finished: connection.clientDone)
        connection.upstreamWatched = setInterest(connection.upstream, upstream, watched: connection.upstreamWatched,
                                                 finished: connection.upstreamDone)
    }

    /// Watches `fd` for `events`, or stops watching it when it is `finished` and nothing is
    /// asked. - Returns: whether it is watched now.
    func setInterest(_ fd: Int32, _ events: HostLoop.Events, watched: Bool, finished: Bool) -> Bool {
        if events.isEmpty && finished {
            if watched { loop.unregister(fd) }
            return false
        }
        if watched {
            loop.reregister(fd, for: events)
            return true
        }
        return watch(fd, events)
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
            if connection.upstreamWatched { loop.unregister(connection.upstream) }
            connection.upstreamWatched = false
            SystemCall.close(connection.upstream)
            connection.upstream = -1
        }
        connection.phase = .header
        // The page has this long to be read.
        arm(connection, after: .seconds(2))
        let body = "wallet-host egress proxy: \(reason)\n"
        connection.toClient = Array(("HTTP/1.1 \(status)\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n"
                                     + "Connection: close\r\n\r\n" + body).utf8)
        // Write the page when the socket takes it (reading only to drop what comes).
        connection.clientWatched = setInterest(connection.client, [.writable, .readable], watched: connection.clientWatched,
                                               finished: false)
        flushToClient(connection)
    }

    func finish(_ connection: Connection) {
        guard connections.removeValue(forKey: connection.id) != nil else { return }
        connection.listener.connections.remove(connection.id)
        disarm(connection)
        for (fd, watched) in [(connection.client, connection.clientWatched), (connection.upstream, connection.upstreamWatched)] where fd >= 0 {
            endpoints[fd] = nil
            if watched { loop.unregister(fd) }
            SystemCall.close(fd)
        }
        let session = connection.listener.session
        let record = HostEvent.NetworkConnection(
            host: connection.host, port: connection.port, address: connection.address,
            allowed: connection.allowed, reason: connection.reason, method: connection.method,
            bytesSent: connection.bytesSent, bytesReceived: connection.bytesReceived,
            milliseconds: (loop.clock.now() - connection.opened).milliseconds)
        session.events.record(HostEvent(.networkConnection(record), bundleIdentifier: session.bundleIdentifier,
                                         pid: connection.listener.pid))
    }
}
