import Foundation
import Testing
import WalletHostRuntime

/// A program run to completion (how the host opens a containing app), its output split into lines.
@Suite("ProcessRun", .timeLimit(.minutes(1)))
struct ProcessRunTests {
    static func run(_ script: String) throws -> ProcessRun {
        let configuration = SpawnConfiguration(executablePath: "/bin/sh", arguments: ["-c", script],
                                               environment: ["PATH": "/usr/bin:/bin"], workingDirectory: "/",
                                               limits: ProcessLimits(dataBytes: nil))
        return try ProcessRun.run(configuration, timeout: .seconds(10))
    }

    @Test("lines from stdout and stderr; an overlong line by its size; the last line without its newline")
    func lines() throws {
        let run = try Self.run(#"echo first; printf '%070000d\n' 0; echo after; echo oops >&2; printf 'last words'"#)
        #expect(run.status == .exited(0))
        #expect(run.stdoutLines == ["first", "(a line of 70000 bytes, not shown)", "after", "last words"])
        #expect(run.stderrLines == ["oops"])
        #expect(!run.timedOut)
    }

    /// The run waits on the program's output and its pidfd, not on a 20 ms poll: a program that
    /// runs quietly for half a second costs its caller a few wake-ups, not 25.
    @Test("a quiet program does not wake its caller every 20 ms")
    func quietProgramDoesNotWakeTheCaller() throws {
        let before = Self.voluntarySwitches()
        let run = try Self.run("sleep 0.5")
        let switches = Self.voluntarySwitches() - before
        #expect(run.status == .exited(0))
        #expect(switches < 10, "\(switches) wake-ups of the calling thread in half a second")
    }

    /// The calling thread's voluntary context switches (each a wait that ended).
    static func voluntarySwitches() -> Int {
        let status = (try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
        return line.flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
    }
}
