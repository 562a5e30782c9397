import CWalletSpawn
import Foundation
import Testing
import WalletHostRuntime
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
}
