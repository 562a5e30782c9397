import Foundation
import Testing
import WalletHostRuntime
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A program run to completion (how the host opens a containing app), its output split into lines.
@Suite("ProcessRun", .timeLimit(.minutes(1)))
struct ProcessRunTests {
    static func configuration(_ script: String) -> SpawnConfiguration {
        SpawnConfiguration(executablePath: "/bin/sh", arguments: ["-c", script], environment: ["PATH": "/usr/bin:/bin"],
                           workingDirectory: "/", limits: ProcessLimits(dataBytes: nil))
    }

    static func run(_ script: String) throws -> ProcessRun {
        try ProcessRun.run(configuration(script), timeout: .seconds(10))
    }

    /// The run's timeout is a timer on its loop, so on the loop's clock: on a ``TestClock``, the
    /// 30 s pass when the test says so, and not a moment before.
    @Test("the timeout is on the loop's clock: the program is killed when a test clock passes it")
    func timeoutOnTheLoopsClock() async throws {
        let clock = TestClock()
        let loop = try HostLoop(clock: clock, threadName: "wh-run-test")
        let configuration = Self.configuration("echo started; exec sleep 60")
        let run = Task.detached { try ProcessRun.run(configuration, timeout: .seconds(30), loop: loop) }
        try await waitFor("the run's timeout armed") { loop.scheduledTimerCount == 1 }
        clock.advance(by: .seconds(29))
        await Self.onLoop(loop)
        #expect(loop.scheduledTimerCount == 1, "the timeout fired before the clock reached it")
        clock.advance(by: .seconds(1))
        let ended = try await run.value
        #expect(ended.timedOut)
        #expect(ended.status == .signaled(SIGKILL))
        #expect(ended.stdoutLines == ["started"])
        #expect(ended.milliseconds == 30_000, "the run's time is on its clock too")
        #expect(loop.scheduledTimerCount == 0, "the run left a timer behind")
        await loop.shutdown()
    }

    /// A program that writes more than a pipe holds, and then exits: everything is read (the
    /// loop reads a pipe a few chunks a turn, and to its end once the program is reaped).
    @Test("a program's output larger than a pipe arrives whole")
    func outputLargerThanAPipe() throws {
        let run = try Self.run("seq 1 200000")
        #expect(run.status == .exited(0))
        #expect(run.stdoutLines.count == 200_000)
        #expect(run.stdoutLines.last == "200000")
    }

    /// Returns once the loop has run everything it had to do before now.
    static func onLoop(_ loop: HostLoop) async {
        await withCheckedContinuation { continuation in loop.execute { continuation.resume() } }
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
