import Foundation
import Testing
@testable import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// What a spawned child gets (DESIGN §5), checked from inside the child with `/bin/sh`: the
/// spawn path (clone with CLONE_VM | CLONE_VFORK, set-up in the child, exec) must keep every
/// promise the fork-based one kept.
@Suite("Spawning a child", .serialized, .timeLimit(.minutes(1)))
struct ChildProcessTests {
    private func shell(_ script: String, workingDirectory: String? = "/", limits: ProcessLimits = ProcessLimits(dataBytes: 64 << 20))
        -> SpawnConfiguration {
        SpawnConfiguration(executablePath: "/bin/sh", arguments: ["-c", script], environment: ["PATH": "/usr/bin:/bin"],
                           workingDirectory: workingDirectory, limits: limits)
    }

    @Test("the child has fds 0-4 only, its own process group, default signals, the limits and the working directory")
    func childEnvironment() throws {
        let script = """
            for n in 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do [ -e /proc/$$/fd/$n ] && echo "open fd $n"; done
            for n in 0 1 2 3 4; do [ -e /proc/$$/fd/$n ] && echo "fd $n"; done
            echo "stdin $(readlink /proc/$$/fd/0)"
            read -r stat < /proc/$$/stat; echo "stat $stat"
            echo "pid $$"
            echo "cwd $(pwd)"
            while read -r key value; do case $key in SigIgn:|SigBlk:) echo "$key $value";; esac; done < /proc/$$/status
            grep -E '^Max (data size|stack size|core file size|open files|processes) ' /proc/$$/limits
            """
        // The signal masks are read with the shell's own `read`: while it waits for a command it
        // starts (grep), dash blocks every signal, and /proc would show that mask instead.
        let run = try ProcessRun.run(shell(script, workingDirectory: "/tmp"), timeout: .seconds(10))
        #expect(run.status == .exited(0), "stderr: \(run.stderrLines)")
        let lines = run.stdoutLines
        #expect(!lines.contains { $0.hasPrefix("open fd") }, "\(lines)")
        #expect(lines.filter { $0.hasPrefix("fd ") } == ["fd 0", "fd 1", "fd 2", "fd 3", "fd 4"])
        #expect(lines.contains("stdin /dev/null"))
        #expect(lines.contains("cwd /tmp"))
        let pid = try #require(lines.first { $0.hasPrefix("pid ") }.map { String($0.dropFirst(4)) })
        // /proc/PID/stat: pid (comm) state ppid pgrp ...; the child leads its own group.
        let stat = try #require(lines.first { $0.hasPrefix("stat ") })
        let fields = stat[stat.index(after: try #require(stat.lastIndex(of: ")")))...].split(separator: " ")
        #expect(fields.count > 2 && fields[1] == String(getpid()), "parent: \(stat)")
        #expect(fields.count > 2 && String(fields[2]) == pid, "process group: \(stat)")
        #expect(lines.contains { $0.hasPrefix("SigIgn:") && $0.hasSuffix("0000000000000000") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("SigBlk:") && $0.hasSuffix("0000000000000000") }, "\(lines)")
        for (name, value) in [("data size", 64 << 20), ("stack size", 1 << 20), ("core file size", 0), ("open files", 256),
                              ("processes", 4096)] {
            let limit = lines.first { $0.hasPrefix("Max \(name) ") }?.split(separator: " ", omittingEmptySubsequences: true)
            let soft = limit.map { $0.count > 3 ? String($0[$0.count - 3]) : "" }
            #expect(soft == String(value), "Max \(name): \(limit ?? [])")
        }
    }

    @Test("a step that fails before exec comes back as its stage and errno")
    func failureBeforeExec() throws {
        #expect {
            _ = try ProcessRun.run(shell("echo never", workingDirectory: "/nonexistent-wallet-host-directory"),
                                   timeout: .seconds(10))
        } throws: { error in
            guard let spawnError = error as? SpawnError else { return false }
            return spawnError.stage == .chdir && spawnError.errno == ENOENT
        }
        #expect {
            _ = try ProcessRun.run(shell("echo never").with(executablePath: "/nonexistent-wallet-host-program"),
                                   timeout: .seconds(10))
        } throws: { error in
            guard let spawnError = error as? SpawnError else { return false }
            return spawnError.stage == .execve && spawnError.errno == ENOENT
        }
    }

    @Test("the exit descriptor is a pidfd of the child: readable once it exits")
    func exitDescriptor() throws {
        let child = try ChildProcess.spawn(shell("exit 7"))
        defer { child.closeDescriptors() }
        #expect(child.exitDescriptor >= 0)
        #expect(fcntl(child.exitDescriptor, F_GETFD) & FD_CLOEXEC != 0)
        var descriptor = [pollfd(fd: child.exitDescriptor, events: Int16(POLLIN), revents: 0)]
        #expect(poll(&descriptor, 1, 10_000) == 1)
        #expect(child.reapIfExited() == .exited(7))
    }

    @Test("spawns from many tasks at once all start the right program")
    func concurrentSpawns() async throws {
        let outputs = try await withThrowingTaskGroup(of: [String].self) { group in
            for index in 0..<24 {
                group.addTask { try ProcessRun.run(shell("echo run \(index)"), timeout: .seconds(10)).stdoutLines }
            }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(Set(outputs) == Set((0..<24).map { "run \($0)" }))
    }
}

private extension SpawnConfiguration {
    func with(executablePath: String) -> SpawnConfiguration {
        var copy = self
        copy.executablePath = executablePath
        return copy
    }
}
