import Foundation

/// An HTTP/1.1 response: a status, headers and a body.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Data

    /// - Parameters:
    ///   - status: the status code (its reason phrase is added by ``bytes(keepAlive:)``).
    ///   - contentType: the body's media type.
    ///   - body: the body.
    public init(status: Int, contentType: String, body: Data) {
        self.status = status
        self.headers = [("Content-Type", contentType)]
        self.body = body
    }

    /// A JSON body: `value` encoded with sorted keys and unescaped slashes.
    public static func json(_ value: some Encodable, status: Int = 200) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let body = try? encoder.encode(value) else { return error(500, "the answer could not be encoded") }
        return HTTPResponse(status: status, contentType: "application/json", body: body + Data("\n".utf8))
    }

    /// A header added (or, for a name already there in any case, replaced).
    public func with(_ name: String, _ value: String) -> HTTPResponse {
        var response = self
        response.headers.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        response.headers.append((name, value))
        return response
    }

    /// An error: `{"error": message}` with the status.
    public static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(["error": message], status: status)
    }

    /// The reason phrase of the status codes this host answers with.
    public var reason: String {
        switch status {
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 411: return "Length Required"
        case 413: return "Content Too Large"
        case 422: return "Unprocessable Content"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 503: return "Service Unavailable"
        default: return "Status \(status)"
        }
    }

    /// The response as sent: status line, headers with `Content-Length` and `Connection`, body.
    /// - Parameter keepAlive: whether the connection stays open for another request.
    public func bytes(keepAlive: Bool) -> Data {
        var head = "HTTP/1.1 \(status) \(reason)\r\n"
        for header in headers { head += "\(header.name): \(header.value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
        return Data(head.utf8) + body
    }
}
