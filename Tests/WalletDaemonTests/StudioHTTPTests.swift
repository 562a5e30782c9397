import Foundation
import Testing
import WalletDaemon
import WalletHostRuntime
import WalletTestSupport
import WalletWire

extension DaemonProcess {
    /// A daemon with the studio page on loopback (`serve --http 127.0.0.1:0`), waited for.
    static func withStudio(apps: [URL] = [], arguments: [String] = []) async throws -> DaemonProcess {
        let directory = try appsDirectory(with: apps)
        return try await DaemonProcess(apps: directory, arguments: ["--http", "127.0.0.1:0", "--deadline", "status=5s"] + arguments)
            .waitUntilServing()
    }

    /// The page's URL as `serve --http` printed it on stderr.
    func studioURL(sourceLocation: SourceLocation = #_sourceLocation) async throws -> URLComponents {
        var found: URLComponents?
        try await waitFor("the studio URL on stderr", sourceLocation: sourceLocation) {
            guard let range = self.standardError.range(of: #"studio page at (http://\S+)"#, options: .regularExpression) else { return false }
            found = URLComponents(string: String(self.standardError[range].dropFirst("studio page at ".count)))
            return found != nil
        }
        return try #require(found)
    }
}

/// The studio's HTTP on the daemon's loop: routes, keep-alive, bounds, and the three locks
/// (loopback, the token, the Host header), against a real `wallet-host serve --http`.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct StudioHTTPTests {
    static func request(_ method: String, _ target: String, host: String, token: String? = nil, body: String = "",
                        extra: String = "") -> String {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: \(host)\r\n"
        if let token { text += "X-Wallet-Token: \(token)\r\n" }
        if !body.isEmpty || method == "POST" { text += "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n" }
        return text + extra + "\r\n" + body
    }

