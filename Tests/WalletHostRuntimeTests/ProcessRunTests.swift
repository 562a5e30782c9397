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
}
