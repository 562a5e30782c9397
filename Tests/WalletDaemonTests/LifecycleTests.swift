import Foundation
import Testing
import WalletDaemon
import WalletTestSupport
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's life with a real `wallet-host serve`: its socket, its lock, its stop.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct LifecycleTests {
    @Test func servesOnAMode0600SocketAndStopsCleanlyOnSIGTERM() async throws {
        let daemon = try await DaemonProcess().waitUntilServing()
        var info = stat()
        #expect(lstat(daemon.socketPath, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect((info.st_mode & S_IFMT) == S_IFSOCK)
        let status = try DaemonClient.decode(DaemonAPI.Status.self, from: try await daemon.call("host.status"))
        #expect(status.pid == daemon.pid)
        #expect(status.stateDirectory == daemon.state.standardizedFileURL.path)
        #expect(status.socket == daemon.socketPath)

        daemon.signal(SIGTERM)
        #expect(try await daemon.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath), "the socket is removed at a normal stop")
        #expect(daemon.standardError.contains("stopped"))
    }

    @Test func aSecondDaemonOnTheSameStateDirectorySaysWhichPidHoldsIt() async throws {
        let first = try await DaemonProcess().waitUntilServing()
        let second = try DaemonProcess(apps: first.apps, state: first.state)
        #expect(try await second.waitForExit(timeout: .seconds(10)) == 1)
        #expect(second.standardError.contains("pid \(first.pid)"), "\(second.standardError)")
        #expect(second.standardError.contains(first.state.path))
        // The first one still serves.
        _ = try await first.call("host.status")
        first.signal(SIGINT)
        #expect(try await first.waitForExit() == 0)
    }

    @Test func aStaleSocketFromAKilledDaemonDoesNotStopTheNextStart() async throws {
        let killed = try await DaemonProcess().waitUntilServing()
        killed.signal(SIGKILL)
        _ = try await killed.waitForExit()
        #expect(FileManager.default.fileExists(atPath: killed.socketPath), "SIGKILL leaves the socket file behind")
        #expect(throws: DaemonError.self) { try DaemonClient(connectingTo: killed.socketPath) }

        let next = try await DaemonProcess(apps: killed.apps, state: killed.state).waitUntilServing()
        let status = try DaemonClient.decode(DaemonAPI.Status.self, from: try await next.call("host.status"))
        #expect(status.pid == next.pid)
        next.signal(SIGTERM)
        #expect(try await next.waitForExit() == 0)
    }

    @Test func aSIGKILLedDaemonLeavesNoExtensionRunning() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp, ExampleBundles.sampleIssuerApp])
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--keep-warm"]).waitUntilServing()
        var pids: [Int32] = []
        try await waitFor("both non-UI extensions warm") {
            pids = try await daemon.processes().compactMap(\.pid)
            return pids.count == 2
        }
        #expect(pids.allSatisfy(processExists))
        daemon.signal(SIGKILL)
        _ = try await daemon.waitForExit()
        try await waitFor("every extension gone after the daemon's SIGKILL", timeout: .seconds(5)) {
            !pids.contains(where: processExists)
        }
    }

    /// As root, a client of another uid is run with setpriv; the system's python3 is the client
    /// (a pyenv shim under /root cannot be run by nobody).
    @Test(.enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
                   && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
                   "needs root, /usr/bin/setpriv and /usr/bin/python3 to run a client as another user"))
    func aClientOfAnotherUserIsRefused() async throws {
        let python = "/usr/bin/python3"
        let daemon = try await DaemonProcess().waitUntilServing()
        // Mode 0600 already keeps other users out; open it up to reach the SO_PEERCRED check behind it.
        chmod(daemon.socketPath, 0o666)
        chmod(daemon.state.path, 0o755)
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            s.connect(sys.argv[1])
            s.sendall(b'{"jsonrpc":"2.0","id":1,"method":"host.status"}\\n')
            print(s.makefile().readline().strip())
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", python, "-c", script, daemon.socketPath]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(answer.contains("serves only uid 0"), "\(answer)")
        #expect(!answer.contains("\"result\""))
        let status = try DaemonClient.decode(DaemonAPI.Status.self, from: try await daemon.call("host.status"))
        #expect(status.refusedPeers == 1)
    }

    @Test func withoutKeepWarmAnExtensionStopsAfterTheIdleTimeout() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--idle-timeout", "300ms"]).waitUntilServing()
        let appex = apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex").path
        // The first call launches the process; the others take the warm path, which restarts
        // the idle clock without a task of its own.
        for _ in 0..<3 {
            let answer = try await daemon.call("extension.call", .object(["appex": .string(appex), "method": .string("status")]))
            #expect(answer["succeeded"] == .bool(true))
        }
        let listing = try await daemon.process("com.example.testhelper.TestHelperExt")
        #expect(listing?.pid != nil)
        // The call's `result` event, which ends "busy" in the table, is recorded just after the
        // answer is written: a listing read at once may still see the call.
        #expect(listing?.state == "idle" || listing?.state == "busy", "\(listing?.state ?? "no listing")")
        try await waitFor("stopped after 300 ms idle", timeout: .seconds(3)) {
            try await daemon.process("com.example.testhelper.TestHelperExt")?.state == "stopped"
        }
    }
}

