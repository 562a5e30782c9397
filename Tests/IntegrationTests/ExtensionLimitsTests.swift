import Foundation
import Testing
import WalletHostRuntime
import WalletHostTestSupport
import WalletTestSupport
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// The memory limit and the task bound hold for everything an extension runs (its children,
/// shared memory, tmpfs pages), against real hostile extensions. With control groups
/// (`auto`, a root host) and without them (`off`: every process of the extension counted one by
/// one, plus its private /tmp).
@Suite("Extension limits: everything an extension runs", .serialized, .timeLimit(.minutes(2)),
       .enabled(if: KernelNamespaces.available, "the kernel refuses the namespaces the sandbox needs"),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
struct ExtensionLimitsTests {
    /// Whether this host gets control groups (root, with the v1 memory and pids hierarchies).
    static let controlGroupsAvailable = geteuid() == 0 && ControlGroups.hostDirectories != nil

    /// Twelve children, each holding 10 MB it wrote; the extension itself holds little.
    static let twelveChildrenScript = """
        #!/usr/bin/python3
        import os, time
        for _ in range(12):
            if os.fork() == 0:
                block = bytearray(10 << 20)
                for i in range(0, len(block), 4096):
                    block[i] = 1
                time.sleep(60)
                os._exit(0)
        time.sleep(60)
        """

    @Test("twelve children of 10 MB each are killed at the limit, and the report names the total and the processes",
          arguments: [ControlGroupMode.auto, .off])
    func childrenCountTowardTheLimit(controlGroups: ControlGroupMode) async throws {
        let hostile = try HostileExtension(script: Self.twelveChildrenScript)
        defer { hostile.cleanUp() }
        let (runner, events) = hostile.runner(sandbox: .auto) { $0.controlGroups = controlGroups }
        _ = await runner.prewarm()
        let (kill, _) = try #require(Self.memoryKill(in: events), "no memoryKill: the children's memory was not counted")
        let usage = try #require(kill.usage)
        #expect(kill.footprintBytes > 55 << 20)
        #expect(usage.totalBytes == kill.footprintBytes)
        #expect(usage.processes.count >= 3, "the extension and its children: \(usage.description)")
        #expect(usage.processes.contains { $0.name == "hostile" })
        #expect(usage.accounting == (controlGroups == .auto && Self.controlGroupsAvailable ? .controlGroup : .processes))
        let exit = try #require(Self.exit(in: events))
        #expect(exit.cause.isMemoryLimit, "not a memory death: \(exit.description)")
        #expect(exit.description.contains("exceeded mem limit: ActiveHard 55 MB (fatal): "))
        #expect(exit.description.contains("across \(usage.processes.count) processes: hostile["))
        try await waitFor("every child gone", timeout: .seconds(5)) { hostile.processesRunningScript.isEmpty }
    }

    /// Writes 100 MB into a file under `@DIRECTORY@` (a tmpfs: its pages are memory), or as much
    /// as it holds (the sandbox's private /tmp and /dev/shm are the memory limit's size), then waits.
    static let tmpfsScript = """
        #!/usr/bin/python3
        import time
        chunk = b"x" * (1 << 20)
        f = open("@DIRECTORY@/fill-@TOKEN@", "wb", buffering=0)
        try:
            for _ in range(100):
                f.write(chunk)
        except OSError:
            pass
        time.sleep(60)
        """

    struct TmpfsCase: Sendable, CustomTestStringConvertible {
        var directory: String
        var sandbox: SandboxMode
        var controlGroups: ControlGroupMode
        var testDescription: String { "\(directory), sandbox \(sandbox), control groups \(controlGroups)" }
    }

    static var tmpfsCases: [TmpfsCase] {
        [TmpfsCase(directory: "/tmp", sandbox: .auto, controlGroups: .auto),
         TmpfsCase(directory: "/tmp", sandbox: .auto, controlGroups: .off)]
            // The host's /dev/shm, unsandboxed: only a control group sees what is written there.
            + (controlGroupsAvailable ? [TmpfsCase(directory: "/dev/shm", sandbox: .off, controlGroups: .auto)] : [])
    }

    @Test("100 MB written to a tmpfs (its private /tmp, or /dev/shm) is killed at the limit", arguments: tmpfsCases)
    func tmpfsPagesCount(_ tmpfs: TmpfsCase) async throws {
        let hostile = try HostileExtension(script: Self.tmpfsScript.replacingOccurrences(of: "@DIRECTORY@", with: tmpfs.directory))
        defer {
            hostile.cleanUp()
            if tmpfs.directory == "/dev/shm" { unlink("/dev/shm/fill-\(hostile.token)") }
        }
        let (runner, events) = hostile.runner(sandbox: tmpfs.sandbox) { $0.controlGroups = tmpfs.controlGroups }
        _ = await runner.prewarm()
        let (kill, message) = try #require(Self.memoryKill(in: events), "no memoryKill: the tmpfs pages were not counted")
        let usage = try #require(kill.usage)
        // Unless the kernel's OOM killer, at the group's hard limit, ended the writer between two
        // samples (the sandbox's /tmp is gone with it).
        #expect(usage.sharedBytes > 20 << 20 || kill.kernelLimitBytes != nil, "\(usage.description)")
        #expect(message.contains("shared memory and /tmp"))
        let exit = try #require(Self.exit(in: events))
        #expect(exit.cause == .memoryLimit(footprintBytes: kill.footprintBytes))
    }

    /// Forks `sleep`s until fork fails (or 5,000 run), writes how many, and waits.
    static let forkBombScript = """
        #!/usr/bin/python3
        import os, time
        count = 0
        for _ in range(5000):
            try:
                pid = os.fork()
            except OSError:
                break
            if pid == 0:
                try:
                    os.execv("/bin/sleep", ["sleep", "60"])
                finally:
                    os._exit(0)
            count += 1
        with open("@OWN@/forks", "w") as f:
            f.write(str(count))
        time.sleep(60)
        """

    @Test("a fork bomb stops at 256 tasks, and another extension launched meanwhile starts and answers",
          .enabled(if: geteuid() == 0, "a root host runs every extension as one user"))
    func forkBombLeavesOthersAlone() async throws {
        let hostile = try HostileExtension(script: Self.forkBombScript)
        defer { hostile.cleanUp() }
        let (bomb, _) = hostile.runner(sandbox: .auto) { $0.controlGroups = .auto }
        let bombLaunch = Task { await bomb.prewarm() }
        try await waitFor("the bomb's count written", timeout: .seconds(60)) { Int(hostile.containerFile("forks") ?? "") != nil }
        let forks = try #require(Int(hostile.containerFile("forks") ?? ""))
        #expect(forks < ProcessLimits.tasksPerExtension, "the bomb made \(forks) processes")

        // Its processes still run: another issuer's extension, same user, starts and answers.
        let appex = try ExampleBundles.testHelper(mode: "normal")
        let (other, otherEvents, _) = try ExampleBundles.runner(appex: appex) {
            $0.controlGroups = .auto
            $0.deadlineOverrides["status"] = .seconds(10)
        }
        let outcome = await other.call(WireMethod.status, params: NoParams(), resultType: StatusResult.self)
        #expect((try? outcome.result.get()) != nil, "\(otherEvents.events(.spawnFailed).map(\.message))")
        await other.stop()
        bombLaunch.cancel()
        await bomb.stop()
        try await waitFor("the bomb's processes gone", timeout: .seconds(10)) { hostile.processesRunningScript.isEmpty }
    }

    /// A `setsid` daemon (out of the extension's process group), then the extension sleeps.
    static let daemonScript = """
        #!/bin/sh
        setsid sh -c '(sleep 600.@TOKEN@ &); echo started > "@OWN@/daemon"' &
        exec sleep 601.@TOKEN@
        """

    @Test("the extension's control groups are made for the launch and removed after the stop, its setsid daemon killed",
          .enabled(if: controlGroupsAvailable, "needs control groups (a root host with cgroup v1 memory and pids)"),
          arguments: [SandboxMode.auto, .off])
    func controlGroupsAreRemoved(sandbox: SandboxMode) async throws {
        let hostile = try HostileExtension(script: Self.daemonScript)
        defer { hostile.cleanUp() }
        let (runner, _) = hostile.runner(sandbox: sandbox) { $0.controlGroups = .auto }
        let launch = Task { await runner.prewarm() }
        try await waitFor("the daemon started", timeout: .seconds(10)) { hostile.containerFile("daemon") == "started" }
        let daemon = try #require(hostile.processesWithToken.first)
        let directories = try #require(ControlGroups.hostDirectories)
        var groups: [String] = []
        for (controller, directory) in zip(["memory", "pids"], directories) {
            let group = try #require(Self.controlGroup(of: daemon, controller: controller), "\(controller) of \(daemon)")
            #expect(group.contains("/wallet-host/\(getpid())/hostile-"))
            let path = directory + "/" + (group as NSString).lastPathComponent
            #expect(FileManager.default.fileExists(atPath: path))
            groups.append(path)
        }
        await runner.stop()
        launch.cancel()
        try await waitFor("the daemon gone", timeout: .seconds(3)) { hostile.processesWithToken.isEmpty }
        for path in groups {
            #expect(!FileManager.default.fileExists(atPath: path), "\(path) left behind")
        }
    }

    /// Four children allocate 30 MB each at once: past the control group's hard limit before
    /// any sample of the host's.
    static let burstScript = """
        #!/usr/bin/python3
        import os, time
        for _ in range(4):
            if os.fork() == 0:
                block = b"\\x01" * (30 << 20)
                time.sleep(60)
                os._exit(0)
        time.sleep(60)
        """

    @Test("an OOM kill by the kernel at the control group's hard limit is reported as a memory kill",
          .enabled(if: controlGroupsAvailable, "needs control groups (a root host with cgroup v1 memory and pids)"))
    func kernelOutOfMemoryKillIsAMemoryDeath() async throws {
        let hostile = try HostileExtension(script: Self.burstScript)
        defer { hostile.cleanUp() }
        // The host's own sampling stays out of the way: only the kernel acts.
        let (runner, events) = hostile.runner(sandbox: .auto) {
            $0.controlGroups = .auto
            $0.sampleInterval = .seconds(60)
        }
        _ = await runner.prewarm()
        let (kill, message) = try #require(Self.memoryKill(in: events), "no memoryKill after the kernel's OOM kill")
        #expect(kill.kernelLimitBytes == (55 + 16) << 20)
        #expect(message.hasPrefix("the kernel's OOM killer ended a process at the control group's 71 MB hard limit"))
        let exit = try #require(Self.exit(in: events))
        #expect(exit.cause.isMemoryLimit, "not a memory death: \(exit.description)")
        try await waitFor("every child gone", timeout: .seconds(5)) { hostile.processesRunningScript.isEmpty }
    }

    @Test("the kernel's OOM kill of the extension itself, writing to /dev/shm between samples, is a memory kill",
          .enabled(if: controlGroupsAvailable, "needs control groups (a root host with cgroup v1 memory and pids)"))
    func kernelKillOfTheExtensionItself() async throws {
        let hostile = try HostileExtension(script: Self.tmpfsScript.replacingOccurrences(of: "@DIRECTORY@", with: "/dev/shm"))
        defer {
            hostile.cleanUp()
            unlink("/dev/shm/fill-\(hostile.token)")
        }
        let (runner, events) = hostile.runner(sandbox: .off) {
            $0.controlGroups = .auto
            $0.sampleInterval = .seconds(60)
        }
        _ = await runner.prewarm()
        let (kill, _) = try #require(Self.memoryKill(in: events), "no memoryKill after the kernel's OOM kill")
        #expect(kill.kernelLimitBytes == (55 + 16) << 20)
        // The file outlives its writer: its pages are still the group's.
        #expect((kill.usage?.sharedBytes ?? 0) > 55 << 20)
        let exit = try #require(Self.exit(in: events))
        #expect(exit.status == .signaled(SIGKILL))
        #expect(exit.cause.isMemoryLimit, "not a memory death: \(exit.description)")
    }

    // MARK: Helpers

    /// The first `memoryKill` and its message.
    static func memoryKill(in events: EventCollector) -> (HostEvent.MemoryKill, String)? {
        for event in events.events(.memoryKill) {
            if case .memoryKill(let kill) = event.payload { return (kill, event.message) }
        }
        return nil
    }

    /// The first `exit`.
    static func exit(in events: EventCollector) -> HostEvent.Exit? {
        for event in events.events(.exit) {
            if case .exit(let exit) = event.payload { return exit }
        }
        return nil
    }

    /// The group of `pid` in `controller`'s hierarchy, as /proc/PID/cgroup names it.
    static func controlGroup(of pid: pid_t, controller: String) -> String? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/cgroup", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2)
            if fields.count == 3, fields[1].split(separator: ",").contains(Substring(controller)) { return String(fields[2]) }
        }
        return nil
    }
}

extension ExtensionExit.Cause {
    /// Whether the extension died of its memory limit, whatever footprint was sampled.
    var isMemoryLimit: Bool {
        guard case .memoryLimit = self else { return false }
        return true
    }
}
