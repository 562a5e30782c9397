import CWalletSpawn
import Foundation
import Testing
import WalletHostRuntime
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

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
