import Foundation
import Testing
import WalletDaemon
import WalletTestSupport
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// The client loop under load, on real daemons: many idle connections on a fixed set of
/// threads, the client cap, a client that floods without reading, and fairness to the others.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ClientLoopTests {
    @Test func aThousandIdleClientsCostNoThreadAndAreAllServed() async throws {
        raiseDescriptorLimit(to: 4096)
        let daemon = try await DaemonProcess().waitUntilServing()
        let threadsBefore = try threadCount(daemon.pid)
        var clients: [DaemonClient] = []
        for _ in 0..<1000 { clients.append(try DaemonClient(connectingTo: daemon.socketPath)) }
        // Every one of them is served: a request on the last and on the first.
        for client in [clients[999], clients[0]] {
            let status = try await client.call("host.status", [String: String](), as: DaemonAPI.Status.self)
            #expect(status.clients == 1000)
        }
        let threadsWith1000 = try threadCount(daemon.pid)
        #expect(threadsWith1000 <= threadsBefore + 2, "\(threadsBefore) threads before, \(threadsWith1000) with 1,000 clients")
        #expect(threadsWith1000 <= 64)
        clients.removeAll()
        try await waitFor("the daemon sees them leave") {
            try await daemon.call("host.status")["clients"] == .integer(1)
        }
    }

    @Test func aClientPastTheMaximumIsToldWhyAndTheNextOneAfterALeaverIsServed() async throws {
        let daemon = try await DaemonProcess(arguments: ["--max-clients", "2"]).waitUntilServing()
        let first = try DaemonClient(connectingTo: daemon.socketPath)
        // Once the probe of waitUntilServing has left, the first client is alone.
        try await waitFor("one client") {
            try await first.call("host.status", [String: String](), as: DaemonAPI.Status.self).clients == 1
        }
        var second: DaemonClient? = try DaemonClient(connectingTo: daemon.socketPath)
        _ = try await second?.call("device.get", [String: String](), as: JSONValue.self)
        let third = try DaemonClient(connectingTo: daemon.socketPath)
        third.setReceiveTimeout(.seconds(10))
        let refusal = try #require(try third.readMessage(), "the refused client gets a line")
        #expect(refusal.error?.code == RPCErrorCode.invalidRequest)
        #expect(refusal.error?.message.contains("at most 2 clients") == true, "\(refusal.error?.message ?? "")")
        #expect(refusal.error?.message.contains("--max-clients") == true)
        #expect(try third.readMessage() == nil, "then the connection ends")
        second = nil
        try await waitFor("a place is free again") {
            guard let client = try? DaemonClient(connectingTo: daemon.socketPath) else { return false }
            // Until the daemon saw the second client leave, this one is refused too (and counted).
            let status = try? await client.call("host.status", [String: String](), as: DaemonAPI.Status.self)
            return (status?.refusedClients ?? 0) >= 1
        }
        withExtendedLifetime(second) {}
    }

    /// One client writes 5,000 requests and reads nothing; another client is served meanwhile,
    /// and sees at most the flooder's share of requests in flight. Then the flooder reads: every
    /// one of its answers is there, once, none lost to the pause.
    @Test func aFloodingClientThatDoesNotReadHoldsOnlyItsShareAndLosesNothing() async throws {
        let daemon = try await DaemonProcess(arguments: ["--client-requests", "4"]).waitUntilServing()
        let flooder = try DaemonClient(connectingTo: daemon.socketPath)
        let count = 5000
        let codec = WireCodec()
        var burst = Data()
        for id in 1...count { burst.append(try codec.request(id: .number(id), method: "processes.list", params: NoParams())) }
        // Written from another thread: the daemon stops reading once the flooder's answers pile up,
        // so this write blocks until the flooder reads.
        let sender = UncheckedSender(client: flooder)
        let writer = Task.detached { [burst] in try sender.client.send(burst) }
        let other = try DaemonClient(connectingTo: daemon.socketPath)
        var inFlightSeen: [Int] = []
        for _ in 0..<20 {
            let started = ContinuousClock.now
            let status = try await other.call("host.status", [String: String](), as: DaemonAPI.Status.self)
            #expect(ContinuousClock.now - started < .seconds(2), "another client's request waited behind the flood")
            inFlightSeen.append(status.requestsInFlight)
        }
        // The flooder's share (4) plus this request itself.
        #expect(inFlightSeen.allSatisfy { $0 <= 5 }, "requests in flight seen: \(inFlightSeen)")
        flooder.setReceiveTimeout(.seconds(20))
        var ids: [Int] = []
        while ids.count < count, let message = try flooder.readMessage() {
            #expect(message.error == nil, "\(message.error.map(String.init(describing:)) ?? "")")
            if case .number(let id)? = message.id { ids.append(id) }
        }
        try await writer.value
        #expect(ids.sorted() == Array(1...count), "every answer, once")
    }

    private func threadCount(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Threads:") })
        return try #require(Int(line.split(separator: "\t").last.map(String.init) ?? ""))
    }

    /// Lets this test process hold that many connections (its soft limit may be 1024).
    private func raiseDescriptorLimit(to wanted: rlim_t) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < wanted else { return }
        limit.rlim_cur = min(wanted, limit.rlim_max)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

/// Lets a thread send on a client while the test reads from it: `send` touches only the
/// socket, reading only the client's own buffers.
private final class UncheckedSender: @unchecked Sendable {
    let client: DaemonClient
    init(client: DaemonClient) { self.client = client }
}
