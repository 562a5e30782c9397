import Foundation
import Testing
import Wallet
import WalletTestSupport

/// Several `wallet-host` processes sharing one state directory at once.
@Suite("Concurrent host processes", .serialized, .timeLimit(.minutes(3)))
struct ConcurrentHostsTests {
    /// Starts `wallet-host` with `arguments`; the caller waits.
    private func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = BuildProducts.walletHost
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    @Test("two add-card flows and two writers in separate processes lose no pass")
    func noLostWrites() async throws {
        let state = FileManager.default.temporaryDirectory.appendingPathComponent("wallet-host-shared-\(UUID().uuidString)")
        defer { TemporaryDirectory(existing: state).remove() }
        let apps = ExampleBundles.directory.path
        let open = try start(["app", "open", "SampleIssuer", "--apps", apps, "--state", state.path])
        open.waitUntilExit()
        #expect(open.terminationStatus == 0)

        let script = state.appendingPathComponent("user.json")
        try Data(#"{"answers": [{"action": "Log In", "values": {"username": "jappleseed", "password": "wallet-demo"}}]}"#.utf8)
            .write(to: script)
        var processes: [Process] = []
        for device in ["iphone", "watch"] {
            processes.append(try start(["add-card", "--apps", apps, "--state", state.path, "--issuer", "SampleIssuer",
                                        "--device", device, "--user-agent", script.path,
                                        "--deadline", "status=5s"]))
        }
        // Two shell loops adding passes one by one, each `passes add` its own process.
        for writer in 0..<2 {
            let loop = Process()
            loop.executableURL = URL(fileURLWithPath: "/bin/sh")
            loop.arguments = ["-c", "for i in $(seq 1 15); do \"$0\" passes add MANUAL-\(writer)-$i --state \"$1\" >/dev/null || exit 1; done",
                              BuildProducts.walletHost.path, state.path]
            try loop.run()
            processes.append(loop)
        }
        for process in processes { process.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 }, "\(processes.map(\.terminationStatus))")

        let passes = try SimulatedDevice(state: StateDirectory(url: state)).passes()
        #expect(passes.filter { $0.primaryAccountIdentifier.hasPrefix("MANUAL-") }.count == 30)
        #expect(passes.filter { $0.primaryAccountIdentifier.hasPrefix("FPANID-") && $0.device == .iphone }.count == 3)
        #expect(passes.filter { $0.primaryAccountIdentifier.hasPrefix("FPANID-") && $0.device == .watch }.count == 3)
    }
}
