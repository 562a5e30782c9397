import Foundation
import Testing
import WalletHostRuntime
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A host that is not root has no control groups: each sandboxed extension gets a user
/// namespace of its own, where the kernel (5.14 and later) counts `RLIMIT_NPROC` per namespace,
/// so 256 there bounds that extension alone. Run with `wallet-host` as another user (setpriv).
@Suite("Extension limits: a host that is not root", .serialized, .timeLimit(.minutes(2)),
       .enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                "runs wallet-host as another user with setpriv"),
       .enabled(if: KernelNamespaces.available, "the kernel refuses the namespaces the sandbox needs"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
struct UnprivilegedHostLimitsTests {
    /// A user of no one else's, so that no other process counts toward it.
    static let user: uid_t = 64_000
    static let launcher = ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups"]

    /// Forks `sleep`s carrying the token until fork fails (or 5,000 run), then waits.
    static let forkBombScript = """
        #!/usr/bin/python3
        import os, time
        for _ in range(5000):
            try:
                pid = os.fork()
            except OSError:
                break
            if pid == 0:
                try:
                    os.execv("/bin/sleep", ["sleep", "60.@TOKEN@"])
                finally:
                    os._exit(0)
        time.sleep(60)
        """

    @Test("a fork bomb stops at 256 tasks in its user namespace, and another call of the same user still answers")
    func forkBombIsBoundedPerUserNamespace() async throws {
        let token = String(UInt32.random(in: 100_000...999_999))
        let root = try TemporaryDirectory(prefix: "wallet-host-unprivileged")
        defer { root.remove() }
        _ = chown(root.url.path, Self.user, Self.user)
        let bomb = try Self.helperBundle(executable: Self.forkBombScript.replacingOccurrences(of: "@TOKEN@", with: token))
        let helper = try ExampleBundles.testHelper(mode: "normal")
        defer {
            for appex in [bomb, helper] {
                try? FileManager.default.removeItem(at: appex.deletingLastPathComponent().deletingLastPathComponent())
            }
        }
        let host = Process()
        host.executableURL = URL(fileURLWithPath: Self.launcher[0])
        host.arguments = Array(Self.launcher.dropFirst()) + [
            BuildProducts.walletHost.path, "call", bomb.path, "status", "--state", try Self.state("bomb", in: root),
            "--sandbox", "required", "--deadline", "status=60s",
            // The tasks are under test, not the memory: without control groups every process's
            // footprint counts, and a child that has not exec'd yet shares the script's 8 MB.
            "--memory-limit", "512MB",
        ]
        host.standardOutput = FileHandle.nullDevice
        host.standardError = FileHandle.nullDevice
        try host.run()
        defer {
            kill(host.processIdentifier, SIGKILL)
            host.waitUntilExit()
            for pid in HostileExtension.processes(containing: token) { kill(pid, SIGKILL) }
        }
        // Until the count stops growing: fork failed.
        var counts: [Int] = []
        try await waitFor("the bomb's sleeps to stop growing", timeout: .seconds(60)) {
            counts.append(HostileExtension.processes(containing: token).count)
            if counts.count < 4 { usleep(100_000) }
            return counts.count >= 4 && counts.suffix(4).allSatisfy { $0 == counts.last && $0 > 0 }
        }
        let sleeps = try #require(counts.last)
        // The init and the script count too: 254 sleeps at most.
        #expect(sleeps <= ProcessLimits.tasksPerExtension - 2, "the bomb made \(sleeps) processes")

        let run = try WalletHostCommand.run(["call", helper.path, "status", "--state", try Self.state("other", in: root),
                                             "--sandbox", "required", "--deadline", "status=10s"], launcher: Self.launcher)
        #expect(run.status == 0, "\(run.standardOutput) \(run.standardError)")
    }

    /// The test helper's bundle with `executable` (a script) in place of its executable.
    static func helperBundle(executable: String) throws -> URL {
        let appex = try ExampleBundles.testHelper(mode: "normal")
        let path = appex.appendingPathComponent("TestHelperExt")
        try FileManager.default.removeItem(at: path)
        try Data(executable.utf8).write(to: path)
        _ = chmod(path.path, 0o755)
        return appex
    }

    /// A state directory the host's user owns.
    static func state(_ name: String, in root: TemporaryDirectory) throws -> String {
        let state = root.url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        _ = chown(state.path, user, user)
        return state.path
    }
}
