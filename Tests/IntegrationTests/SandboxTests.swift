import Foundation
import Testing
import WalletHostRuntime
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The sandbox against real hostile extensions (scripts as `.appex` executables): what they
/// start dies with them, they are bounded as root, and they see only their own bundle,
/// containers and a private /tmp. Each also runs with `--sandbox off` where that shows the
/// test can fail.
@Suite("Sandbox: hostile extensions", .serialized,
       .enabled(if: KernelNamespaces.available, "the kernel refuses the namespaces the sandbox needs"))
struct SandboxTests {
    /// Starts a `setsid` double-forked daemon (`sleep 600.TOKEN`, adopted by PID 1 once its
    /// parent exits), waits until it runs, then exits.
    static let daemonScript = """
        #!/bin/sh
        setsid sh -c '(sleep 600.@TOKEN@ &); echo started > "@OWN@/daemon"' &
        while [ ! -s "@OWN@/daemon" ]; do sleep 0.01; done
        exit 0
        """

    @Test("a setsid double-forked daemon is gone once the extension has stopped", arguments: [SandboxMode.auto, .off])
    func daemonDiesWithTheExtension(mode: SandboxMode) async throws {
        let hostile = try HostileExtension(script: Self.daemonScript)
        defer { hostile.cleanUp() }
        // The sandbox alone: the extension's control group would kill the daemon too (ExtensionLimitsTests).
        let (runner, events) = hostile.runner(sandbox: mode) { $0.controlGroups = .off }
        _ = await runner.prewarm()
        await runner.stop()
        try #require(hostile.containerFile("daemon") == "started", "the daemon never started")
        if mode == .off {
            // Without the sandbox the daemon outlives the extension: the test can fail.
            #expect(!hostile.processesWithToken.isEmpty)
        } else {
            #expect(events.events(.spawn).first?.message.hasSuffix(", sandboxed") == true)
            try await waitFor("the daemon gone", timeout: .seconds(3)) { hostile.processesWithToken.isEmpty }
        }
    }

    /// Leaves a child in its own process group, then becomes a long sleep itself.
    static let childScript = """
        #!/bin/sh
        sleep 600.@TOKEN@ &
        exec sleep 601.@TOKEN@
        """

    @Test("a child left behind when wallet-host is SIGKILLed is gone", arguments: ["auto", "off"])
    func childDiesWithAKilledHost(mode: String) async throws {
        let hostile = try HostileExtension(script: Self.childScript)
        defer { hostile.cleanUp() }
        // A real bundle for wallet-host call: the test helper's, its executable replaced by the script.
        let appex = try ExampleBundles.testHelper(mode: "normal")
        defer { try? FileManager.default.removeItem(at: appex.deletingLastPathComponent().deletingLastPathComponent()) }
        let executable = appex.appendingPathComponent("TestHelperExt")
        try FileManager.default.removeItem(at: executable)
        try FileManager.default.copyItem(at: hostile.executable, to: executable)
        let host = Process()
        host.executableURL = BuildProducts.walletHost
        host.arguments = ["call", appex.path, "status", "--state", hostile.state.path, "--sandbox", mode,
                          "--deadline", "status=60s"]
        host.standardOutput = FileHandle.nullDevice
        host.standardError = FileHandle.nullDevice
        try host.run()
        try await waitFor("both sleeps running", timeout: .seconds(10)) { hostile.processesWithToken.count == 2 }
        kill(host.processIdentifier, SIGKILL)
        host.waitUntilExit()
        if mode == "off" {
            // PR_SET_PDEATHSIG reaches the direct child only: its own child lives on. Nothing
            // else kills it once the host is gone, so it is still there when its parent is.
            try await waitFor("the direct child gone", timeout: .seconds(3)) { hostile.processesWithToken.count <= 1 }
            #expect(hostile.processesWithToken.count == 1)
        } else {
            try await waitFor("every process gone", timeout: .seconds(3)) { hostile.processesWithToken.isEmpty }
        }
    }

    /// Forks children that sleep until fork fails or 100 are running, writes the count, exits.
    static let forkBombScript = """
        #!/usr/bin/python3
        import os, time
        count = 0
        for _ in range(100):
            try:
                pid = os.fork()
            except OSError:
                break
            if pid == 0:
                time.sleep(60)
                os._exit(0)
            count += 1
        with open("@OWN@/forks", "w") as f:
            f.write(str(count))
        """

    @Test("a fork bomb run by a root host stops at RLIMIT_NPROC and dies with the extension",
          .enabled(if: geteuid() == 0, "only a root host switches the extension to an unprivileged user"),
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"),
          arguments: [SandboxMode.auto, .off])
    func forkBombIsBounded(mode: SandboxMode) async throws {
        let hostile = try HostileExtension(script: Self.forkBombScript)
        defer { hostile.cleanUp() }
        // RLIMIT_NPROC counts every task of the user, so the limit leaves room for those of the
        // unprivileged user that already run (another daemon's warm extensions, say): without
        // it, 24 of them left the bomb's own launch no room.
        let alreadyRunning = Self.tasks(ofUser: SandboxPlan.unprivilegedID)
        let (runner, _) = hostile.runner(sandbox: mode) { $0.processLimitOverride = alreadyRunning + 24 }
        _ = await runner.prewarm()
        try await waitFor("the count written", timeout: .seconds(20)) { hostile.containerFile("forks") != nil }
        let forks = try #require(Int(hostile.containerFile("forks") ?? ""))
        await runner.stop()
        if mode == .off {
            // As root, RLIMIT_NPROC bounds nothing: every fork succeeded.
            #expect(forks == 100)
        } else {
            #expect(forks < 24)
            try await waitFor("every child gone", timeout: .seconds(5)) { hostile.processesRunningScript.isEmpty }
        }
    }

