import CWalletSpawn
import Foundation
import Testing
import WalletHostRuntime
import WalletHostTestSupport
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The egress proxy (`--network proxy`): what it carries, what it refuses, its bounds, and that
/// it runs on the host loop.
extension NetworkIsolationTests {
    /// Asks the proxy (from the environment) for http://127.0.0.1:@PORT@/hello (urllib), through a
    /// CONNECT tunnel for the same, and for http://127.0.0.1:@OTHERPORT@/ (not allowed).
    static let proxyClientScript = """
        #!/usr/bin/python3
        import json, os, socket, urllib.request, urllib.error
        out = {"proxy": os.environ.get("http_proxy", "")}
        try:
            out["plain"] = urllib.request.urlopen("http://127.0.0.1:@PORT@/hello", timeout=5).read().decode()
        except Exception as error:
            out["plain"] = "error: %r" % (error,)
        try:
            tunnel = socket.create_connection(("127.0.0.1", 3128), timeout=5)
            tunnel.sendall(b"CONNECT 127.0.0.1:@PORT@ HTTP/1.1\\r\\nHost: 127.0.0.1:@PORT@\\r\\n\\r\\n")
            answer = b""
            while b"\\r\\n\\r\\n" not in answer:
                chunk = tunnel.recv(4096)
                if not chunk:
                    break
                answer += chunk
            out["connectStatus"] = answer.split(b"\\r\\n")[0].decode()
            tunnel.sendall(b"GET /hello HTTP/1.0\\r\\n\\r\\n")
            body = b""
            while True:
                chunk = tunnel.recv(4096)
                if not chunk:
                    break
                body += chunk
            out["tunnel"] = body.split(b"\\r\\n\\r\\n", 1)[-1].decode()
        except Exception as error:
            out["tunnel"] = "error: %r" % (error,)
        try:
            urllib.request.urlopen("http://127.0.0.1:@OTHERPORT@/", timeout=5).read()
            out["refused"] = 0
        except urllib.error.HTTPError as error:
            out["refused"] = error.code
        except Exception as error:
            out["refused"] = "error: %r" % (error,)
        with open("@OWN@/proxy.json", "w") as f:
            json.dump(out, f)
        """

