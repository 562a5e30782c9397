import Foundation
import Testing
@testable import WalletHostRuntime

@Suite("HTTP request parser")
struct HTTPRequestParserTests {
    let parser = HTTPRequestParser(maximumHeadBytes: 256, maximumBodyBytes: 16)

    func status(_ text: String) -> Int? {
        if case .refused(let response) = parser.parse(Data(text.utf8)) { return response.status }
        return nil
    }

    @Test("a request split anywhere is incomplete until its body is whole; a pipelined one is left for later")
    func incompleteThenWhole() throws {
        let first = "POST /requests?x=1 HTTP/1.1\r\nHost: a\r\ncontent-length: 5\r\n\r\nhello"
        let bytes = Data((first + "GET / HTTP/1.1\r\n\r\n").utf8)
        for cut in 0..<first.utf8.count {
            guard case .incomplete = parser.parse(bytes.prefix(cut)) else {
                Issue.record("\(cut) bytes should be incomplete")
                return
            }
        }
        guard case .request(let request, let consumed) = parser.parse(bytes) else {
            Issue.record("expected a request")
            return
        }
        #expect(request.method == "POST" && request.path == "/requests" && request.target == "/requests?x=1")
        #expect(request.header("Content-Length") == "5" && request.header("host") == "a")
        #expect(String(decoding: request.body, as: UTF8.self) == "hello")
        #expect(consumed == first.utf8.count)
        guard case .request(let second, _) = parser.parse(bytes.dropFirst(consumed)) else {
            Issue.record("expected the pipelined request")
            return
        }
        #expect(second.method == "GET" && second.body.isEmpty)
    }

    @Test("what is refused, with its status")
    func refusals() {
        #expect(status("POST / HTTP/1.1\r\nContent-Length: 17\r\n\r\n") == 413)
        #expect(status("GET /" + String(repeating: "a", count: 300)) == 431)
        #expect(status("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 300) + "\r\n\r\n") == 431)
        #expect(status("GET / HTTP/2\r\n\r\n") == 400)
        #expect(status("GET http://elsewhere/ HTTP/1.1\r\n\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\nno colon\r\n\r\n") == 400)
        #expect(status("GET / HTTP/1.1\r\n folded: x\r\n\r\n") == 400)
        #expect(status("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n") == 411)
        #expect(status("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n") == 400)
        #expect(status("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n") == 400)
        #expect(status("POST / HTTP/1.1\r\nContent-Length: ٣\r\n\r\n") == 400)
    }

    @Test("a response carries its length and whether the connection stays")
    func responseBytes() {
        let text = String(decoding: HTTPResponse.error(404, "nothing at /x").bytes(keepAlive: false), as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\n"))
        #expect(text.contains("Connection: close\r\n\r\n{"))
        let body = text.components(separatedBy: "\r\n\r\n")[1]
        #expect(text.contains("Content-Length: \(body.utf8.count)\r\n"))
    }
}
