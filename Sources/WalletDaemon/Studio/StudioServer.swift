import Foundation
import Synchronization
import WalletHostRuntime
import WalletWire

/// The page the daemon serves over HTTP (`serve --http`, `studio`): Wallet on a simulated
/// device, in a browser, driving the daemon through its own client API.
///
/// Routes: `GET /` the page (the token in its query); `POST /rpc` one JSON-RPC message, served
/// by the socket's method table and codec (``DaemonServer/serve(_:from:answered:)``);
/// `GET /events` the page's session, a Server-Sent Events stream that carries every message the
/// daemon sends that client (its `events.event` and `wallet.transcript` notifications, and the
/// forwarded `ui.prompt` and `ui.biometric` requests, which the page answers with a JSON-RPC
/// response on `POST /rpc`). Every request needs the ``StudioAccess`` checks; no response
/// carries CORS headers, so another site's script cannot read one.
public final class StudioServer: Sendable {
    /// The header that names the page's session on `POST /rpc`.
    public static let sessionHeader = "X-Wallet-Session"

    let daemon: DaemonServer
    let http: HTTPServer
    public let access: StudioAccess
    /// A nonce for the page's one inline script (its Content-Security-Policy allows no other).
    let scriptNonce: String
    let sessions = Mutex<[Int: ClientSession]>([:])

    /// Listens on `host:port` (0: the kernel picks a port) for `daemon`.
    /// - Throws: a ``TCPListenerError`` or system call error when the address cannot be had.
    public init(daemon: DaemonServer, host: String, port: UInt16, token: String = StudioAccess.makeToken()) throws {
        let listener = try TCPListener.listen(host: host, port: port)
        self.daemon = daemon
        access = StudioAccess(host: host, port: listener.port, token: token)
        scriptNonce = StudioAccess.makeToken()
        let routes = Mutex<StudioServer?>(nil)
        http = try HTTPServer(listener: listener) { request, exchange in
            guard let server = routes.withLock({ $0 }) else { return exchange.respond(.error(503, "starting")) }
            server.serve(request, exchange)
        }
        routes.withLock { $0 = self }
        let processes = StudioProcesses()
        let hub = daemon.hub
        daemon.register(Self.processesMethod, answeringAtOnce: { _ in processes.list(hub.table) })
        hub.observeOutput { [weak self] line in
            for session in self?.sessions.withLock({ Array($0.values) }) ?? [] {
                session.notify(Self.outputNotification, line, droppable: true)
            }
        }
    }

    /// The page's process panel: the daemon's processes with footprint now and CPU share.
    public static let processesMethod = "studio.processes"
    /// The notification that carries the entries a page's add-card flow was offered, art included.
    public static let entriesNotification = "studio.entries"
    /// The notification that carries an extension's output line to each page.
    public static let outputNotification = "studio.output"

    /// The page's address with its token: what `serve --http` prints and `studio` opens.
    public var url: String { "http://\(http.authority)/?token=\(access.token)" }

    /// Starts accepting connections on the host loop.
    public func start() throws {
        try http.start()
    }

    /// Closes every connection and the listening socket (blocks until done).
    public func stop() {
        http.stop()
    }

    // MARK: Routes

    private func serve(_ request: HTTPRequest, _ exchange: HTTPExchange) {
        let routes: [String: String] = ["/": "GET", "/rpc": "POST", "/events": "GET"]
        guard let method = routes[request.path] else {
            return exchange.respond(Self.secured(.error(404, "no page at \(request.path.prefix(80)); the page is /")))
        }
        guard request.method == method else {
            return exchange.respond(Self.secured(.error(405, "\(request.path) takes \(method), not \(request.method.prefix(20))")
                .with("Allow", method)))
        }
        if let refusal = access.refusal(request, tokenInQuery: request.path != "/rpc") {
            return exchange.respond(Self.secured(.error(403, refusal)))
        }
        switch request.path {
        case "/": exchange.respond(page())
        case "/rpc": rpc(request, exchange)
        default: events(exchange)
        }
    }

    private func page() -> HTTPResponse {
        let html = StudioPage.html(nonce: scriptNonce)
        return Self.secured(HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Data(html.utf8)))
            .with("Content-Security-Policy", """
                default-src 'none'; script-src 'nonce-\(scriptNonce)'; style-src 'unsafe-inline'; img-src data:; \
                connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'
                """)
    }

    private func rpc(_ request: HTTPRequest, _ exchange: HTTPExchange) {
        let session: ClientSession
        let oneOff: Bool
        if let named = request.header(Self.sessionHeader) {
            guard let id = Int(named), let found = sessions.withLock({ $0[id] }) else {
                return exchange.respond(Self.secured(.error(400, "no page session \(named.prefix(20)): its event stream has closed; reload the page")))
            }
            session = found
            oneOff = false
        } else {
            // A request of its own (curl): nothing can be sent to it but its answer.
            session = daemon.makeSession(outlet: DiscardingOutlet())
            oneOff = true
        }
        let hub = daemon.hub
        daemon.serve(request.body, from: session) { answer in
            if oneOff { for subscription in session.disconnected() { hub.unsubscribe(subscription) } }
            guard let answer else { return exchange.respond(Self.secured(HTTPResponse(status: 204, contentType: "application/json", body: Data()))) }
            exchange.respond(Self.secured(HTTPResponse(status: 200, contentType: "application/json", body: answer)))
        }
    }

    private func events(_ exchange: HTTPExchange) {
        let stream = exchange.openStream(headers: Self.securityHeaders)
        let session = daemon.makeSession(outlet: PageOutlet(stream: stream))
        sessions.withLock { $0[session.id] = session }
        stream.send(event: "session", data: "{\"session\":\(session.id)}")
        let hub = daemon.hub
        stream.onClose { [weak self] in
            _ = self?.sessions.withLock { $0.removeValue(forKey: session.id) }
            for subscription in session.disconnected() { hub.unsubscribe(subscription) }
        }
    }

    /// Pages open now (their event streams).
    public var pageCount: Int { sessions.withLock { $0.count } }

    static let securityHeaders: [(name: String, value: String)] = [
        ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-store"),
    ]

    static func secured(_ response: HTTPResponse) -> HTTPResponse {
        securityHeaders.reduce(response) { $0.with($1.name, $1.value) }
    }
}

/// A page's session: each message the daemon sends it is one event of its stream.
final class PageOutlet: ClientOutlet {
    let stream: HTTPEventStream

    init(stream: HTTPEventStream) {
        self.stream = stream
    }

    func send(_ line: Data, droppable: Bool) -> Bool {
        var text = String(decoding: line, as: UTF8.self)
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return stream.send(data: text, droppable: droppable)
    }
}

/// The outlet of a one-off `POST /rpc`: there is no one to send anything but the answer to.
final class DiscardingOutlet: ClientOutlet {
    func send(_ line: Data, droppable: Bool) -> Bool { false }
}
