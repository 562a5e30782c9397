import CWalletSpawn
import Foundation
import Testing
import WalletHostRuntime
import WalletHostTestSupport
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 31, break 6: every sandboxed extension used to keep the host's network namespace, so
/// abstract Unix sockets (and the host's loopback services) were shared: one issuer listened on
/// an abstract name, another connected, and the first handed it a descriptor of its App Group
/// container. Each extension now has a network namespace of its own (only `lo`), Landlock scopes
/// its abstract sockets and signals where the kernel has them, and the way out is the host's
/// egress proxy, each connection an event.
@Suite("Sandbox: the network is the extension's own", .serialized, .timeLimit(.minutes(2)),
       .enabled(if: KernelNamespaces.available, "the kernel refuses the namespaces the sandbox needs"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
struct NetworkIsolationTests {
    /// Issuer A: listens on the abstract name `wallet-hostile-@TOKEN@`, says so in its container,
    /// and hands whoever connects an open descriptor of its container (SCM_RIGHTS).
    static let listenerScript = """
        #!/usr/bin/python3
        import os, socket, time
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind("\\0wallet-hostile-@TOKEN@")
        server.listen(4)
        server.settimeout(8)
        with open("@OWN@/listening", "w") as f:
            f.write("yes")
        try:
            client, _ = server.accept()
            container = os.open("@OWN@", os.O_RDONLY | os.O_DIRECTORY)
            socket.send_fds(client, [b"fd"], [container])
            time.sleep(1)
        except OSError:
            pass
        """

    /// Issuer B (or any extension): connects to the abstract name `@NAME@`, tries to receive a
    /// descriptor, then connects to the host's TCP service at 127.0.0.1:@PORT@; writes what happened.
    static let connectorScript = """
        #!/usr/bin/python3
        import errno, json, os, socket
        out = {}
        try:
            client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            client.connect("\\0@NAME@")
            out["abstract"] = 0
            try:
                _, fds, _, _ = socket.recv_fds(client, 16, 4)
                out["receivedDescriptor"] = len(fds) > 0
                if fds:
                    out["sawOtherContainer"] = os.listdir(fds[0])
            except OSError as error:
                out["receivedDescriptor"] = False
        except OSError as error:
            out["abstract"] = error.errno
            out["receivedDescriptor"] = False
        try:
            tcp = socket.create_connection(("127.0.0.1", @PORT@), timeout=3)
            out["tcp"] = 0
        except OSError as error:
            out["tcp"] = error.errno if error.errno is not None else -1
        out["proxyVariable"] = os.environ.get("https_proxy", "")
        with open("@OWN@/connect.json", "w") as f:
            json.dump(out, f)
        """

    /// A host-side TCP listener on 127.0.0.1 (an ephemeral port) and an abstract Unix listener,
    /// both in the host's network namespace, closed by `close()`.
    final class HostListeners {
        let tcp: Int32
        let port: Int
        let abstract: Int32
        let abstractName: String

        init(token: String) throws {
            let tcp = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(tcp, $0, length) == 0 && listen(tcp, 8) == 0 }
            }
            guard bound else { throw BackendError("cannot listen on 127.0.0.1") }
            _ = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(tcp, $0, &length) }
            }
            let name = "wallet-host-side-\(token)"
            let abstract = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var unixAddress = sockaddr_un()
            unixAddress.sun_family = sa_family_t(AF_UNIX)
            let nameBytes = [UInt8(0)] + Array(name.utf8)
            withUnsafeMutableBytes(of: &unixAddress.sun_path) { $0.copyBytes(from: nameBytes) }
            let unixLength = socklen_t(MemoryLayout<sa_family_t>.size + nameBytes.count)
            let unixBound = withUnsafePointer(to: &unixAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(abstract, $0, unixLength) == 0 && listen(abstract, 8) == 0 }
            }
            guard unixBound else { throw BackendError("cannot listen on an abstract socket") }
            self.tcp = tcp
            self.port = Int(UInt16(bigEndian: address.sin_port))
            self.abstract = abstract
            self.abstractName = name
        }

        func close() {
            Glibc.close(tcp)
            Glibc.close(abstract)
        }
    }

    struct BackendError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func results(_ hostile: HostileExtension, _ name: String) throws -> [String: Any] {
        let text = try #require(hostile.containerFile(name), "the extension wrote no \(name)")
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("issuer B cannot connect to issuer A's abstract socket, nor be handed A's container",
          arguments: [NetworkMode.proxy, .none, .host])
    func abstractSocketsAreNotShared(mode: NetworkMode) async throws {
        if mode == .host && wh_landlock_abi() < 6 { return }  // only Landlock's scopes close them then
        let issuerA = try HostileExtension(script: Self.listenerScript)
        let token = issuerA.token
        let issuerB = try HostileExtension(script: Self.connectorScript.replacingOccurrences(of: "@NAME@", with: "wallet-hostile-\(token)")
            .replacingOccurrences(of: "@PORT@", with: "9"))
        defer {
            issuerA.cleanUp()
            issuerB.cleanUp()
        }
        let (runnerA, _) = issuerA.runner(sandbox: .required) { $0.network = mode }
        let (runnerB, _) = issuerB.runner(sandbox: .required) { $0.network = mode }
        let launchA = Task { await runnerA.prewarm() }
        try await waitFor("issuer A listens") { issuerA.containerFile("listening") == "yes" }
        _ = await runnerB.prewarm()
        let results = try Self.results(issuerB, "connect.json")
        // Its own network namespace: no such name (ECONNREFUSED); the host's, under Landlock's scope: EPERM.
        let refused = results["abstract"] as? Int
        #expect(refused == Int(ECONNREFUSED) || refused == Int(EPERM), "\(results)")
        #expect(results["receivedDescriptor"] as? Bool == false, "\(results)")
        await runnerA.stop()
        _ = await launchA.value
    }

    @Test("an extension reaches neither a host-side abstract socket nor a TCP service on the host's 127.0.0.1",
          arguments: [NetworkMode.proxy, .none])
    func hostServicesAreOutOfReach(mode: NetworkMode) async throws {
        let token = String(UInt32.random(in: 100_000...999_999))
        let listeners = try HostListeners(token: token)
        defer { listeners.close() }
        let hostile = try HostileExtension(script: Self.connectorScript.replacingOccurrences(of: "@NAME@", with: listeners.abstractName)
            .replacingOccurrences(of: "@PORT@", with: "\(listeners.port)"))
        defer { hostile.cleanUp() }
        let (runner, _) = hostile.runner(sandbox: .required) { $0.network = mode }
        _ = await runner.prewarm()
        let results = try Self.results(hostile, "connect.json")
        #expect([Int(ECONNREFUSED), Int(EPERM)].contains(results["abstract"] as? Int ?? 0), "\(results)")
        #expect(results["tcp"] as? Int == Int(ECONNREFUSED), "\(results)")
        // --network none: no proxy either.
        #expect((results["proxyVariable"] as? String ?? "").isEmpty == (mode == .none), "\(results)")
    }

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

    @Test("--network proxy: an allowed request goes through the host's proxy (plain and CONNECT), each connection an event with its bytes; a destination not allowed is answered 403, and is an event too")
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
        # The proxy sees the 40 closes on its own thread: until it has, a new connection is
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
}