    /// A one-file HTTP server on 127.0.0.1 that answers `hello` to everything; prints its port.
    static func startServer() throws -> (Process, Int) {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        server.arguments = ["-c", """
            import sys
            from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
            class Handler(BaseHTTPRequestHandler):
                def log_message(self, *args):
                    pass
                def do_GET(self):
                    self.send_response(200)
                    self.send_header("Content-Length", "5")
                    self.end_headers()
                    self.wfile.write(b"hello")
            server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """]
        let pipe = Pipe()
        server.standardOutput = pipe
        try server.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = pipe.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw BackendError("the test server exited") }
            line += chunk
        }
        let port = try #require(Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
        return (server, port)
    }

    @Test("--network proxy: an allowed request goes through the host's proxy (plain and CONNECT), each connection an event with its bytes; a destination not allowed is answered 403, and is an event too; no proxy thread")
    func proxyCarriesAllowedConnectionsAndLogsThem() async throws {
        let (server, port) = try Self.startServer()
        defer {
            // SIGKILL: the test process may ignore SIGTERM, and a child started by Process inherits that.
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        let otherPort = port == 65535 ? port - 1 : port + 1
        let hostile = try HostileExtension(script: Self.proxyClientScript.replacingOccurrences(of: "@OTHERPORT@", with: "\(otherPort)")
            .replacingOccurrences(of: "@PORT@", with: "\(port)"))
        defer { hostile.cleanUp() }
        let (runner, events) = hostile.runner(sandbox: .required) { configuration in
            configuration.network = .proxy
            configuration.networkPolicy = NetworkPolicy(allowances: [NetworkAllowance(host: "127.0.0.1", port: port)])
        }
        _ = await runner.prewarm()
        let results = try Self.results(hostile, "proxy.json")
        #expect(results["proxy"] as? String == "http://127.0.0.1:3128", "\(results)")
        #expect(results["plain"] as? String == "hello", "\(results)")
        #expect(results["connectStatus"] as? String == "HTTP/1.1 200 Connection established", "\(results)")
        #expect(results["tunnel"] as? String == "hello", "\(results)")
        #expect(results["refused"] as? Int == 403, "\(results)")
        await events.waitForEvents("connections logged", count: 3) { $0.kind == .networkConnection }
        let connections = events.events(.networkConnection).compactMap { event -> HostEvent.NetworkConnection? in
            guard case .networkConnection(let connection) = event.payload else { return nil }
            return connection
        }
        let allowed = connections.filter(\.allowed)
        #expect(allowed.count == 2, "\(connections)")
        #expect(allowed.allSatisfy { $0.port == port && $0.address == "127.0.0.1" && $0.bytesSent > 0 && $0.bytesReceived > 0 },
                "\(connections)")
        #expect(Set(allowed.map(\.method)) == ["GET", "CONNECT"], "\(connections)")
        let refused = try #require(connections.first { !$0.allowed }, "\(connections)")
        #expect(refused.port == otherPort && refused.reason?.contains("--allow-network") == true, "\(refused)")
        #expect(events.events(.networkConnection).allSatisfy { $0.bundleIdentifier == "com.example.hostile.Hostile" })
        // The proxy runs on the host loop: before issue 32 it had an epoll thread of its own,
        // `egress-proxy`, and an `egress-resolve` thread per name.
        let proxyThreads = Self.threadNames().filter { $0.hasPrefix("egress") }
        #expect(proxyThreads.isEmpty, "\(Self.threadNames())")
    }

    /// The names of the test process's threads (`/proc/self/task/*/comm`).
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    /// Connects to the proxy and sends half a request header, never finished; writes what the
    /// proxy answered.
    static let unfinishedHeaderScript = """
        #!/usr/bin/python3
        import socket
        connection = socket.create_connection(("127.0.0.1", 3128), timeout=30)
        connection.sendall(b"GET http://example.com/ HTTP/1.1\\r\\n")
        with open("@OWN@/connected", "w") as f:
            f.write("yes")
        try:
            answer = connection.recv(64).split(b"\\r\\n")[0].decode()
        except OSError as error:
            answer = "error %r" % (error,)
        with open("@OWN@/answer.txt", "w") as f:
            f.write(answer)
        """

    @Test("the proxy's timeouts are timers of the extension's loop, on its clock: a header never finished is answered 408 once a test clock passes 10 s")
    func proxyTimeoutsRunOnTheLoopsClock() async throws {
        let clock = TestClock()
        let loop = try HostLoop(clock: clock, threadName: "wh-proxy-test")
        let hostile = try HostileExtension(script: Self.unfinishedHeaderScript)
        defer { hostile.cleanUp() }
        let (runner, events) = hostile.runner(sandbox: .required) { configuration in
            configuration.network = .proxy
            configuration.loop = loop
            configuration.clock = clock
            // The script never answers initialize: only the proxy's timeout may end it.
            configuration.handshakeTimeout = .seconds(3600)
        }
        let started = ContinuousClock.now
        let launch = Task { await runner.prewarm() }
        try await waitFor("the extension connected", timeout: .seconds(20)) { hostile.containerFile("connected") != nil }
        // The proxy arms the header's timeout when it accepts (soon after the connect): the
        // clock is moved past it until the answer comes.
        try await waitFor("the proxy answered", timeout: .seconds(20)) {
            clock.advance(by: .seconds(11))
            return hostile.containerFile("answer.txt") != nil
        }
        #expect(hostile.containerFile("answer.txt") == "HTTP/1.1 408 Request Timeout")
        // Before issue 32 the proxy's deadlines ran on the real clock: 10 s, whatever the test's.
        #expect(ContinuousClock.now - started < .seconds(8), "the header's timeout waited for real time")
        try await waitFor("the connection is logged") { events.events(.networkConnection).count >= 1 }
        let logged = events.events(.networkConnection).map(\.message)
        #expect(logged.contains { $0.contains("no complete request header") }, "\(logged)")
        _ = await launch.value
        await runner.stop()
        await loop.shutdown()
    }

    /// Opens 40 connections to the proxy and sends nothing on them, then one more with a header
    /// past the proxy's limit; writes what the proxy answered.
    static let proxyFloodScript = """
        #!/usr/bin/python3
        import json, socket, time
        out = {"answers": []}
        held = []
        for _ in range(40):
            held.append(socket.create_connection(("127.0.0.1", 3128), timeout=5))
        for connection in held[32:]:
            try:
                out["answers"].append(connection.recv(64).split(b"\\r\\n")[0].decode())
            except OSError as error:
                out["answers"].append("error %r" % (error,))
        for connection in held:
            connection.close()
        # The proxy sees the 40 closes on the host loop: until it has, a new connection is
        # still over the limit (503), so the oversized header is tried again a few times.
        for attempt in range(50):
            big = socket.create_connection(("127.0.0.1", 3128), timeout=5)
            try:
                big.sendall(b"GET http://example.com/ HTTP/1.1\\r\\nX-Fill: " + b"a" * 10000 + b"\\r\\n\\r\\n")
            except OSError:
                pass
            out["big"] = big.recv(64).split(b"\\r\\n")[0].decode()
            big.close()
            if not out["big"].startswith("HTTP/1.1 503"):
                break
            time.sleep(0.02)
        with open("@OWN@/flood.json", "w") as f:
            json.dump(out, f)
        """

    @Test("the proxy is bounded: past 32 open connections an extension is answered 503, a header past 8 KiB 431")
    func proxyIsBounded() async throws {
        let hostile = try HostileExtension(script: Self.proxyFloodScript)
        defer { hostile.cleanUp() }
        let (runner, events) = hostile.runner(sandbox: .required) { $0.network = .proxy }
        _ = await runner.prewarm()
        let results = try Self.results(hostile, "flood.json")
        let answers = try #require(results["answers"] as? [String], "\(results)")
        #expect(answers.count == 8 && answers.allSatisfy { $0 == "HTTP/1.1 503 Service Unavailable" }, "\(results)")
        #expect(results["big"] as? String == "HTTP/1.1 431 Request Header Fields Too Large", "\(results)")
        await runner.stop()
        await events.waitForEvents("connections logged", count: 41) { $0.kind == .networkConnection }
    }

    @Test("--network proxy without --allow-network refuses the host's own loopback (a name resolving there too)")
    func proxyRefusesTheHostsLoopbackByDefault() async throws {
        let (server, port) = try Self.startServer()
        defer {
            // SIGKILL: the test process may ignore SIGTERM, and a child started by Process inherits that.
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        let hostile = try HostileExtension(script: Self.proxyClientScript.replacingOccurrences(of: "@OTHERPORT@", with: "\(port)")
            .replacingOccurrences(of: "@PORT@", with: "\(port)"))
        defer { hostile.cleanUp() }
        let (runner, events) = hostile.runner(sandbox: .required) { $0.network = .proxy }
        _ = await runner.prewarm()
        let results = try Self.results(hostile, "proxy.json")
        #expect(results["refused"] as? Int == 403, "\(results)")
        #expect((results["plain"] as? String ?? "").contains("403"), "\(results)")
        await events.waitForEvents("refusals logged", count: 3) { $0.kind == .networkConnection }
        #expect(events.events(.networkConnection).allSatisfy { event in
            guard case .networkConnection(let connection) = event.payload else { return false }
            return !connection.allowed && connection.reason?.contains("host's own address or a private one") == true
        }, "\(events.events(.networkConnection).map(\.message))")
    }

    @Test("through the daemon: `serve --allow-network` lets the warm extension reach its backend, and `call` prints the connection")
    func daemonCallPrintsTheConnection() async throws {
        let (server, port) = try Self.startServer()
        defer {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        let appex = try UnprivilegedNetworkIsolationTests.probingHelper(abstractName: "nothing-\(port)", tcpPort: 9, proxiedPort: port)
        defer { try? FileManager.default.removeItem(at: appex.deletingLastPathComponent().deletingLastPathComponent()) }
        let directory = try TemporaryDirectory(prefix: "wallet-host-network-daemon")
        defer { directory.remove() }
        let state = directory.url.appendingPathComponent("state")
        let daemon = Process()
        daemon.executableURL = BuildProducts.walletHost
        daemon.arguments = ["serve", "--state", state.path, "--allow-network", "127.0.0.1:\(port)"]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        defer {
            kill(daemon.processIdentifier, SIGKILL)
            daemon.waitUntilExit()
        }
        try await waitFor("the daemon answers") { try WalletHostCommand.run(["ps", "--state", state.path]).status == 0 }
        let run = try WalletHostCommand.run(["call", appex.path, "status", "--state", state.path, "--deadline", "status=20s"])
        #expect(run.status == 0, "\(run.standardOutput)\(run.standardError)")
        // Allowed (so by the daemon's --allow-network: this command named none), with its bytes.
        let line = run.standardOutput.split(separator: "\n").first { $0.hasPrefix("network: GET 127.0.0.1:\(port)") }
        #expect(line?.contains("bytes sent") == true, "\(run.standardOutput)")
    }
}
