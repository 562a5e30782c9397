import Foundation
import Testing
import Wallet
import WalletHostRuntime
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The breaks an adversarial run found in the sandbox, each replayed by a real hostile
/// extension (or containing app): links planted in a container, a sandbox that failed open,
/// SysV shared memory that outlived it, an init the extension could ptrace, nested namespaces,
/// unbounded container writes.
@Suite("Sandbox: it holds against what broke it", .serialized, .timeLimit(.minutes(3)),
       .enabled(if: KernelNamespaces.available, "the kernel refuses the namespaces the sandbox needs"))
struct SandboxHoldsTests {
    /// A directory of the host's the extension aims its link at: root's, with a file in it.
    static func makeVictim(in hostile: HostileExtension) throws -> URL {
        let victim = hostile.root.url.appendingPathComponent("victim")
        try FileManager.default.createDirectory(at: victim, withIntermediateDirectories: true)
        try Data("original".utf8).write(to: victim.appendingPathComponent("file"))
        _ = chmod(victim.path, 0o700)
        return victim
    }

    static func owner(_ path: String) -> uid_t? {
        var status = stat()
        return lstat(path, &status) == 0 ? status.st_uid : nil
    }

    /// Replaces its container's `Library/Preferences` with a link to the victim, then exits.
    static let plantPreferencesLink = """
        #!/bin/sh
        rm -rf "@OWN@/Library/Preferences"
        ln -s "@VICTIM@" "@OWN@/Library/Preferences"
        echo planted > "@OWN@/planted"
        """

