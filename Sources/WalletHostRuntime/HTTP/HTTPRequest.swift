import Foundation

/// One HTTP/1.1 request as a client sent it: its request line, headers and body.
public struct HTTPRequest: Sendable {
    /// `GET`, `POST`, ... as sent (methods are case-sensitive).
    public var method: String
    /// The request target as sent: `/requests?x=1`.
    public var target: String
    /// Each header as sent, in order; names compare without case (``header(_:)``).
    public var headers: [(name: String, value: String)]
    public var body: Data
    /// `HTTP/1.1` or `HTTP/1.0`, as sent.
    public var version: String

    /// A request as a client would send it.
    public init(method: String, target: String, headers: [(name: String, value: String)] = [], body: Data = Data(),
                version: String = "HTTP/1.1") {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.version = version
    }

    /// The target's path, without its query.
    public var path: String { String(target.prefix { $0 != "?" }) }

    /// The value of the query parameter `name` (`?token=abc` -> `abc`), percent-decoded, or nil.
    public func queryValue(_ name: String) -> String? {
        guard let query = target.firstIndex(of: "?") else { return nil }
        for pair in target[target.index(after: query)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if parts[0] == name {
                return parts.count > 1 ? String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding : ""
            }
        }
        return nil
    }

    /// The first value of the header `name` (any case), or nil.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// Reads HTTP/1.1 requests from the bytes a connection received, with bounds: a head of at most
/// ``maximumHeadBytes`` and a body of at most ``maximumBodyBytes``, sized by `Content-Length`
/// (chunked bodies are refused). Pure: it is given bytes and says what they hold.
public struct HTTPRequestParser: Sendable {
    /// What the bytes received so far hold.
    public enum Outcome: Sendable {
        /// Not a whole request yet: read more.
        case incomplete
        /// A request, and how many bytes of the buffer it used (a pipelined one may follow).
        case request(HTTPRequest, consumed: Int)
        /// Not a request this parser takes: answer this and close the connection.
        case refused(HTTPResponse)
    }

    public var maximumHeadBytes: Int
    public var maximumBodyBytes: Int

    /// - Parameters:
    ///   - maximumHeadBytes: the longest request line and headers taken (431 past it).
    ///   - maximumBodyBytes: the longest body taken (413 past it).
    public init(maximumHeadBytes: Int = 16 * 1024, maximumBodyBytes: Int = 1024 * 1024) {
        self.maximumHeadBytes = maximumHeadBytes
        self.maximumBodyBytes = maximumBodyBytes
    }

    private static let headEnd = Data("\r\n\r\n".utf8)

    /// What `buffer` (the bytes received and not yet consumed) holds.
    public func parse(_ buffer: Data) -> Outcome {
        guard let end = buffer.range(of: Self.headEnd) else {
            return buffer.count > maximumHeadBytes ? .refused(.error(431, "the request's head is over \(maximumHeadBytes) bytes")) : .incomplete
        }
        let headLength = end.upperBound - buffer.startIndex
        guard headLength <= maximumHeadBytes else {
            return .refused(.error(431, "the request's head is over \(maximumHeadBytes) bytes"))
        }
        guard let head = String(data: buffer[buffer.startIndex..<end.lowerBound], encoding: .utf8) else {
            return .refused(.error(400, "the request's head is not UTF-8 text"))
        }
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2] == "HTTP/1.1" || requestLine[2] == "HTTP/1.0",
              !requestLine[0].isEmpty, requestLine[1].hasPrefix("/") else {
            return .refused(.error(400, "not an HTTP/1.1 request line (METHOD /path HTTP/1.1): \(lines[0].prefix(80))"))
        }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex, !line.first!.isWhitespace else {
                return .refused(.error(400, "not a header line (Name: value): \(line.prefix(80))"))
            }
            headers.append((String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var request = HTTPRequest(method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: Data(),
                                  version: String(requestLine[2]))
        if request.header("Transfer-Encoding") != nil {
            return .refused(.error(411, "send the body with a Content-Length, not Transfer-Encoding"))
        }
        let lengths = headers.filter { $0.name.caseInsensitiveCompare("Content-Length") == .orderedSame }
        guard lengths.count <= 1 else { return .refused(.error(400, "more than one Content-Length header")) }
        var bodyLength = 0
        if let text = lengths.first?.value {
            guard let length = Int(text), length >= 0, text.allSatisfy(\.isASCII) else {
                return .refused(.error(400, "Content-Length \(text.prefix(20)) is not a number of bytes"))
            }
            bodyLength = length
        }
        guard bodyLength <= maximumBodyBytes else {
            return .refused(.error(413, "the body is \(bodyLength) bytes; at most \(maximumBodyBytes) are taken"))
        }
        let bodyStart = end.upperBound
        guard buffer.endIndex - bodyStart >= bodyLength else { return .incomplete }
        request.body = Data(buffer[bodyStart..<bodyStart + bodyLength])
        return .request(request, consumed: headLength + bodyLength)
    }
}
