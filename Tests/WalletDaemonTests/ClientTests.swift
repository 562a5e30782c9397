import Foundation
import Testing
import WalletDaemon
import WalletTestSupport
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// Many clients, slow clients, clients that leave, prompts forwarded to the client, and the
/// drain at SIGTERM.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ClientTests {
    @Test func concurrentClientsAreServedWhileOneNeverReadsItsEvents() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let appex = apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex").path
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--keep-warm"]).waitUntilServing()
        // A subscriber that never reads: its queue fills and its events are dropped, nobody waits for it.
        let stuck = try DaemonClient(connectingTo: daemon.socketPath)
        try stuck.send(WireCodec().request(id: .number(1), method: "events.subscribe", params: JSONValue.object([:])))
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let client = try DaemonClient(connectingTo: daemon.socketPath)
                    var succeeded = 0
                    for _ in 0..<400 {
                        let answer = try await client.call("extension.call", JSONValue.object(["appex": .string(appex), "method": .string("status")]))
                        if answer["succeeded"] == .bool(true) { succeeded += 1 }
                    }
                    return succeeded
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: 400, count: 8))
        let status = try DaemonClient.decode(DaemonAPI.Status.self, from: try await daemon.call("host.status"))
        #expect(status.subscriptions == 1)
        #expect(status.droppedEvents > 0, "the stuck subscriber's queue filled and its events were dropped")
        withExtendedLifetime(stuck) {}
    }

    @Test func eventsAreStreamedToASubscriberFilteredByKind() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let appex = apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex").path
        let daemon = try await DaemonProcess(apps: apps).waitUntilServing()
        let subscriber = try DaemonClient(connectingTo: daemon.socketPath)
        // A missed event fails the test in 10 s instead of hanging it.
        subscriber.setReceiveTimeout(.seconds(10))
        _ = try await subscriber.call("events.subscribe", JSONValue.object(["kinds": .array([.string("result")])]))
        // A generous deadline: the subject is the event stream, not the first launch's speed.
        _ = try await daemon.call("extension.call", .object(["appex": .string(appex), "method": .string("status"),
                                                             "deadlineMs": .integer(5000)]))
        // The handshake's answer (initialize) comes first, then the call's.
        var kinds: [JSONValue?] = []
        var methods: [JSONValue?] = []
        while methods.last != .string("status"), let message = try subscriber.readMessage() {
            #expect(message.method == "events.event")
            #expect(message.params?["bundleIdentifier"] == .string("com.example.testhelper.TestHelperExt"))
            kinds.append(message.params?["kind"])
            methods.append(message.params?["method"])
        }
        #expect(kinds.allSatisfy { $0 == .string("result") }, "only the kind subscribed to: \(kinds)")
        #expect(methods == [.string("initialize"), .string("status")])
    }

    @Test func theUIExtensionsPromptsAreForwardedToTheClientThatStartedTheFlow() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.sampleIssuerApp])
        let daemon = try await DaemonProcess(apps: apps).waitUntilServing()
        _ = try await daemon.call("apps.open", .object(["app": .string("SampleIssuer")]))
        let client = try DaemonClient(connectingTo: daemon.socketPath)
        var asked: [String] = []
        var transcript: [String] = []
        let report = try await client.call("wallet.addCard", JSONValue.object(["userAgent": .bool(true)]), onNotification: { message in
            if case .string(let line)? = message.params?["line"] { transcript.append(line) }
        }, onRequest: { request in
            asked.append(request.method ?? "")
            if request.method == "ui.prompt" {
                return JSONValue.object(["action": .string("Log In"),
                                         "values": .object(["username": .string("jappleseed"), "password": .string("wallet-demo")])])
            }
            return JSONValue.object(["success": .bool(true)])
        })
        #expect(asked.first == "ui.prompt", "the login form reached the client: \(asked)")
        #expect(report["authorization"] == .string("authorized"), "\(report)")
        #expect(report["cards"].map { if case .array(let cards) = $0 { cards.count } else { 0 } } == 3)
        #expect(transcript.contains { $0.contains("authorization") && $0.contains("authorized") })
    }

    @Test func aClientThatLeavesCancelsItsFlowAndTheUIExtensionStops() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.sampleIssuerApp])
        let daemon = try await DaemonProcess(apps: apps).waitUntilServing()
        _ = try await daemon.call("apps.open", .object(["app": .string("SampleIssuer")]))
        do {
            let client = try DaemonClient(connectingTo: daemon.socketPath)
            try client.send(WireCodec().request(id: .number(1), method: "wallet.addCard", params: JSONValue.object(["userAgent": .bool(true)])))
            while let message = try client.readMessage(), message.method != "ui.prompt" {}
            // The client leaves with the prompt unanswered.
        }
        try await waitFor("the flow over and the UI extension stopped") {
            let status = try DaemonClient.decode(DaemonAPI.Status.self, from: try await daemon.call("host.status"))
            let ui = try await daemon.process("com.example.sampleissuer.WUIExt")
            return status.requestsInFlight == 1 && status.clients == 1 && ui?.pid == nil
        }
        let passes = try await daemon.call("passes.list")
        #expect(passes == .array([]), "no card was added by the abandoned flow")
    }

    @Test func sigtermLetsTheCallInFlightFinishThenStopsEveryExtensionNormally() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let appex = apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex")
        try ExampleBundles.setMode("slow-status 500", appex: appex)
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--keep-warm"]).waitUntilServing()
        try await waitFor("warm") { try await daemon.process("com.example.testhelper.TestHelperExt")?.pid != nil }
        let pid = try #require(try await daemon.process("com.example.testhelper.TestHelperExt")?.pid)
        let client = try DaemonClient(connectingTo: daemon.socketPath)
        try client.send(WireCodec().request(id: .number(7), method: "extension.call",
                                            params: JSONValue.object(["appex": .string(appex.path), "method": .string("status"),
                                                                      "deadlineMs": .double(5000)])))
        try await daemon.waitForCallInFlight("status")
        daemon.signal(SIGTERM)
        let answer = try #require(try client.readMessage())
        #expect(answer.id == .number(7))
        #expect(answer.result?["succeeded"] == .bool(true), "\(answer)")
        #expect(try await daemon.waitForExit() == 0)
        #expect(!processExists(pid))
        let log = try String(contentsOf: daemon.state.appendingPathComponent("logs/events.jsonl"), encoding: .utf8)
        let stop = try #require(log.split(separator: "\n").last { $0.contains("\"kind\":\"stop\"") && $0.contains("\"pid\":\(pid)") })
        #expect(stop.contains("daemon stopped by SIGTERM"))
        let exit = try #require(log.split(separator: "\n").last { $0.contains("\"kind\":\"exit\"") && $0.contains("\"pid\":\(pid)") })
        #expect(exit.contains("\"code\":0") || exit.contains("exited(0)") || exit.contains("\"exitCode\":0"), "\(exit)")
    }

    /// systemd's part is played by the system's python3 (scripts/install-dependencies installs it).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3 to pass the socket"))
    func socketActivationServesOnTheInheritedListener() async throws {
        let python = "/usr/bin/python3"
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-state")
        let apps = try TemporaryDirectory(prefix: "wallet-host-apps").url
        let socketPath = TemporaryDirectory.uniqueURL(prefix: "wallet-host-activated").path
        // What systemd does: bind and listen, hand the socket over as fd 3, set LISTEN_FDS and
        // LISTEN_PID to the daemon's pid (exec keeps the pid).
        let script = """
            import os, socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.bind(sys.argv[1]); s.listen(16)
            if s.fileno() != 3: os.dup2(s.fileno(), 3)
            os.set_inheritable(3, True)
            os.environ["LISTEN_FDS"] = "1"; os.environ["LISTEN_PID"] = str(os.getpid())
            os.execv(sys.argv[2], sys.argv[2:])
            """
        let daemon = try DaemonProcess(apps: apps, state: state, launcher: [python, "-c", script, socketPath])
        _ = daemon
        try await waitFor("the activated daemon answers") { (try? DaemonClient(connectingTo: socketPath)) != nil }
        let client = try DaemonClient(connectingTo: socketPath)
        let status = try DaemonClient.decode(DaemonAPI.Status.self, from: try await client.call("host.status", JSONValue.object([:])))
        #expect(status.pid == daemon.pid)
        #expect(status.socket == nil, "an inherited socket is not the daemon's to remove")
        #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("wallet-host.sock").path))
        daemon.signal(SIGTERM)
        #expect(try await daemon.waitForExit() == 0)
    }
}
