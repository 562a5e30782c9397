import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A raw HTTP/1.1 client for tests: bytes as written, on one TCP connection to loopback, so a
/// test controls every header (a foreign `Host`, no token, a pipelined second request).
public final class LoopbackHTTP {
    /// One response as read: status, headers (names lower-cased), body.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: Data
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    private let fd: Int32
    private var received = Data()

    /// Connects to `127.0.0.1:port`, reads time out after `timeout`.
    public init(port: UInt16, timeout: Duration = .seconds(20)) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw ChromiumError(description: "cannot connect to 127.0.0.1:\(port): errno \(errno)")
        }
        var limit = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Writes `text` as it is (CRLFs included).
    public func write(_ text: String) throws {
        try write(Data(text.utf8))
    }

    public func write(_ data: Data) throws {
        let sent = data.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == data.count else { throw ChromiumError(description: "sent \(sent) of \(data.count) bytes") }
    }

    /// Reads one response (its body sized by Content-Length); nil when the server closed first.
    public func readResponse() throws -> Response? {
        while true {
            if let end = received.range(of: Data("\r\n\r\n".utf8)) {
                let head = String(decoding: received[received.startIndex..<end.lowerBound], as: UTF8.self)
                var lines = head.components(separatedBy: "\r\n")
                let statusLine = lines.removeFirst().split(separator: " ")
                var headers: [String: String] = [:]
                for line in lines {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                }
                let length = Int(headers["content-length"] ?? "0") ?? 0
                if received.endIndex - end.upperBound >= length {
                    let body = Data(received[end.upperBound..<end.upperBound + length])
                    received = Data(received[(end.upperBound + length)...])
                    return Response(status: statusLine.count > 1 ? Int(statusLine[1]) ?? 0 : 0, headers: headers, body: body)
                }
            }
            guard try readMore() else { return nil }
        }
    }

    /// Reads until `marker` has arrived (an event stream's event); returns everything read so far.
    public func read(until marker: String) throws -> String {
        while String(decoding: received, as: UTF8.self).range(of: marker) == nil {
            guard try readMore() else { break }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Whether the server closed the connection (reads until it does or a read times out).
    public func isClosedByServer() -> Bool {
        (try? readMore()) == false
    }

    private func readMore() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw ChromiumError(description: "read failed: errno \(errno)") }
        if count == 0 { return false }
        received.append(contentsOf: chunk[0..<count])
        return true
    }
}