    @Test("a link planted at Library/Preferences fails the next launch, naming it; its target is neither shown, written nor chowned",
          arguments: [SandboxMode.auto, .off])
    func plantedPreferencesLink(mode: SandboxMode) async throws {
        let hostile = try HostileExtension(script: Self.plantPreferencesLink)
        defer { hostile.cleanUp() }
        let victim = try Self.makeVictim(in: hostile)
        try hostile.rewriteScript { $0.replacingOccurrences(of: "@VICTIM@", with: victim.path) }
        let (runner, events) = hostile.runner(sandbox: mode)
        _ = await runner.prewarm()
        try #require(hostile.containerFile("planted") == "planted", "the extension did not plant its link")
        let ownerBefore = Self.owner(victim.path)
        // The next launch, by a host that starts afresh (as the next `wallet-host call` does) and
        // by the same runner: both refuse.
        let (freshRunner, freshEvents) = hostile.runner(sandbox: mode)
        let freshError = try #require(await freshRunner.prewarm().failureValue,
                                      "a fresh host launched the extension with the planted link")
        #expect(freshError.message.contains("is a symbolic link"), "\(freshError.message)")
        #expect(freshEvents.events(.spawn).isEmpty)
        let second = await runner.prewarm()
        let error = try #require(second.failureValue, "the launch after the planted link did not fail")
        let link = hostile.ownContainer.appendingPathComponent("Library/Preferences").path
        #expect(error.message.contains("\(link) is a symbolic link"), "\(error.message)")
        let failure = try #require(events.events(.spawnFailed).last)
        #expect(failure.message.contains(link), "\(failure.message)")
        // Never given away, never written into.
        #expect(Self.owner(victim.path) == ownerBefore)
        #expect(Self.owner(victim.path) == geteuid())
        #expect(try FileManager.default.contentsOfDirectory(atPath: victim.path) == ["file"])
    }

    /// A containing app (the Python issuer's bundle, its executable replaced): says who it runs
    /// as and whether it reads the pass library, and writes through a link planted beside its
    /// defaults.
    static let hostileApp = """
        #!/bin/sh
        container=$(dirname "$(dirname "$XDG_CONFIG_HOME")")
        id -u > "$container/app-uid"
        if cat "@STATE@/secret.txt" >/dev/null 2>&1; then echo yes; else echo no; fi > "$container/app-read-state"
        echo overwritten > "$XDG_CONFIG_HOME/victim-link" 2>/dev/null
        exit 0
        """

    @Test("a containing app runs sandboxed: it sees no state, and a link planted in its container leads nowhere")
    func containingAppIsSandboxed() throws {
        let hostile = try HostileExtension(script: "#!/bin/sh\nexit 0\n")
        defer { hostile.cleanUp() }
        let apps = hostile.root.url.appendingPathComponent("InstalledApps")
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        let appURL = apps.appendingPathComponent("PythonIssuer.app")
        try FileManager.default.copyItem(at: ExampleBundles.pythonIssuerApp, to: appURL)
        let app = try #require(InstalledApps(directory: apps).apps.first)
        let executable = try #require(app.executableURL)
        try FileManager.default.removeItem(at: executable)
        try Data(Self.hostileApp.replacingOccurrences(of: "@STATE@", with: hostile.state.path).utf8).write(to: executable)
        _ = chmod(executable.path, 0o755)
        // The state as the host keeps it, with a secret in it the app must not see.
        for name in ["passes.json", "device.json"] { try FileManager.default.removeItem(at: hostile.state.appendingPathComponent(name)) }
        try Data("state secret".utf8).write(to: hostile.state.appendingPathComponent("secret.txt"))
        let victim = hostile.root.url.appendingPathComponent("victim-file")
        try Data("original".utf8).write(to: victim)
        let state = StateDirectory(url: hostile.state)
        let device = SimulatedDevice(state: state)
        // The link, planted (as an extension of the app would) where the app writes its defaults.
        let group = try #require(app.appGroups.sorted().first)
        let container = try state.appGroupContainer(group, team: app.team).path
        try ContainerDirectory.ensure(container, ["Library", "Preferences"])
        try FileManager.default.createSymbolicLink(atPath: container + "/Library/Preferences/victim-link",
                                                   withDestinationPath: victim.path)
        _ = try AppLauncher(device: device).open(app)
        let uid = try String(contentsOfFile: container + "/app-uid", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(uid == (geteuid() == 0 ? "\(SandboxPlan.unprivilegedID)" : "\(geteuid())"))
        #expect(try String(contentsOfFile: container + "/app-read-state", encoding: .utf8) == "no\n")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "original")
    }

    @Test("a launch whose sandbox setup fails fails alone: the next launch is sandboxed again")
    func setupFailureDoesNotTurnTheSandboxOff() async throws {
        let hostile = try HostileExtension(script: "#!/bin/sh\nexit 0\n")
        defer { hostile.cleanUp() }
        // 256 KB of data for the init and the shell: the init cannot even start.
        let (starved, starvedEvents) = hostile.runner(sandbox: .auto) { $0.memoryLimitOverride = 256 << 10 }
        _ = await starved.prewarm()
        // Whatever happened to it, it never ran unsandboxed.
        for event in starvedEvents.events(.spawn) {
            #expect(event.spawn?.sandboxed == true, "\(event.message)")
        }
        let (runner, events) = hostile.runner(sandbox: .auto)
        _ = await runner.prewarm()
        let spawn = try #require(events.events(.spawn).first)
        #expect(spawn.spawn?.sandboxed == true, "\(spawn.message)")
        #expect(SandboxStatus.refusal == nil)
    }

    /// Makes a 1 MiB SysV shared memory segment with `@KEY@`, mode 666, and says so.
    static let sharedMemoryScript = """
        #!/usr/bin/python3
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        shmid = libc.shmget(@KEY@, 1 << 20, 0o1666)
        with open("@OWN@/shm", "w") as f:
            f.write("created" if shmid >= 0 else "failed %d" % ctypes.get_errno())
        """

    static func hostHasSegment(key: Int32) -> Bool {
        let table = (try? String(contentsOfFile: "/proc/sysvipc/shm", encoding: .utf8)) ?? ""
        return table.split(separator: "\n").dropFirst().contains { $0.split(separator: " ").first == Substring("\(key)") }
    }

    @Test("SysV shared memory made by an extension dies with it (its own IPC namespace)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"),
          arguments: [SandboxMode.auto, .off])
    func sharedMemoryDiesWithTheExtension(mode: SandboxMode) async throws {
        let key = Int32.random(in: 0x1000_0000...0x3fff_ffff)
        let hostile = try HostileExtension(script: Self.sharedMemoryScript.replacingOccurrences(of: "@KEY@", with: "\(key)"))
        defer {
            hostile.cleanUp()
            let remove = Process()
            remove.executableURL = URL(fileURLWithPath: "/usr/bin/ipcrm")
            remove.arguments = ["-M", "\(key)"]
            remove.standardError = FileHandle.nullDevice
            try? remove.run()
            remove.waitUntilExit()
        }
        let (runner, _) = hostile.runner(sandbox: mode)
        _ = await runner.prewarm()
        await runner.stop()
        try #require(hostile.containerFile("shm") == "created", "the extension made no segment: \(hostile.containerFile("shm") ?? "nothing")")
        // Without its own IPC namespace the segment outlives the extension: the test can fail.
        #expect(Self.hostHasSegment(key: key) == (mode == .off))
    }

    /// Tries to ptrace its init, to make a user namespace (system call and command), starts a
    /// thread (glibc's clone3 falls back to clone), then exits 7.
    static let escapeScript = """
        #!/usr/bin/python3
        import ctypes, json, os, subprocess, threading
        libc = ctypes.CDLL(None, use_errno=True)
        out = {}
        out["ptraceInit"] = 0 if libc.ptrace(16, 1, 0, 0) == 0 else ctypes.get_errno()
        out["unshareUser"] = 0 if libc.unshare(0x10000000 | 0x00020000) == 0 else ctypes.get_errno()
        out["unshareCommand"] = subprocess.run(["/usr/bin/unshare", "-Urm", "/bin/true"], capture_output=True).returncode
        thread = threading.Thread(target=lambda: None)
        thread.start()
        thread.join()
        out["thread"] = True
        with open("@OWN@/escape.json", "w") as f:
            json.dump(out, f)
        os._exit(7)
        """

    @Test("an extension can neither ptrace its init nor make nested namespaces; threads still work and its exit is exact",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
    func noPtraceNoNestedNamespaces() async throws {
        let hostile = try HostileExtension(script: Self.escapeScript)
        defer { hostile.cleanUp() }
        let (runner, events) = hostile.runner(sandbox: .auto)
        _ = await runner.prewarm()
        let text = try #require(hostile.containerFile("escape.json"), "the extension wrote nothing")
        let results = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(results["ptraceInit"] as? Int == Int(EPERM), "\(results)")
        #expect(results["unshareUser"] as? Int == Int(EPERM), "\(results)")
        #expect(results["unshareCommand"] as? Int != 0, "\(results)")
        #expect(results["thread"] as? Bool == true)
        let exit = try #require(events.events(.exit).first)
        #expect(exit.message.contains("exited with status 7"), "\(exit.message)")
    }

    /// Writes one file past the quota, then many small ones that together pass it, then waits.
    static let fillContainerScript = """
        #!/bin/sh
        dd if=/dev/zero of="@OWN@/big" bs=1M count=8 2>/dev/null
        echo $? > "@OWN@/big.status"
        i=0
        while [ $i -lt 8 ]; do dd if=/dev/zero of="@OWN@/part$i" bs=1M count=1 2>/dev/null; i=$((i+1)); done
        exec sleep 30
        """

    @Test("container writes are bounded: no file past the quota, and an extension whose containers pass it is stopped, named")
    func containerQuota() async throws {
        let hostile = try HostileExtension(script: Self.fillContainerScript)
        defer { hostile.cleanUp() }
        let quota = 4 << 20
        let (runner, events) = hostile.runner(sandbox: .auto) {
            $0.containerQuotaBytes = quota
            $0.handshakeTimeout = .seconds(20)
        }
        let started = ContinuousClock.now
        _ = await runner.prewarm()
        #expect(ContinuousClock.now - started < .seconds(10), "the extension was not stopped at its quota")
        // The one large file stopped at the limit (SIGXFSZ ends dd: 128 + 25).
        #expect(hostile.containerFile("big.status") != "0")
        let size = (try? FileManager.default.attributesOfItem(atPath: hostile.ownContainer.appendingPathComponent("big").path)[.size] as? Int) ?? 0
        #expect(size <= quota)
        let stop = try #require(events.events(.exit).first { $0.message.contains("over its container quota") },
                                "\(events.events.map(\.message))")
        #expect(stop.message.contains("hostile["), "\(stop.message)")
    }

    @Test("a bundle rebuilt between launches is what the next launch runs, whether the root is copied or built each time",
          arguments: [true, false])
    func rebuiltBundleIsSeen(reusesRoot: Bool) async throws {
        // Outside /tmp, where the bundle is part of the copied root (under /tmp it is shown anew at each launch).
        let hostile = try HostileExtension(script: "#!/bin/sh\necho first > \"@OWN@/ran\"\n", in: URL(fileURLWithPath: "/var/tmp"))
        defer { hostile.cleanUp() }
        try #require(!hostile.bundle.path.hasPrefix("/tmp/"))
        let (runner, _) = hostile.runner(sandbox: .auto) { $0.sandboxReusesRoot = reusesRoot }
        // Twice: the second launch of a plan is the one that builds its template.
        _ = await runner.prewarm()
        try FileManager.default.removeItem(at: hostile.ownContainer.appendingPathComponent("ran"))
        _ = await runner.prewarm()
        #expect(hostile.containerFile("ran") == "first")
        // Rebuilt as a build tool does: a new directory in the old one's place.
        let text = try String(contentsOf: hostile.executable, encoding: .utf8).replacingOccurrences(of: "first", with: "second")
        try FileManager.default.removeItem(at: hostile.bundle)
        try FileManager.default.createDirectory(at: hostile.bundle, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: hostile.executable)
        _ = chmod(hostile.executable.path, 0o755)
        let (next, _) = hostile.runner(sandbox: .auto) { $0.sandboxReusesRoot = reusesRoot }
        _ = await next.prewarm()
        #expect(hostile.containerFile("ran") == "second")
    }

    @Test("/sys is shown without the host's control groups mounted under it (a root host)",
          .enabled(if: geteuid() == 0, "a user namespace shows /sys with what is mounted under it"),
          .enabled(if: !((try? FileManager.default.contentsOfDirectory(atPath: "/sys/fs/cgroup")) ?? []).isEmpty,
                   "the host has nothing mounted under /sys/fs/cgroup"))
    func sysWithoutControlGroups() async throws {
        let hostile = try HostileExtension(script: """
            #!/bin/sh
            ls /sys/fs/cgroup | wc -l > "@OWN@/cgroups"
            ls /sys/devices/system/cpu | grep -c '^cpu[0-9]' > "@OWN@/cpus"
            """)
        defer { hostile.cleanUp() }
        let (runner, _) = hostile.runner(sandbox: .auto)
        _ = await runner.prewarm()
        #expect(hostile.containerFile("cgroups") == "0")
        // sysfs itself is there: the processors glibc counts for sysconf.
        #expect(Int(hostile.containerFile("cpus") ?? "") ?? 0 > 0)
    }
}
