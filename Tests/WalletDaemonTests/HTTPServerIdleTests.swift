import Foundation
import Testing
@testable import WalletDaemon
import WalletHostRuntime
import WalletTestSupport

/// The HTTP server on a loop whose clock the test advances: a keep-alive connection lives while
/// it sends whole requests and is closed once idle for the timeout, as is one that sends its
/// head too slowly (it would otherwise hold one of the server's connections for ever).
@Suite(.timeLimit(.minutes(1)))
struct HTTPServerIdleTests {
    @Test func anIdleOrSlowConnectionIsClosedAfterTheTimeoutAndABusyOneIsNot() async throws {
        let clock = TestClock()
        let loop = try HostLoop(clock: clock, threadName: "http-idle-test")
        let listener = try TCPListener.listen(host: "127.0.0.1", port: 0)
        var limits = HTTPServer.Limits()
        limits.idleTimeout = .seconds(30)
        let server = try HTTPServer(listener: listener, limits: limits, loop: loop) { request, exchange in
            exchange.respond(.json(["path": request.path]))
        }
        try server.start()
        let request = "GET /one HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

        let busy = try LoopbackHTTP(port: listener.port)
        try busy.write(request)
        #expect(try busy.readResponse()?.status == 200)
        clock.advance(by: .seconds(20))
        try busy.write(request)
        #expect(try busy.readResponse()?.status == 200, "a request within the timeout keeps the connection")
        clock.advance(by: .seconds(20))
        try busy.write(request)
        #expect(try busy.readResponse()?.status == 200, "each request restarts the idle clock")

        let slow = try LoopbackHTTP(port: listener.port)
        try slow.write("GET /two HT")
        try await waitFor("the server has accepted the slow connection") { await Self.connections(of: server) == 2 }
        clock.advance(by: .seconds(31))
        #expect(slow.isClosedByServer(), "half a head for 31 s: closed")
        #expect(busy.isClosedByServer(), "idle for 31 s: closed")
        server.stop()
        await loop.shutdown()
    }

    /// The server's open connections, read on its loop.
    static func connections(of server: HTTPServer) async -> Int {
        await withCheckedContinuation { continuation in
            server.loop.execute { continuation.resume(returning: server.connectionCount) }
        }
    }
}