    @Test func thePageNeedsTheTokenAndItsOwnHost() async throws {
        let daemon = try await DaemonProcess.withStudio()
        let url = try await daemon.studioURL()
        let port = UInt16(try #require(url.port))
        let token = try #require(url.queryItems?.first { $0.name == "token" }?.value)
        #expect(url.host == "127.0.0.1", "loopback unless the user names another address")
        #expect(token.count == 32)
        let host = "127.0.0.1:\(port)"

        let connection = try LoopbackHTTP(port: port)
        try connection.write(Self.request("GET", "/?token=\(token)", host: host))
        let page = try #require(try connection.readResponse())
        #expect(page.status == 200)
        #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
        #expect(page.headers["content-security-policy"]?.contains("script-src 'nonce-") == true)
        #expect(page.headers.keys.allSatisfy { !$0.hasPrefix("access-control-") }, "no CORS: \(page.headers)")
        #expect(page.text.contains("data-device=\"iphone\""))

        // Keep-alive: the same connection serves the next requests.
        try connection.write(Self.request("GET", "/?token=wrong\(token.dropFirst(5))", host: host))
        let wrongToken = try #require(try connection.readResponse())
        #expect(wrongToken.status == 403)
        #expect(wrongToken.text.contains("wrong token"))
        try connection.write(Self.request("GET", "/", host: host))
        #expect(try connection.readResponse()?.status == 403, "no token")
        try connection.write(Self.request("POST", "/rpc", host: host, body: #"{"jsonrpc":"2.0","id":1,"method":"host.status"}"#))
        #expect(try connection.readResponse()?.status == 403, "POST /rpc without the token header")

        // DNS rebinding: a page of evil.example resolved to 127.0.0.1 sends its own name.
        try connection.write(Self.request("GET", "/?token=\(token)", host: "evil.example:\(port)"))
        let rebound = try #require(try connection.readResponse())
        #expect(rebound.status == 403)
        #expect(rebound.text.contains("DNS rebinding"))
        try connection.write(Self.request("GET", "/?token=\(token)", host: "localhost:\(port)"))
        #expect(try connection.readResponse()?.status == 200, "localhost names loopback too")
    }

    @Test func rpcServesTheSocketsMethodsAndBadRequestsGetClearStatuses() async throws {
        let daemon = try await DaemonProcess.withStudio()
        let url = try await daemon.studioURL()
        let port = UInt16(try #require(url.port))
        let token = try #require(url.queryItems?.first { $0.name == "token" }?.value)
        let host = "127.0.0.1:\(port)"

        let connection = try LoopbackHTTP(port: port)
        // Two requests written at once (pipelined): answered in order on one connection.
        try connection.write(Self.request("POST", "/rpc", host: host, token: token, body: #"{"jsonrpc":"2.0","id":1,"method":"host.status"}"#)
                             + Self.request("POST", "/rpc", host: host, token: token, body: #"{"jsonrpc":"2.0","id":2,"method":"no.such"}"#))
        let status = try #require(try connection.readResponse())
        #expect(status.status == 200)
        let answer = try JSONDecoder().decode(JSONValue.self, from: status.body)
        #expect(answer["id"] == .integer(1))
        #expect(answer["result"]?["pid"] == .integer(Int(daemon.pid)))
        let unknown = try JSONDecoder().decode(JSONValue.self, from: try #require(try connection.readResponse()).body)
        #expect(unknown["error"]?["code"] == .integer(RPCErrorCode.methodNotFound), "the socket's own error: \(unknown)")

        try connection.write(Self.request("GET", "/nowhere", host: host, token: token))
        #expect(try connection.readResponse()?.status == 404)
        try connection.write(Self.request("GET", "/rpc", host: host, token: token))
        let wrongMethod = try #require(try connection.readResponse())
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.headers["allow"] == "POST")
        try connection.write(Self.request("POST", "/rpc", host: host, token: token, body: "not json"))
        let garbage = try JSONDecoder().decode(JSONValue.self, from: try #require(try connection.readResponse()).body)
        #expect(garbage["error"]?["code"] == .integer(RPCErrorCode.parseError))

        let tooBig = try LoopbackHTTP(port: port)
        try tooBig.write("POST /rpc HTTP/1.1\r\nHost: \(host)\r\nX-Wallet-Token: \(token)\r\nContent-Length: 2000000\r\n\r\n")
        #expect(try tooBig.readResponse()?.status == 413)
        #expect(tooBig.isClosedByServer())

        // curl's way with a body over 1 KB: the head first, the body after 100 Continue.
        let patient = try LoopbackHTTP(port: port)
        let body = #"{"jsonrpc":"2.0","id":7,"method":"host.status"}"#
        try patient.write("POST /rpc HTTP/1.1\r\nHost: \(host)\r\nX-Wallet-Token: \(token)\r\nExpect: 100-continue\r\n"
                          + "Content-Length: \(body.utf8.count)\r\n\r\n")
        #expect(try patient.readResponse()?.status == 100)
        try patient.write(body)
        #expect(try patient.readResponse()?.status == 200)

        let notHTTP = try LoopbackHTTP(port: port)
        try notHTTP.write("HELLO\r\n\r\n")
        #expect(try notHTTP.readResponse()?.status == 400)
    }

    @Test func eventsAreAStreamThatCarriesTheSessionsMessages() async throws {
        let daemon = try await DaemonProcess.withStudio(apps: [ExampleBundles.testHelperApp])
        // Wallet asks status only of apps opened once.
        _ = try await daemon.call("apps.open", .object(["app": .string("TestHelper")]))
        let url = try await daemon.studioURL()
        let port = UInt16(try #require(url.port))
        let token = try #require(url.queryItems?.first { $0.name == "token" }?.value)
        let host = "127.0.0.1:\(port)"

        let stream = try LoopbackHTTP(port: port)
        try stream.write(Self.request("GET", "/events?token=\(token)", host: host))
        let opened = try stream.read(until: "\n\n")
        #expect(opened.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(opened.contains("Content-Type: text/event-stream"))
        let session = try #require(opened.firstMatch(of: /"session":(\d+)/)?.1)

        let rpc = try LoopbackHTTP(port: port)
        try rpc.write(Self.request("POST", "/rpc", host: host, token: token, body: #"{"jsonrpc":"2.0","id":1,"method":"events.subscribe"}"#,
                                   extra: "X-Wallet-Session: \(session)\r\n"))
        #expect(try rpc.readResponse()?.status == 200)
        try rpc.write(Self.request("POST", "/rpc", host: host, token: token,
                                   body: #"{"jsonrpc":"2.0","id":2,"method":"wallet.discover","params":{"device":"iphone"}}"#))
        #expect(try rpc.readResponse()?.status == 200)
        let events = try stream.read(until: #""kind":"result""#)
        #expect(events.contains(#"data: {"jsonrpc":"2.0","method":"events.event""#), "\(events.suffix(400))")

        try rpc.write(Self.request("POST", "/rpc", host: host, token: token, body: #"{"jsonrpc":"2.0","id":3,"method":"host.status"}"#,
                                   extra: "X-Wallet-Session: 999999\r\n"))
        let stale = try #require(try rpc.readResponse())
        #expect(stale.status == 400)
        #expect(stale.text.contains("no page session"))
    }

    @Test func studioAsksARunningDaemonForItsPageAndStartsOneWhenNoneRuns() async throws {
        // A daemon without --http: studio.open starts the page on loopback.
        let daemon = try await DaemonProcess().waitUntilServing()
        let run = try WalletHostCommand.run(["studio", "--no-open", "--apps", daemon.apps.path, "--state", daemon.state.path])
        #expect(run.status == 0, "\(run.standardError)")
        let url = try #require(URLComponents(string: run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(url.host == "127.0.0.1")
        let token = try #require(url.queryItems?.first { $0.name == "token" }?.value)
        let port = UInt16(try #require(url.port))
        let connection = try LoopbackHTTP(port: port)
        try connection.write(Self.request("GET", "/?token=\(token)", host: "127.0.0.1:\(port)"))
        #expect(try connection.readResponse()?.status == 200)
        let again = try WalletHostCommand.run(["studio", "--no-open", "--apps", daemon.apps.path, "--state", daemon.state.path])
        #expect(again.standardOutput == run.standardOutput, "the page that runs is reused")

        // No daemon: studio starts one for the state directory.
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-studio-state")
        let started = try WalletHostCommand.run(["studio", "--no-open", "--apps", daemon.apps.path, "--state", state.path])
        #expect(started.status == 0, "\(started.standardError)")
        #expect(started.standardError.contains("started wallet-host serve"))
        let client = try DaemonClient(connectingTo: state.appendingPathComponent("wallet-host.sock").path)
        _ = try await client.call("host.shutdown", JSONValue.object([:]))
    }

    @Test func serveRefusesAnHTTPAddressItCannotRead() throws {
        let run = try WalletHostCommand.run(["serve", "--http", "localhost", "--state", TemporaryDirectory.uniqueURL(prefix: "wallet-host-state").path])
        #expect(run.status == 2)
        #expect(run.standardError.contains("--http localhost: give HOST:PORT"))
    }
}

/// The page's locks, without a server: the Host header and the token.
struct StudioAccessTests {
    let access = StudioAccess(host: "127.0.0.1", port: 8123, token: "0123456789abcdef0123456789abcdef")

    func request(host: String?, token: String?, inQuery: Bool = false) -> HTTPRequest {
        var headers: [(name: String, value: String)] = []
        if let host { headers.append(("Host", host)) }
        if let token, !inQuery { headers.append((StudioAccess.tokenHeader, token)) }
        return HTTPRequest(method: "GET", target: inQuery ? "/?token=\(token ?? "")" : "/rpc", headers: headers)
    }

    @Test func theRightHostAndTokenPass() {
        #expect(access.refusal(request(host: "127.0.0.1:8123", token: access.token), tokenInQuery: false) == nil)
        #expect(access.refusal(request(host: "LOCALHOST:8123", token: access.token), tokenInQuery: false) == nil)
        #expect(access.refusal(request(host: "127.0.0.1:8123", token: access.token, inQuery: true), tokenInQuery: true) == nil)
    }

    @Test func aForeignOrMissingHostIsRefused() {
        #expect(access.refusal(request(host: "evil.example:8123", token: access.token), tokenInQuery: false)?.contains("DNS rebinding") == true)
        #expect(access.refusal(request(host: "127.0.0.1:9999", token: access.token), tokenInQuery: false) != nil, "another port")
        #expect(access.refusal(request(host: nil, token: access.token), tokenInQuery: false) != nil)
    }

    @Test func aWrongMissingOrMisplacedTokenIsRefused() {
        #expect(access.refusal(request(host: "127.0.0.1:8123", token: "0123456789abcdef0123456789abcdee"), tokenInQuery: false) != nil)
        #expect(access.refusal(request(host: "127.0.0.1:8123", token: nil), tokenInQuery: false) != nil)
        #expect(access.refusal(request(host: "127.0.0.1:8123", token: access.token, inQuery: true), tokenInQuery: false) != nil,
                "POST /rpc takes the token only in its header")
        #expect(StudioAccess.makeToken() != StudioAccess.makeToken())
        #expect(StudioAccess.makeToken().count == 32)
    }
}