    /// The tasks (threads included, as `RLIMIT_NPROC` counts them) that `uid` runs now.
    static func tasks(ofUser uid: UInt32) -> Int {
        let processes = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return processes.filter { $0.allSatisfy(\.isNumber) }.reduce(0) { count, pid in
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return count }
            let fields = Dictionary(status.split(separator: "\n").compactMap { line -> (Substring, Substring)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (line[..<colon], line[line.index(after: colon)...])
            }, uniquingKeysWith: { first, _ in first })
            // "Uid:" lists the real, effective, saved and filesystem ids; the real one is counted.
            guard fields["Uid"]?.split(whereSeparator: \.isWhitespace).first == Substring(String(uid)) else { return count }
            return count + (fields["Threads"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 1)
        }
    }

    /// Tries everything an extension should not reach, by `..` from its container and by absolute
    /// path, and the few things it should; writes the answers into its own container.
    static let probeScript = """
        #!/usr/bin/python3
        import json, os
        own = "@OWN@"
        def readable(path):
            try:
                with open(path, "rb") as f:
                    f.read(1)
                return True
            except OSError:
                return False
        def writable(path):
            try:
                with open(path, "w") as f:
                    f.write("x")
                return True
            except OSError:
                return False
        def listing(path):
            try:
                return sorted(os.listdir(path))
            except OSError:
                return None
        results = {
            "passesByDotDot": readable(own + "/../../passes.json"),
            "passes": readable("@STATE@/passes.json"),
            "device": readable(own + "/../../device.json"),
            "events": readable(own + "/../../logs/events.jsonl"),
            "otherContainer": readable(own + "/../group.com.example.otherbank/secret.txt"),
            "otherContainerAbsolute": readable("@OTHER@/secret.txt"),
            "otherBundle": readable("@OTHERBUNDLE@/Info.plist"),
            "appGroups": listing(own + "/.."),
            "hostTmpFile": readable("/tmp/wallet-host-sandbox-probe-@TOKEN@"),
            "bundleWritable": writable("@BUNDLE@/planted"),
            "ownContainerWritable": writable(own + "/written"),
            "tmpWritable": writable("/tmp/extension-@TOKEN@"),
            "ownBundleReadable": readable("@BUNDLE@/hostile"),
            "pid": os.getpid(),
            "uid": os.getuid(),
        }
        with open(own + "/results.json", "w") as f:
            json.dump(results, f)
        """

    @Test("an extension probing '..' paths sees only its bundle, its own container and a private /tmp",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"),
          arguments: [SandboxMode.auto, .off])
    func probeSeesOnlyItsOwn(mode: SandboxMode) async throws {
        let hostile = try HostileExtension(script: Self.probeScript)
        defer { hostile.cleanUp() }
        let hostTmpFile = "/tmp/wallet-host-sandbox-probe-\(hostile.token)"
        try Data("host".utf8).write(to: URL(fileURLWithPath: hostTmpFile))
        defer {
            unlink(hostTmpFile)
            unlink("/tmp/extension-\(hostile.token)")
        }
        let (runner, events) = hostile.runner(sandbox: mode)
        _ = await runner.prewarm()
        await runner.stop()
        let text = try #require(hostile.containerFile("results.json"), "the probe wrote no results")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        if mode == .off {
            // Without the sandbox: the state directory is one `..` away.
            #expect(results["passesByDotDot"] as? Bool == true)
            #expect(results["otherContainer"] as? Bool == true)
            return
        }
        for key in ["passesByDotDot", "passes", "device", "events", "otherContainer", "otherContainerAbsolute",
                    "otherBundle", "hostTmpFile", "bundleWritable"] {
            #expect(results[key] as? Bool == false, "\(key)")
        }
        #expect(results["appGroups"] as? [String] == ["group.com.example.hostile"])
        #expect(results["ownContainerWritable"] as? Bool == true)
        #expect(results["ownBundleReadable"] as? Bool == true)
        #expect(results["tmpWritable"] as? Bool == true)
        #expect(!FileManager.default.fileExists(atPath: "/tmp/extension-\(hostile.token)"), "its /tmp is the host's")
        // PID 2: the sandbox init is PID 1 of the extension's namespace.
        #expect(results["pid"] as? Int == 2)
        if geteuid() == 0 { #expect(results["uid"] as? Int == Int(SandboxPlan.unprivilegedID)) }
        let spawn = try #require(events.events(.spawn).first)
        #expect(spawn.spawn?.sandboxed == true, "\(spawn.message)")
    }

    @Test("without its init the launch fails closed, in auto as in required, naming the init",
          arguments: [SandboxMode.auto, .required])
    func missingInit(mode: SandboxMode) async throws {
        let hostile = try HostileExtension(script: "#!/bin/sh\nexit 0\n")
        defer { hostile.cleanUp() }
        let missing = hostile.root.url.appendingPathComponent("no-such-init").path
        let (runner, events) = hostile.runner(sandbox: mode) { $0.sandboxInitPath = missing }
        let result = await runner.prewarm()
        let error = try #require(result.failureValue, "the launch did not fail: an extension ran without its sandbox")
        #expect(error.message.contains("the sandbox init \(missing) is missing or not executable"), "\(error.message)")
        #expect(events.events(.spawn).isEmpty)
        #expect(events.events(.spawnFailed).count == 1)
    }
}