extension NetworkIsolationTests {
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

/// The same for a host that is not root (its extensions' network namespaces are made inside their
/// user namespaces): run `wallet-host call` as another user with setpriv.
@Suite("Sandbox: the network is the extension's own, for a host that is not root", .serialized, .timeLimit(.minutes(2)),
       .enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                "runs wallet-host as another user with setpriv"),
       .enabled(if: KernelNamespaces.available, "the kernel refuses the namespaces the sandbox needs"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
struct UnprivilegedNetworkIsolationTests {
    /// Tries the host's abstract socket and TCP service, asks the proxy for the test server, says
    /// what happened on stderr, then execs the real helper so that the call answers.
    static let script = """
        #!/usr/bin/python3
        import json, os, socket, sys, urllib.request
        out = {}
        try:
            client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            client.connect("\\0@NAME@")
            out["abstract"] = 0
        except OSError as error:
            out["abstract"] = error.errno
        try:
            socket.create_connection(("127.0.0.1", @TCPPORT@), timeout=3)
            out["tcp"] = 0
        except OSError as error:
            out["tcp"] = error.errno if error.errno is not None else -1
        try:
            out["plain"] = urllib.request.urlopen("http://127.0.0.1:@PORT@/hello", timeout=5).read().decode()
        except Exception as error:
            out["plain"] = "error: %r" % (error,)
        sys.stderr.write("RESULT " + json.dumps(out) + "\\n")
        sys.stderr.flush()
        real = os.path.join(os.path.dirname(os.path.abspath(sys.argv[0])), "TestHelperExt.real")
        os.execv(real, [real])
        """

    /// A TestHelperExt bundle whose executable is ``script`` (probing the abstract socket
    /// `abstractName`, loopback TCP port `tcpPort` and, through the proxy, `proxiedPort`), which then
    /// execs the real helper.
    static func probingHelper(abstractName: String, tcpPort: some BinaryInteger, proxiedPort: some BinaryInteger) throws -> URL {
        let appex = try ExampleBundles.testHelper(mode: "normal")
        let executable = appex.appendingPathComponent("TestHelperExt")
        try FileManager.default.moveItem(at: executable, to: appex.appendingPathComponent("TestHelperExt.real"))
        try Data(script.replacingOccurrences(of: "@NAME@", with: abstractName)
            .replacingOccurrences(of: "@TCPPORT@", with: "\(tcpPort)")
            .replacingOccurrences(of: "@PORT@", with: "\(proxiedPort)").utf8).write(to: executable)
        _ = chmod(executable.path, 0o755)
        return appex
    }

    @Test("a non-root host's extension reaches neither the user's abstract socket nor its loopback TCP service; the proxy carries an allowed request, and call prints it")
    func unprivilegedHostsExtensionIsIsolated() async throws {
        let user = UnprivilegedHostLimitsTests.user
        let token = String(UInt32.random(in: 100_000...999_999))
        let listeners = try NetworkIsolationTests.HostListeners(token: token)
        defer { listeners.close() }
        let (server, port) = try NetworkIsolationTests.startServer()
        defer {
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        let appex = try Self.probingHelper(abstractName: listeners.abstractName, tcpPort: listeners.port, proxiedPort: port)
        defer { try? FileManager.default.removeItem(at: appex.deletingLastPathComponent().deletingLastPathComponent()) }
        let root = try TemporaryDirectory(prefix: "wallet-host-unprivileged-network")
        defer { root.remove() }
        _ = chown(root.url.path, user, user)
        let state = try UnprivilegedHostLimitsTests.state("state", in: root)

        let host = Process()
        host.executableURL = URL(fileURLWithPath: UnprivilegedHostLimitsTests.launcher[0])
        host.arguments = Array(UnprivilegedHostLimitsTests.launcher.dropFirst()) + [
            BuildProducts.walletHost.path, "call", appex.path, "status", "--state", state, "--sandbox", "required",
            "--deadline", "status=20s", "--allow-network", "127.0.0.1:\(port)",
        ]
        let output = Pipe()
        host.standardOutput = output
        host.standardError = output
        try host.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        host.waitUntilExit()
        #expect(host.terminationStatus == 0, "\(printed)")
        #expect(printed.contains("network: GET 127.0.0.1:\(port)"), "\(printed)")

        let logs = URL(fileURLWithPath: state).appendingPathComponent("logs")
        let said = (try FileManager.default.contentsOfDirectory(atPath: logs.path)).compactMap {
            try? String(contentsOf: logs.appendingPathComponent($0), encoding: .utf8)
        }.joined(separator: "\n")
        let line = try #require(said.split(separator: "\n").first { $0.contains("RESULT ") }, "\(said)")
        let json = String(line[line.range(of: "RESULT ")!.upperBound...])
        let results = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect([Int(ECONNREFUSED), Int(EPERM)].contains(results["abstract"] as? Int ?? 0), "\(results)")
        #expect(results["tcp"] as? Int == Int(ECONNREFUSED), "\(results)")
        #expect(results["plain"] as? String == "hello", "\(results)")
    }
}
